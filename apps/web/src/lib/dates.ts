import { format } from 'date-fns';

/**
 * The console's two ways of writing a moment, in the viewer's time zone: every screen uses
 * these, so a date reads the same everywhere.
 */
const DATE_TIME = 'MMM d, yyyy h:mm a';
const DATE = 'MMM d, yyyy';

function dateOf(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A date and time as "Jan 5, 2024 3:04 PM"; N/A when missing or unreadable. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  const date = dateOf(value);
  return date ? format(date, DATE_TIME) : 'N/A';
}

/** A day as "Jan 5, 2024"; N/A when missing or unreadable. */
export function formatDate(value: string | number | Date | null | undefined): string {
  const date = dateOf(value);
  return date ? format(date, DATE) : 'N/A';
}
