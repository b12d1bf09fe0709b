import { sql } from 'kysely';
import { describe, expect, inject, it } from 'vitest';
import { useWorld } from '../../test/harness.ts';
import { DAY, activate, ago, fund, insertAgentType, insertApiKey } from '../../test/usage-rows.ts';
import { reconcile } from './reconcile.ts';

const w = useWorld();
const onPostgres = !!inject('pgServerUrl');

/** The two day-total checks of the reconciliation. */
async function usageDayMismatches(db: Parameters<typeof reconcile>[0]) {
  const { usage_day_mismatches, credit_day_mismatches } = await reconcile(db);
  return { usage_event_day_mismatches: usage_day_mismatches, credit_usage_day_mismatches: credit_day_mismatches };
}

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

async function arrange() {
  const db = w.t.database.db;
  const agents = [
    await insertAgentType(db, 'bot', '0.2500'),
    await insertAgentType(db, 'cheap', '0.0007'),
    await insertAgentType(db, 'etl', '0.0125'),
  ];
  const orgs = [w.id('A1'), w.id('T1'), w.id('T2')];
  for (const org of orgs) {
    await fund(db, org, '100000');
    for (const agent of agents) await activate(db, org, agent.id);
  }
  const key = await insertApiKey(db, w.id('A1'));
  return { agents, orgs, key };
}

describe("the dashboard's day totals", () => {
  it('stay equal to the events and entries they count through random batches, duplicates, refusals and refunds', async () => {
    const { agents, orgs, key } = await arrange();
    const next = random(20261126);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
    let n = 0;
    const sent: { id: string; organization_id: string }[] = [];
    for (let batch = 0; batch < 25; batch++) {
      const events = Array.from({ length: 1 + Math.floor(next() * 40) }, () => {
        // Now and then a duplicate of an earlier event, or an agent that does not exist.
        if (sent.length > 0 && next() < 0.1) return { ...pick(sent), agent: 'bot', units: '1', occurred_at: ago(DAY).toISOString() };
        const event = {
          id: `e${++n}`,
          organization_id: pick(orgs),
          agent: next() < 0.05 ? 'nobody' : pick(agents).code,
          units: (1 + Math.floor(next() * 5000) / 100).toFixed(2),
          occurred_at: ago(Math.floor(next() * 30 * DAY)).toISOString(),
        };
        sent.push({ id: event.id, organization_id: event.organization_id });
        return event;
      });
      const response = await w.t.request('POST', '/api/v1/usage-events', { events }, { headers: { authorization: `Bearer ${key.key}` } });
      expect(response.status).toBe(200);
    }
    // Refunds through the house's import land in the refund day totals.
    const token = await w.as('H.admin');
    const { body } = await w.t.request('GET', `/api/usage-events?organization_id=${w.id('T1')}&limit=100`, undefined, { token });
    // A refund names a usage event that charged something, by its id.
    const charged = body.events.filter((event: { credits_charged: string }) => event.credits_charged !== '0.00').slice(0, 3);
    expect(charged).toHaveLength(3);
    const refunds = charged.map((event: { id: string }, i: number) => ({
      organization_id: w.id('T1'),
      amount: '0.01',
      external_ref: `r${i}`,
      refund_of: event.id,
    }));
    expect((await w.t.request('POST', '/api/credits/usage', { refunds }, { token })).status).toBe(200);

    expect(await usageDayMismatches(w.t.database.db)).toEqual({ usage_event_day_mismatches: [], credit_usage_day_mismatches: [] });

    // The check itself sees a difference.
    const db = w.t.database.db;
    await sql`update usage_event_days set events = events + 1 where organization_id = ${w.id('T1')} and day = (select max(day) from usage_event_days where organization_id = ${w.id('T1')})`.execute(
      db,
    );
    await sql`update credit_usage_days set total = total - 0.01 where organization_id = ${w.id('T1')} and entry_type = 'refund'`.execute(
      db,
    );
    const found = await usageDayMismatches(db);
    expect(found.usage_event_day_mismatches.length).toBeGreaterThan(0);
    expect(found.credit_usage_day_mismatches).toEqual([expect.objectContaining({ organization_id: w.id('T1'), entry_type: 'refund' })]);
    await sql`update usage_event_days set events = events - 1 where organization_id = ${w.id('T1')} and day = (select max(day) from usage_event_days where organization_id = ${w.id('T1')})`.execute(
      db,
    );
    await sql`update credit_usage_days set total = total + 0.01 where organization_id = ${w.id('T1')} and entry_type = 'refund'`.execute(
      db,
    );
  });

  it(
    onPostgres
      ? 'stay exact under truly concurrent batches of several organizations, agents and days, without a deadlock'
      : 'stay exact under batches sent together (PGlite runs them one at a time: the arithmetic only)',
    async () => {
      const key = await insertApiKey(w.t.database.db, w.id('A1'));
      const orgs = [w.id('A1'), w.id('T1'), w.id('T2')];
      const codes = ['bot', 'cheap', 'etl'];
      const batches = Array.from({ length: 8 }, (_, b) =>
        Array.from({ length: 60 }, (_, i) => ({
          id: `c${b}-${i}`,
          // Each batch walks the organizations, agents and days in its own order.
          organization_id: orgs[(i + b) % 3]!,
          agent: codes[(i * (b + 1)) % 3]!,
          units: '1.5',
          occurred_at: ago(((i + 2 * b) % 5) * DAY + 60_000).toISOString(),
        })),
      );
      const answers = await Promise.all(
        batches.map((events) =>
          w.t.request('POST', '/api/v1/usage-events', { events }, { headers: { authorization: `Bearer ${key.key}` } }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(batches.map(() => 200));
      expect(answers.reduce((sum, a) => sum + a.body.accepted, 0)).toBe(8 * 60);
      expect(await usageDayMismatches(w.t.database.db)).toEqual({ usage_event_day_mismatches: [], credit_usage_day_mismatches: [] });
    },
  );
});
