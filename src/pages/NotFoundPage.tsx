import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useTranslate } from 'ra-core';
import { LOGIN_PATH } from '../authProvider/landing';

/** Any path that is not a route of the product (spec 2). */
export function NotFoundPage() {
  const translate = useTranslate();
  return (
    <Box sx={{ minHeight: '60vh', display: 'grid', placeItems: 'center', p: 3, textAlign: 'center' }}>
      <Box>
        <Typography variant="h2" component="p" color="primary" sx={{ fontWeight: 800 }}>
          404
        </Typography>
        <Typography variant="h5" component="h1" sx={{ mb: 3 }}>
          {translate('app.notFound.message')}
        </Typography>
        <Button variant="contained" component={RouterLink} to={LOGIN_PATH}>
          {translate('app.notFound.home')}
        </Button>
      </Box>
    </Box>
  );
}
