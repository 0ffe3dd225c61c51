import { BarChart } from '@mui/x-charts/BarChart';
import type { IncomeReport } from '../../../contract/api/earnings';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The bar chart of one year's monthly income (lazy-loaded: @mui/x-charts is heavy). */
export default function IncomeChart({ report, label }: { report: IncomeReport; label: string }) {
  const byMonth = MONTHS.map((_, i) => report.months.find((m) => m.month === i + 1)?.income ?? 0);
  return <BarChart height={320} xAxis={[{ scaleType: 'band', data: MONTHS }]} series={[{ data: byMonth, label }]} />;
}
