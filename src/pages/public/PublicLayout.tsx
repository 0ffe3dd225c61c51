import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import { Logo } from '../../components/Logo';
import { brandPurple, brandPurpleDark } from '../../layout/theme';

/**
 * Public and sign-up pages: the purple brand panel with the tagline beside the page (above it on
 * a phone).
 */
export function PublicLayout({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  const translate = useTranslate();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: { xs: 'column', md: 'row' }, bgcolor: 'background.default' }}>
      <Box
        component="aside"
        data-testid="brand-panel"
        sx={{
          flex: { md: '0 0 38%' },
          maxWidth: { md: 520 },
          background: `linear-gradient(160deg, ${brandPurple} 0%, ${brandPurpleDark} 100%)`,
          color: '#ffffff',
          p: { xs: 3, md: 6 },
          display: 'flex',
          flexDirection: 'column',
          justifyContent: { xs: 'flex-start', md: 'space-between' },
          gap: 2,
        }}
      >
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
          <Logo size={40} inverted />
          <Typography variant="h6" component="span" sx={{ fontWeight: 700 }}>
            {translate('app.brand.name')}
          </Typography>
        </Box>
        <Typography variant="h4" component="p" sx={{ fontWeight: 700, fontSize: { xs: 22, md: 34 }, lineHeight: 1.25 }}>
          {translate('app.brand.tagline')}
        </Typography>
      </Box>
      <Box component="main" sx={{ flex: 1, display: 'flex', justifyContent: 'center', alignItems: { xs: 'flex-start', md: 'center' }, p: { xs: 2, sm: 4 } }}>
        <Box sx={{ width: '100%', maxWidth: wide ? 880 : 440 }}>{children}</Box>
      </Box>
    </Box>
  );
}
