import { LineChart } from '@mui/x-charts/LineChart';
import type { CustomerResults } from '../../../contract/api/results';

/** Realized PnL running total and the wallet it implies, per day (lazy-loaded: @mui/x-charts is heavy). */
export default function ResultsChart({ days, labels }: { days: CustomerResults['days']; labels: { cumulative: string; wallet: string } }) {
  return (
    <LineChart
      height={260}
      xAxis={[{ scaleType: 'point', data: days.map((day) => day.day) }]}
      series={[
        { data: days.map((day) => day.cumulative), label: labels.cumulative },
        { data: days.map((day) => day.wallet), label: labels.wallet },
      ]}
    />
  );
}
