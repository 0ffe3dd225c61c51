import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import { LOGIN_PATH } from '../../authProvider/landing';
import { PublicLayout } from '../public/PublicLayout';

interface LegalDocumentProps {
  /** i18n namespace: 'app.terms' or 'app.privacy'. */
  namespace: string;
  sectionCount: number;
  lastModified?: string;
}

/** A numbered legal text (title, optional last-modified date, sections s1..sN). */
export function LegalDocument({ namespace, sectionCount, lastModified }: LegalDocumentProps) {
  const translate = useTranslate();
  return (
    <PublicLayout wide>
      <Paper variant="outlined" sx={{ p: { xs: 2.5, sm: 4 } }}>
        <Typography variant="h4" component="h1" sx={{ fontWeight: 700, mb: 1 }}>
          {translate(`${namespace}.title`)}
        </Typography>
        {lastModified ? (
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {translate('app.legal.lastModified', { date: lastModified })}
          </Typography>
        ) : null}
        <Typography sx={{ mb: 3 }}>{translate(`${namespace}.intro`)}</Typography>
        <Box component="ol" sx={{ pl: 3, m: 0 }}>
          {Array.from({ length: sectionCount }, (_, i) => `s${i + 1}`).map((key) => (
            <Box component="li" key={key} sx={{ mb: 2 }}>
              <Typography variant="h6" component="h2">
                {translate(`${namespace}.sections.${key}.title`)}
              </Typography>
              <Typography color="text.secondary">{translate(`${namespace}.sections.${key}.body`)}</Typography>
            </Box>
          ))}
        </Box>
        <Button component={RouterLink} to={LOGIN_PATH} sx={{ mt: 2 }}>
          {translate('app.legal.back')}
        </Button>
      </Paper>
    </PublicLayout>
  );
}
