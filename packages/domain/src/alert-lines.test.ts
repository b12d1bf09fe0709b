import { describe, expect, it } from 'vitest';
import { ALERT_LINE_MESSAGES as m, alertLineDescription } from './alert-line-messages.ts';
import { alertLineInputSchema } from './schemas/alert-lines.ts';

describe('alertLineInputSchema', () => {
  it('reads each kind exactly, a cap line in the month window unless told', () => {
    expect(alertLineInputSchema.parse({ kind: 'balance', bound: 12.5 })).toEqual({ kind: 'balance', bound: '12.50' });
    expect(alertLineInputSchema.parse({ kind: 'balance', bound: '0' })).toEqual({ kind: 'balance', bound: '0.00' });
    expect(alertLineInputSchema.parse({ kind: 'cap_percent', bound: '80' })).toEqual({
      kind: 'cap_percent',
      bound: '80.00',
      window: 'month',
    });
    expect(alertLineInputSchema.parse({ kind: 'cap_percent', bound: 100, window: 'day' })).toEqual({
      kind: 'cap_percent',
      bound: '100.00',
      window: 'day',
    });
    expect(alertLineInputSchema.parse({ kind: 'runway_days', bound: '365' })).toEqual({ kind: 'runway_days', bound: '365.00' });
  });

  it.each([
    [{ kind: 'balance', bound: '1.234' }, m.balanceInvalid],
    [{ kind: 'balance', bound: -1 }, m.balanceInvalid],
    [{ kind: 'cap_percent', bound: '0' }, m.percentInvalid],
    [{ kind: 'cap_percent', bound: '101' }, m.percentInvalid],
    [{ kind: 'cap_percent', bound: '50.5' }, m.percentInvalid],
    [{ kind: 'cap_percent', bound: '50', window: 'year' }, m.windowInvalid],
    [{ kind: 'runway_days', bound: '0' }, m.daysInvalid],
    [{ kind: 'runway_days', bound: '7.5' }, m.daysInvalid],
    [{ kind: 'weather', bound: '7' }, m.kindInvalid],
  ])('refuses %j with its message', (body, message) => {
    const parsed = alertLineInputSchema.safeParse(body);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(message);
  });
});

describe('the words of a line', () => {
  it('state the bound of each kind, in the console and in the mail', () => {
    expect(alertLineDescription('balance', '1500.00', null)).toBe('Alert when the balance is below 1,500.00 credits');
    expect(alertLineDescription('cap_percent', '80.00', 'week')).toBe('Alert at 80 % of the weekly spend cap used');
    expect(alertLineDescription('runway_days', '1.00', null)).toBe('Alert when the credits last fewer than 1 day at the current rate');
    expect(m.crossed('Acme', 'cap_percent', '80.00', '85.50', 'day')).toBe(
      'Alert: Acme has used 85.50 % of its spend cap this day, at or above your alert line of 80 % of the daily spend cap.',
    );
    expect(m.crossed('Acme', 'runway_days', '14.00', '9.50', null)).toBe(
      'Alert: Acme has 9.50 days of credits left at its current rate of use, below your alert line of 14 days of runway.',
    );
  });
});
