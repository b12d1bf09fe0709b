import { format } from 'date-fns';

/**
 * The console's ways of writing a moment (in the viewer's time zone), a calendar day and a
 * month: every screen uses these, so a date reads the same everywhere (lint refuses the
 * browser's toLocaleDateString and friends elsewhere in the app).
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

const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})/;

/** A calendar day ("2025-03-05", or the day of a timestamp as written) as "Mar 5, 2025", without a time-zone shift. */
export function formatDay(day: string): string {
  const match = CALENDAR_DAY.exec(day);
  if (!match) return day;
  return format(new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])), DATE);
}

/** A month ("2025-03") as "March 2025"; anything else as it is. */
export function formatMonth(month: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return month;
  return format(new Date(Number(match[1]), Number(match[2]) - 1, 1), 'MMMM yyyy');
}
