import { BarChart } from '@mui/x-charts/BarChart';
import type { IncomeReport } from '../../../contract/api/earnings';
import { usdtFormatter } from '../../components/UsdtAmount';
import { MONTH_LABELS } from '../../components/formatDate';

/** Y ticks stay short ('0.5', '250', '12.5K', '1.2M') so they fit the axis whole; the tooltip gives the exact amount. */
const tickFormatter = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const Y_AXIS_WIDTH = 56;

/** The bar chart of one year's monthly income (lazy-loaded: @mui/x-charts is heavy). */
export default function IncomeChart({ report, label }: { report: IncomeReport; label: string }) {
  const byMonth = MONTH_LABELS.map((_, i) => report.months.find((m) => m.month === i + 1)?.income ?? 0);
  // A year without income still gets a 0 to 1 scale instead of a single tick at 0.
  const max = byMonth.some((income) => income > 0) ? undefined : 1;
  return (
    <BarChart
      height={320}
      xAxis={[{ scaleType: 'band', data: MONTH_LABELS }]}
      yAxis={[{ min: 0, max, width: Y_AXIS_WIDTH, valueFormatter: (value: number) => tickFormatter.format(value) }]}
      series={[{ data: byMonth, label, valueFormatter: (value) => usdtFormatter.format(value ?? 0) }]}
    />
  );
}
