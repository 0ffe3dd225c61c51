import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import LogoutIcon from '@mui/icons-material/Logout';
import MenuIcon from '@mui/icons-material/Menu';
import { useLogout, useTranslate } from 'ra-core';
import { Link } from 'react-router-dom';
import { landingPath } from '../authProvider/landing';
import { Logo } from '../components/Logo';
import { useSignedInAccount } from './AccountContext';

/** Top bar: menu toggle, logo (a link to the role's dashboard), the person's name and role label, log-out (staff to /admin/login, spec 2). */
export function TopBar({ onToggleMenu }: { onToggleMenu: () => void }) {
  const translate = useTranslate();
  const logout = useLogout();
  const { account, accountType } = useSignedInAccount();
  return (
    <AppBar position="fixed" color="inherit" elevation={1} sx={{ zIndex: (theme) => theme.zIndex.drawer + 1 }}>
      <Toolbar sx={{ gap: 1 }}>
        <IconButton edge="start" onClick={onToggleMenu} aria-label={translate('app.layout.toggleMenu')}>
          <MenuIcon />
        </IconButton>
        <Box
          component={Link}
          to={landingPath(accountType)}
          aria-label={translate('app.layout.home')}
          sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, color: 'inherit', textDecoration: 'none' }}
        >
          <Logo />
          <Typography variant="h6" component="span" sx={{ fontWeight: 700, display: { xs: 'none', sm: 'inline' } }}>
            {translate('app.brand.name')}
          </Typography>
        </Box>
        <Box sx={{ flex: 1 }} />
        <Box sx={{ textAlign: 'right', minWidth: 0 }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }} noWrap data-testid="topbar-name">
            {account.firstName} {account.lastName}
          </Typography>
          <Typography variant="caption" color="text.secondary" data-testid="topbar-role">
            {translate(`app.roles.${accountType}`)}
          </Typography>
        </Box>
        <IconButton onClick={() => void logout()} aria-label={translate('app.layout.logout')}>
          <LogoutIcon />
        </IconButton>
      </Toolbar>
    </AppBar>
  );
}
