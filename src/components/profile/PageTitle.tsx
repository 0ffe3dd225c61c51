import HomeIcon from '@mui/icons-material/Home';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';

/** A detail page's title with the home button back to its list, and actions on the right. */
export function PageTitle({ title, home, actions }: { title: string; home?: string; actions?: ReactNode }) {
  const translate = useTranslate();
  return (
    <Stack direction="row" alignItems="center" spacing={1}>
      {home && (
        <IconButton component={Link} to={home} aria-label={translate('app.lists.home')}>
          <HomeIcon />
        </IconButton>
      )}
      <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
        {title}
      </Typography>
      {actions}
    </Stack>
  );
}
