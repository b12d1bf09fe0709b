import { format } from 'date-fns';

/** A date and time as "Jan 5, 2024 3:04 PM" in the viewer's time zone; N/A when missing. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return 'N/A';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? 'N/A' : format(date, 'MMM d, yyyy h:mm a');
}
