import { useRouteError } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';

/** Shown when routing itself fails (a chunk that cannot load, a render error) (spec 2). */
export function UnexpectedErrorPage() {
  const translate = useTranslate();
  const error = useRouteError();
  const detail = error instanceof Error ? error.message : undefined;
  return (
    <Box sx={{ minHeight: '60vh', display: 'grid', placeItems: 'center', p: 3, textAlign: 'center' }}>
      <Box>
        <Typography variant="h4" component="h1" sx={{ mb: 2 }}>
          {translate('app.unexpected.title')}
        </Typography>
        {detail ? (
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {detail}
          </Typography>
        ) : null}
        <Button variant="contained" onClick={() => window.location.reload()}>
          {translate('app.unexpected.reload')}
        </Button>
      </Box>
    </Box>
  );
}
