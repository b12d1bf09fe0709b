import { formatDecimal } from '@/lib/credit-format';

/** An exact amount in a currency, never through a float: "1,234.50 EUR". */
export function formatMoney(amount: string, currency: string | null | undefined): string {
  return currency ? `${formatDecimal(amount)} ${currency}` : formatDecimal(amount);
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})/;

/** A calendar day ("2025-03-05", or the day of a timestamp as written) as "Mar 5, 2025", without a time-zone shift. */
export function formatDay(day: string): string {
  const match = DAY.exec(day);
  if (!match) return day;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  });
}

/** "2025-03" as "March 2025"; anything else as it is. */
export function monthLabel(month: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return month;
  return new Date(Number(match[1]), Number(match[2]) - 1, 1).toLocaleString('en-US', { month: 'long', year: 'numeric' });
}

const monthOf = (date: Date) => `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, '0')}`;

/** The months (UTC) from this one back, newest first: `count` of them. */
export function recentMonths(count: number, now: Date = new Date()): string[] {
  return Array.from({ length: count }, (_, back) => monthOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1))));
}

/** The month before this one (UTC): the one a statement or an export is usually about. */
export function lastMonth(now: Date = new Date()): string {
  return recentMonths(2, now)[1]!;
}

/** Today (UTC) as "YYYY-MM-DD": the server refuses a payment dated after its own today. */
export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** A rate as stored ("20.000") as one would type it ("20"; "7.250" as "7.25"). */
export const plainRate = (rate: string): string => (rate.includes('.') ? rate.replace(/0+$/, '').replace(/\.$/, '') : rate);

/** Whether a non-negative decimal string is above zero. */
export const isPositive = (amount: string): boolean => !amount.trim().startsWith('-') && /[1-9]/.test(amount);
