import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@console/domain';
import { words } from './balance-alerts.ts';

/** A cap alert's mail names the cap's window: the day, the ISO week (its Monday) or the month, UTC. */
describe("a cap alert's mail", () => {
  const alert = (detail: Record<string, unknown>) =>
    words(
      { kind: 'cap_reached', name: 'Acme', balance: '3.00', threshold: '3.00', detail: { scope: 'key', name: 'runtime', ...detail } },
      'http://x',
    );

  it('names the day or the week of a day or week cap, and the month of a month cap or of an alert from before windows', () => {
    const what = 'The API key "runtime"';
    expect(alert({ month: '2026-12', window: 'day', window_start: '2026-12-06' })[1]).toBe(
      MESSAGES.spend.capAlert(what, 100, '3.00', '3.00', '2026-12', 'day', '2026-12-06'),
    );
    expect(alert({ month: '2026-12', window: 'day', window_start: '2026-12-06' })[1]).toContain('daily cap');
    expect(alert({ month: '2026-11', window: 'week', window_start: '2026-11-30' })[1]).toContain(
      'weekly cap of 3.00 credits for the week of 2026-11-30',
    );
    expect(alert({ month: '2026-12', window: 'month', window_start: '2026-12-01' })[1]).toContain(
      'monthly cap of 3.00 credits for 2026-12',
    );
    expect(alert({ month: '2026-12' })[1]).toContain('monthly cap of 3.00 credits for 2026-12');
  });
});
