/** Short month names, January first. */
export const MONTH_LABELS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const YEAR_MONTH = /^(\d{4})-(\d{2})$/;

const twoDigits = (value: number) => String(value).padStart(2, '0');

/** A date from an ISO string (a date alone is a local day), a timestamp or a Date; undefined when invalid. */
function toDate(value: string | number | Date | null | undefined): Date | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const day = typeof value === 'string' ? DATE_ONLY.exec(value) : null;
  const date = day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

/** Dates display DD/MM/YYYY (spec 9), in local time; an empty or invalid value gives ''. */
export function formatDate(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? `${twoDigits(date.getDate())}/${twoDigits(date.getMonth() + 1)}/${date.getFullYear()}` : '';
}

/** Transaction times display hh:mm (24-hour, local time). */
export function formatTime(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? `${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}` : '';
}

/** A YYYY-MM month value as 'Jan 2025' (month filters). */
export function formatMonth(value: string): string {
  const match = YEAR_MONTH.exec(value);
  const month = match ? MONTH_LABELS[Number(match[2]) - 1] : undefined;
  return match && month ? `${month} ${match[1]}` : '';
}
