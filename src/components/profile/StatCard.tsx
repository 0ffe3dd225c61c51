import Card from '@mui/material/Card';
import Skeleton from '@mui/material/Skeleton';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A statistics card: a label over a big value (a placeholder while `loading`, never a 0). */
export function StatCard({ label, value, loading = false }: { label: string; value: ReactNode; loading?: boolean }) {
  return (
    <Card variant="outlined" sx={{ flex: 1, minWidth: 200 }}>
      <CardContent>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="h5" component="p" data-testid={`stat-${label}`} aria-busy={loading}>
          {loading ? <Skeleton variant="text" width={96} /> : value}
        </Typography>
      </CardContent>
    </Card>
  );
}
