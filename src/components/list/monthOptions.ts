import { FIRST_FILTER_MONTH } from '../../../contract/constants';

/** Every month from May 2024 to the month of `now`, newest first, as YYYY-MM (spec 9). */
export function monthOptions(now: Date): string[] {
  const [firstYear, firstMonth] = FIRST_FILTER_MONTH.split('-').map(Number) as [number, number];
  const months: string[] = [];
  let year = now.getUTCFullYear();
  let month = now.getUTCMonth() + 1;
  while (year > firstYear || (year === firstYear && month >= firstMonth)) {
    months.push(`${year}-${String(month).padStart(2, '0')}`);
    month -= 1;
    if (month === 0) {
      month = 12;
      year -= 1;
    }
  }
  return months;
}
