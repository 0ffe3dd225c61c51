import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** The title of a list page with its counts (e.g. Active(12)) and its buttons on the right. */
export function ListHeader({ title, counts, actions }: { title: string; counts?: ReactNode; actions?: ReactNode }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }} justifyContent="space-between">
      <Stack direction="row" spacing={2} alignItems="baseline" flexWrap="wrap">
        <Typography variant="h5" component="h1">
          {title}
        </Typography>
        {counts}
      </Stack>
      {actions && (
        <Stack direction="row" spacing={1} flexWrap="wrap">
          {actions}
        </Stack>
      )}
    </Stack>
  );
}

/** One header count: 'Active(12)'; while its figure loads (undefined), a placeholder instead of a 0. */
export function HeaderCount({ label, value, color }: { label: string; value: number | undefined; color?: string }) {
  if (value === undefined) {
    return (
      <Typography variant="body2" color={color ?? 'text.secondary'} data-testid={`count-${label}`} aria-busy="true" sx={{ display: 'inline-flex', alignItems: 'center' }}>
        {label}(<Skeleton variant="text" width={18} sx={{ display: 'inline-block' }} />)
      </Typography>
    );
  }
  return (
    <Typography variant="body2" color={color ?? 'text.secondary'} data-testid={`count-${label}`}>
      {`${label}(${value})`}
    </Typography>
  );
}
