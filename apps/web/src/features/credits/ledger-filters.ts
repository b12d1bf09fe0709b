import { addDays, startOfDay } from 'date-fns';
import type { DateRange } from 'react-day-picker';

/**
 * A picked range of local days as the API's bounds: `from` is the start of the first day
 * (inclusive), `to` the start of the day after the last (exclusive), so the end date is
 * inclusive. A range with one day covers that day.
 */
export function dateRangeBounds(range: DateRange | undefined): { from?: string; to?: string } {
  if (!range?.from) return {};
  const last = range.to ?? range.from;
  return { from: startOfDay(range.from).toISOString(), to: addDays(startOfDay(last), 1).toISOString() };
}
