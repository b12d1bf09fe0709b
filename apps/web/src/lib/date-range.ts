import { addDays, format, isValid, parse, startOfDay } from 'date-fns';
import type { DateRange } from 'react-day-picker';

/** How a picked day is kept in the URL. */
export const URL_DAY = 'yyyy-MM-dd';

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

/** A URL day as a local date; undefined when missing or malformed. */
export function dayOf(value: string | null): Date | undefined {
  if (!value) return undefined;
  const date = parse(value, URL_DAY, new Date());
  return isValid(date) && format(date, URL_DAY) === value ? date : undefined;
}

/** The URL's `from` and `to` days as a range; undefined without a valid `from`. */
export function rangeOf(fromText: string | null, toText: string | null): DateRange | undefined {
  const from = dayOf(fromText);
  return from ? { from, to: dayOf(toText) } : undefined;
}

/** A picked range as the URL's `from` and `to` days. */
export function rangeParams(value: DateRange | undefined): { from?: string; to?: string } {
  return {
    from: value?.from ? format(value.from, URL_DAY) : undefined,
    to: value?.from && value.to ? format(value.to, URL_DAY) : undefined,
  };
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
