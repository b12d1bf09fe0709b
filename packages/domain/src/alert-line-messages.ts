import { formatAmount } from './format-amount.ts';

/** How a line's bound reads: "100.00 credits", "80 % of the monthly cap", "7 days of runway". */
export function alertBoundText(kind: string, bound: string, window: string | null): string {
  const number = bound.replace(/\.00$/, '');
  if (kind === 'cap_percent')
    return `${number} % of the ${window === 'day' ? 'daily' : window === 'week' ? 'weekly' : 'monthly'} spend cap`;
  if (kind === 'runway_days') return `${number} ${number === '1' ? 'day' : 'days'} of runway`;
  return `${formatAmount(bound)} credits`;
}

/** How the value a line measures reads, in the unit of its bound. */
export function alertValueText(kind: string, value: string): string {
  const number = value.replace(/\.00$/, '');
  if (kind === 'cap_percent') return `${number} %`;
  if (kind === 'runway_days') return `${number} ${number === '1' ? 'day' : 'days'}`;
  return `${formatAmount(value)} credits`;
}

/** One sentence stating when a line alerts, as the console lists it. */
export function alertLineDescription(kind: string, bound: string, window: string | null): string {
  if (kind === 'cap_percent') return `Alert at ${alertBoundText(kind, bound, window)} used`;
  if (kind === 'runway_days') {
    const days = bound.replace(/\.00$/, '');
    return `Alert when the credits last fewer than ${days} ${days === '1' ? 'day' : 'days'} at the current rate`;
  }
  return `Alert when the balance is below ${alertBoundText(kind, bound, window)}`;
}

/** What the server answers about an organization's alert lines, and the mail a crossed line sends. */
export const ALERT_LINE_MESSAGES = {
  onlyOwnAdmins: "Only the organization's own admins set its alert lines.",
  notFound: 'No alert line with this id in this organization.',
  tooMany: (max: number) => `An organization can have at most ${max} alert lines. Delete one before adding another.`,
  balanceInvalid: 'Enter a balance of 0 or more credits, with at most 2 decimal places.',
  percentInvalid: 'Enter a percent of the cap from 1 to 100, in whole percent.',
  daysInvalid: 'Enter a runway of 1 to 365 whole days.',
  windowInvalid: 'Choose the cap window: day, week or month.',
  kindInvalid: 'Choose what the line watches: the balance, a percent of the spend cap, or the days of runway.',
  kindFixed: 'An alert line keeps its kind: delete it and add another.',
  crossedSubject: (organization: string) => `Alert: ${organization}`,
  crossed: (organization: string, kind: string, bound: string, value: string, window: string | null) => {
    const what =
      kind === 'cap_percent'
        ? `has used ${alertValueText(kind, value)} of its spend cap this ${window ?? 'month'}`
        : kind === 'runway_days'
          ? `has ${alertValueText(kind, value)} of credits left at its current rate of use`
          : `has ${alertValueText(kind, value)}`;
    const side = kind === 'cap_percent' ? 'at or above' : 'below';
    return `Alert: ${organization} ${what}, ${side} your alert line of ${alertBoundText(kind, bound, window)}.`;
  },
};
