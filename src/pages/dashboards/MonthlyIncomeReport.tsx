import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import MenuItem from '@mui/material/MenuItem';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslate } from 'react-admin';
import { useAppDataProvider } from '../../dataProvider';

const IncomeChart = lazy(() => import('./IncomeChart'));

/** 'Monthly Income Report': the server's real fee income per month; the years come from the data. */
export function MonthlyIncomeReport() {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const [year, setYear] = useState(() => new Date().getFullYear());
  const { data } = useQuery({ queryKey: ['report', 'income', year], queryFn: () => dataProvider.getIncomeReport(year) });
  const years = data?.years.length ? data.years : [year];
  return (
    <Card variant="outlined">
      <CardContent>
        <Stack direction="row" justifyContent="space-between" alignItems="center">
          <Typography variant="h6" component="h2">
            {translate('app.dashboards.incomeReport')}
          </Typography>
          <TextField select size="small" label={translate('app.dashboards.year')} value={year} onChange={(e) => setYear(Number(e.target.value))}>
            {years.map((option) => (
              <MenuItem key={option} value={option}>
                {option}
              </MenuItem>
            ))}
          </TextField>
        </Stack>
        {data ? (
          <Suspense fallback={<Skeleton variant="rectangular" height={320} />}>
            <IncomeChart report={data} label={translate('app.dashboards.income')} />
          </Suspense>
        ) : (
          <Skeleton variant="rectangular" height={320} />
        )}
      </CardContent>
    </Card>
  );
}
