import { format, isValid, parseISO } from 'date-fns';

function toDate(value: string | number | Date | null | undefined): Date | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const date = typeof value === 'string' ? parseISO(value) : new Date(value);
  return isValid(date) ? date : undefined;
}

/** Dates display DD/MM/YYYY (spec 9); an empty or invalid value gives ''. */
export function formatDate(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? format(date, 'dd/MM/yyyy') : '';
}

/** Transaction times display hh:mm (24-hour). */
export function formatTime(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? format(date, 'HH:mm') : '';
}

/** A YYYY-MM month value as 'Jan 2025' (month filters). */
export function formatMonth(value: string): string {
  const date = toDate(`${value}-01`);
  return date ? format(date, 'MMM yyyy') : '';
}
