import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useTranslate } from 'react-admin';
import type { CustomerResults } from '../../../contract/api/results';
import { entryDirectionLabels, type EntryDirection } from '../../../contract/enums';
import { useAppDataProvider } from '../../dataProvider';
import { UsdtAmount } from '../UsdtAmount';

const ResultsChart = lazy(() => import('./ResultsChart'));
const COLUMNS = ['symbol', 'side', 'quantity', 'entryPrice', 'stopLoss', 'takeProfits'] as const;

function PositionsTable({ positions }: { positions: CustomerResults['openPositions'] }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`app.results.${key}`);
  if (positions.length === 0) return <Typography variant="body2">{t('noPositions')}</Typography>;
  return (
    <Table size="small" aria-label={t('positions')}>
      <TableHead>
        <TableRow>
          {COLUMNS.map((column) => (
            <TableCell key={column}>{t(`columns.${column}`)}</TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {positions.map((position) => (
          <TableRow key={position.executionId}>
            <TableCell>{position.symbol}</TableCell>
            <TableCell>{entryDirectionLabels[position.side as EntryDirection] ?? position.side}</TableCell>
            <TableCell>{position.quantity}</TableCell>
            <TableCell>{position.entryPrice ?? '-'}</TableCell>
            <TableCell>{position.stopLoss ?? '-'}</TableCell>
            <TableCell>{position.takeProfits.join(' / ') || '-'}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** A customer's results (issue 29): realized PnL net of fees and funding over time, and the open positions with their protection. */
export function ResultsCard({ customerId }: { customerId: number }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`app.results.${key}`);
  const dataProvider = useAppDataProvider();
  const { data } = useQuery({ queryKey: ['customerResults', customerId], queryFn: () => dataProvider.customerResults(customerId) });
  const total = data?.days.at(-1)?.cumulative ?? 0;
  return (
    <Card variant="outlined" data-testid="customer-results">
      <CardContent>
        <Typography variant="subtitle1">{t('title')}</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('explain')}
        </Typography>
        {data && (
          <>
            <Typography variant="body2" sx={{ mb: 1 }}>
              {t('realized')}: <UsdtAmount value={total} redAtZero={false} />
            </Typography>
            {data.days.length > 1 && (
              <Suspense fallback={null}>
                <ResultsChart days={data.days} labels={{ cumulative: t('chart.cumulative'), wallet: t('chart.wallet') }} />
              </Suspense>
            )}
            <Typography variant="subtitle2" sx={{ mt: 2 }}>
              {t('positions')}
            </Typography>
            <PositionsTable positions={data.openPositions} />
          </>
        )}
      </CardContent>
    </Card>
  );
}
