import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A statistics card: a label over a big value. */
export function StatCard({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Card variant="outlined" sx={{ flex: 1, minWidth: 200 }}>
      <CardContent>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="h5" component="p" data-testid={`stat-${label}`}>
          {value}
        </Typography>
      </CardContent>
    </Card>
  );
}
