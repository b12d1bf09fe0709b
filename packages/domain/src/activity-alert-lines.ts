import { alertBoundText } from './alert-line-messages.ts';

/**
 * The activity log's actions for alert lines. Each writer stores {kind, bound, window} of the
 * line as it is after the change (`after`), and as it was before (`before`) for an edit or a
 * deletion.
 */
export const ALERT_LINE_ACTIONS = ['alert_line.create', 'alert_line.update', 'alert_line.delete'] as const;
export type AlertLineAction = (typeof ALERT_LINE_ACTIONS)[number];

export const ALERT_LINE_ACTION_LABELS: Record<AlertLineAction, string> = {
  'alert_line.create': 'Alert line added',
  'alert_line.update': 'Alert line changed',
  'alert_line.delete': 'Alert line deleted',
};

/** A line's bound as stored in an audit row's details, in words; "an alert line" without one. */
function lineText(value: unknown): string {
  const line = (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;
  if (typeof line.kind !== 'string' || typeof line.bound !== 'string') return 'an alert line';
  const what = line.kind === 'balance' ? 'a balance below ' : line.kind === 'runway_days' ? 'fewer than ' : '';
  return `the alert line at ${what}${alertBoundText(line.kind, line.bound, typeof line.window === 'string' ? line.window : null)}`;
}

/** The sentence of an alert line action, or null for any other action. */
export function alertLineSentence(action: string, facts: { who: string; org: string; details: Record<string, unknown> }): string | null {
  const { who, org, details } = facts;
  switch (action) {
    case 'alert_line.create':
      return `${who} added ${lineText(details.after)} to ${org}`;
    case 'alert_line.update':
      return `${who} changed ${lineText(details.before)} of ${org} to ${lineText(details.after).replace(/^the alert line at /, '')}`;
    case 'alert_line.delete':
      return `${who} deleted ${lineText(details.before)} of ${org}`;
    default:
      return null;
  }
}
