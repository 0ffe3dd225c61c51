import { LineChart } from '@mui/x-charts/LineChart';
import type { StrategyQuality } from '../../../contract/api/quality';

/** Alert -> acknowledged per day, p50 and p95 (lazy-loaded: @mui/x-charts is heavy). */
export default function QualityChart({ daily, labels }: { daily: StrategyQuality['daily']; labels: { p50: string; p95: string } }) {
  return (
    <LineChart
      height={240}
      xAxis={[{ scaleType: 'point', data: daily.map((day) => day.day) }]}
      series={[
        { data: daily.map((day) => day.p50AckMs), label: labels.p50, connectNulls: true },
        { data: daily.map((day) => day.p95AckMs), label: labels.p95, connectNulls: true },
      ]}
    />
  );
}
