import { MESSAGES } from '@console/domain';
import { RuleError } from '../../lib/errors.ts';

export interface Period {
  month: string;
  /** The month's first instant, UTC, and the next month's (excluded), as ISO strings. */
  start: string;
  end: string;
}

/**
 * A month ('YYYY-MM', already validated by the route) as its UTC period. A month that has not
 * started has no statement yet: 422 rather than an empty one, so a typo in the year is told.
 */
export function periodOf(month: string, now: Date = new Date()): Period {
  const current = now.toISOString().slice(0, 7);
  if (month > current) throw new RuleError(MESSAGES.invoices.monthInFuture);
  const [year, number] = month.split('-').map(Number) as [number, number];
  return {
    month,
    start: new Date(Date.UTC(year, number - 1, 1)).toISOString(),
    end: new Date(Date.UTC(year, number, 1)).toISOString(),
  };
}
