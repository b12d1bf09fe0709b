import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES } from '@console/domain';
import { insertOrg } from '../../test/fixtures.ts';
import { useWorld } from '../../test/harness.ts';
import { activate, fund, insertAgentType, insertApiKey } from '../../test/usage-rows.ts';
import { reconcile } from '../credits/reconcile.ts';

/**
 * Caps on windows: a day, an ISO week (Monday to Sunday) and a calendar month, each UTC. An
 * event counts in the window its occurrence falls in; the first cap it would pass refuses it,
 * and the refusal names the cap, its window, when that resets and who set it, as far as the
 * key's owner may see them.
 */
const w = useWorld({ topUpPollMs: 3_600_000 });
const db = () => w.t.database.db;
const m = MESSAGES.usage;
const DAY = 86_400_000;

const todayStart = new Date(new Date().toISOString().slice(0, 10) + 'T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const dayOf = (ms: number) => iso(ms).slice(0, 10);
// This ISO week's Monday (today, on a Monday), and the first day of this month.
const monday = todayStart.getTime() - ((todayStart.getUTCDay() + 6) % 7) * DAY;
const monthStart = Date.UTC(todayStart.getUTCFullYear(), todayStart.getUTCMonth(), 1);
const nextMonth = Date.UTC(todayStart.getUTCFullYear(), todayStart.getUTCMonth() + 1, 1);
const lastMonthStart = Date.UTC(todayStart.getUTCFullYear(), todayStart.getUTCMonth() - 1, 1);

let n = 0;
const event = (org: string, agent: string, units: string, at: number | string = Date.now()) => ({
  id: `win-${++n}`,
  organization_id: org,
  agent,
  units,
  occurred_at: typeof at === 'string' ? at : iso(at),
});
const report = async (events: unknown[], bearer: string) => {
  const response = await w.t.request('POST', '/api/v1/usage-events', { events }, { headers: { authorization: `Bearer ${bearer}` } });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.results as any[];
};
const entitlement = async (org: string, agent: string, bearer: string) =>
  (
    await w.t.request('GET', `/api/v1/entitlements?organization_id=${org}&agent=${agent}`, undefined, {
      headers: { authorization: `Bearer ${bearer}` },
    })
  ).body;
const as = async (who: string, method: string, path: string, body?: unknown) => w.t.request(method, path, body, { token: await w.as(who) });
const outcomes = (results: any[]) => results.map((r) => (r.status === 'rejected' ? `${r.reason}:${r.cap?.window}` : r.status));

/** An agent type of its own at 1.0000 a unit (units are credits), activated and funded where told. */
async function agentFor(code: string, orgs: string[]) {
  const agent = await insertAgentType(db(), code, '1.0000');
  const activations: string[] = [];
  for (const org of orgs) {
    activations.push(await activate(db(), org, agent.id));
    await fund(db(), org, '100.00');
  }
  return { ...agent, activations };
}

beforeAll(async () => {
  await sql`update organizations set status = 'active' where id = ${w.id('T2')}`.execute(db());
});

describe('the windows (cap_window_start, cap_window_end)', () => {
  it('are the UTC day, the ISO week from Monday and the calendar month, each ending at the next one’s first instant', async () => {
    const { rows } = await sql<Record<string, string>>`
      select to_char(cap_window_start('day', '2026-12-06T23:59:59.999Z'), 'YYYY-MM-DD') as day_end,
             to_char(cap_window_start('day', '2026-12-07T00:00:00Z'), 'YYYY-MM-DD') as day_next,
             to_char(cap_window_start('day', '2026-12-07T00:30:00+01:00'), 'YYYY-MM-DD') as day_offset,
             to_char(cap_window_start('week', '2026-12-06T23:59:59.999Z'), 'YYYY-MM-DD') as sunday,
             to_char(cap_window_start('week', '2026-12-07T00:00:00Z'), 'YYYY-MM-DD') as monday,
             to_char(cap_window_start('week', '2027-01-01T12:00:00Z'), 'YYYY-MM-DD') as across_years,
             to_char(cap_window_start('month', '2026-11-30T23:59:59.999Z'), 'YYYY-MM-DD') as month_end,
             to_char(cap_window_start('month', '2026-12-01T00:00:00Z'), 'YYYY-MM-DD') as month_next,
             to_char(cap_window_end('day', '2026-12-31'), 'YYYY-MM-DD') as day_reset,
             to_char(cap_window_end('week', '2026-12-28'), 'YYYY-MM-DD') as week_reset,
             to_char(cap_window_end('month', '2026-01-01'), 'YYYY-MM-DD') as month_reset`.execute(db());
    expect(rows[0]).toEqual({
      day_end: '2026-12-06',
      day_next: '2026-12-07',
      day_offset: '2026-12-06',
      sunday: '2026-11-30',
      monday: '2026-12-07',
      across_years: '2026-12-28',
      month_end: '2026-11-01',
      month_next: '2026-12-01',
      day_reset: '2027-01-01',
      week_reset: '2027-01-04',
      month_reset: '2026-02-01',
    });
  });
});

describe("a key's day cap", () => {
  it('counts the UTC day each event occurred in, refuses past it naming the day, and is fresh at midnight', async () => {
    const agent = await agentFor('win-day', [w.id('T1')]);
    const key = await insertApiKey(db(), w.id('A1'), { name: 'day key' });
    const path = `/api/organizations/${w.id('A1')}/api-keys/${key.id}`;
    expect((await as('A1.admin', 'PATCH', path, { daily_cap: '-1' })).status).toBe(400);
    const set = await as('A1.admin', 'PATCH', path, { daily_cap: '2.00' });
    expect(set.status).toBe(200);
    expect(set.body.api_key.daily_cap).toEqual({ cap: '2.00', window_start: dayOf(todayStart.getTime()), charged: '0.00' });
    expect(set.body.api_key.monthly_cap.cap).toBeNull();

    const lastOfYesterday = todayStart.getTime() - 1;
    const results = await report(
      [
        event(w.id('T1'), agent.code, '2', lastOfYesterday),
        event(w.id('T1'), agent.code, '0.01', lastOfYesterday),
        event(w.id('T1'), agent.code, '2', todayStart.getTime()),
        event(w.id('T1'), agent.code, '0.01'),
      ],
      key.key,
    );
    expect(outcomes(results)).toEqual(['accepted', 'key_cap_reached:day', 'accepted', 'key_cap_reached:day']);
    const yesterday = {
      scope: 'key',
      limit: '2.00',
      window: 'day',
      window_start: dayOf(lastOfYesterday),
      resets_at: iso(todayStart.getTime()),
      name: 'day key',
      organization_id: w.id('A1'),
      set_by: { organization_id: w.id('A1'), name: 'Agency One' },
    };
    expect(results[1].cap).toEqual(yesterday);
    expect(results[1].message).toBe(m.keyCapReached('2.00', 'day', iso(todayStart.getTime()), 'day key', 'Agency One'));
    expect(results[3].cap).toEqual({ ...yesterday, window_start: dayOf(todayStart.getTime()), resets_at: iso(todayStart.getTime() + DAY) });
    expect(await entitlement(w.id('T1'), agent.code, key.key)).toMatchObject({
      allowed: false,
      reason: 'key_cap_reached',
      cap: results[3].cap,
    });
    const list = await as('A1.admin', 'GET', `/api/organizations/${w.id('A1')}/api-keys`);
    expect(list.body.api_keys.find((k: any) => k.id === key.id).daily_cap).toEqual({
      cap: '2.00',
      window_start: dayOf(todayStart.getTime()),
      charged: '2.00',
    });
  });
});

describe("an activation's week cap", () => {
  it('counts ISO weeks from Monday 00:00 UTC, recounted from the day totals when set mid-week', async () => {
    const agent = await agentFor('win-week', [w.id('T1')]);
    const key = await insertApiKey(db(), w.id('A1'), { name: 'plain key' });
    const lastSunday = monday - 1;
    // Usage before the cap is set counts: 1.00 this week, 3.00 in the last one.
    expect(
      outcomes(await report([event(w.id('T1'), agent.code, '1', monday), event(w.id('T1'), agent.code, '3', lastSunday)], key.key)),
    ).toEqual(['accepted', 'accepted']);
    const path = `/api/organizations/${w.id('T1')}/agents/${agent.activations[0]}/cap`;
    expect((await as('A1.admin', 'PUT', path, {})).status).toBe(400);
    const set = await as('A1.admin', 'PUT', path, { weekly_cap: '3.00' });
    expect(set.status).toBe(200);
    expect(set.body.activation.weekly_cap).toEqual({ cap: '3.00', window_start: dayOf(monday), charged: '1.00' });
    // The month cap stays as it was (none): a cap left out is not changed.
    expect(set.body.activation.monthly_cap.cap).toBeNull();

    const results = await report(
      [
        event(w.id('T1'), agent.code, '0.01', lastSunday),
        event(w.id('T1'), agent.code, '2', monday),
        event(w.id('T1'), agent.code, '0.01'),
      ],
      key.key,
    );
    expect(outcomes(results)).toEqual(['activation_cap_reached:week', 'accepted', 'activation_cap_reached:week']);
    expect(results[0].cap).toMatchObject({ window_start: dayOf(monday - 7 * DAY), resets_at: iso(monday) });
    expect(results[2].cap).toEqual({
      scope: 'activation',
      limit: '3.00',
      window: 'week',
      window_start: dayOf(monday),
      resets_at: iso(monday + 7 * DAY),
      name: 'Agent win-week',
      organization_id: w.id('T1'),
      set_by: { organization_id: w.id('A1'), name: 'Agency One' },
    });
    expect(results[2].message).toBe(m.activationCapReached('3.00', 'week', iso(monday + 7 * DAY), 'Agent win-week', 'Agency One'));
  });
});

describe("a key's caps on several windows", () => {
  it('refuse with the first cap an event would pass, in the order day, week, month', async () => {
    const agent = await agentFor('win-tight', [w.id('T1')]);
    const key = await insertApiKey(db(), w.id('A1'), { name: 'tight key' });
    const path = `/api/organizations/${w.id('A1')}/api-keys/${key.id}`;
    // A week cap tighter than the day's: the week refuses what the day would let through.
    expect((await as('A1.admin', 'PATCH', path, { monthly_cap: '5.00', weekly_cap: '1.00', daily_cap: '1.50' })).status).toBe(200);
    const results = await report(
      [
        event(w.id('T1'), agent.code, '1.25'),
        event(w.id('T1'), agent.code, '1.75'),
        event(w.id('T1'), agent.code, '1'),
        event(w.id('T1'), agent.code, '0.01'),
      ],
      key.key,
    );
    expect(outcomes(results)).toEqual(['key_cap_reached:week', 'key_cap_reached:day', 'accepted', 'key_cap_reached:week']);
    expect(results[3].cap).toMatchObject({ limit: '1.00', window_start: dayOf(monday), resets_at: iso(monday + 7 * DAY) });
    const entitled = await entitlement(w.id('T1'), agent.code, key.key);
    expect(entitled).toMatchObject({ allowed: false, reason: 'key_cap_reached', cap: { window: 'week', limit: '1.00' } });
  });
});

describe("a key's month cap", () => {
  it("counts the calendar month the event occurred in: last month's usage is not this month's", async () => {
    const agent = await agentFor('win-month', [w.id('T1')]);
    const key = await insertApiKey(db(), w.id('A1'), { name: 'month key' });
    expect((await as('A1.admin', 'PATCH', `/api/organizations/${w.id('A1')}/api-keys/${key.id}`, { monthly_cap: '5.00' })).status).toBe(
      200,
    );
    const lastOfLastMonth = monthStart - 1;
    const results = await report(
      [
        event(w.id('T1'), agent.code, '1.50', lastOfLastMonth),
        event(w.id('T1'), agent.code, '5', monthStart),
        event(w.id('T1'), agent.code, '0.01'),
        event(w.id('T1'), agent.code, '3.50', lastOfLastMonth),
        event(w.id('T1'), agent.code, '0.01', lastOfLastMonth),
      ],
      key.key,
    );
    expect(outcomes(results)).toEqual(['accepted', 'accepted', 'key_cap_reached:month', 'accepted', 'key_cap_reached:month']);
    expect(results[2].cap).toMatchObject({ window_start: dayOf(monthStart), resets_at: iso(nextMonth) });
    expect(results[4].cap).toMatchObject({ window_start: dayOf(lastMonthStart), resets_at: iso(monthStart) });
    expect(results[2].message).toBe(m.keyCapReached('5.00', 'month', iso(nextMonth), 'month key', 'Agency One'));
  });
});

describe('a refusal names only what the key’s owner may see', () => {
  it('names its own organization and those below it; one above reads "an organization above yours", with no id', async () => {
    const agency = await insertOrg(db(), { name: 'Window Agency', type: 'agency', parentId: w.id('SA1') });
    const tenant = await insertOrg(db(), { name: 'Window Tenant', type: 'tenant', parentId: agency.id });
    const agent = await agentFor('win-names', [tenant.id]);
    const tenantKey = await insertApiKey(db(), tenant.id, { name: 'tenant key' });
    const agencyKey = await insertApiKey(db(), agency.id, { name: 'agency key' });
    // A day cap on the agency (its parent SA1 sets it) and a tighter one on the tenant (the agency sets it).
    expect(
      (
        await as('SA1.admin', 'PUT', `/api/organizations/${agency.id}/spend-controls`, {
          spend_cap: null,
          top_up: null,
          daily_spend_cap: '1.00',
        })
      ).status,
    ).toBe(200);
    await sql`update organization_billing_settings set daily_spend_cap = 0.50 where organization_id = ${tenant.id}`.execute(db());

    const own = await report([event(tenant.id, agent.code, '0.50'), event(tenant.id, agent.code, '0.01')], tenantKey.key);
    expect(outcomes(own)).toEqual(['accepted', 'spend_cap_reached:day']);
    const tomorrow = iso(todayStart.getTime() + DAY);
    expect(own[1].cap).toEqual({
      scope: 'subtree',
      limit: '0.50',
      window: 'day',
      window_start: dayOf(todayStart.getTime()),
      resets_at: tomorrow,
      name: 'Window Tenant',
      organization_id: tenant.id,
      set_by: { organization_id: null, name: m.organizationAbove },
    });
    expect(own[1].message).toBe(m.spendCapReached('0.50', 'day', tomorrow, 'Window Tenant', m.organizationAbove));
    expect(JSON.stringify(own)).not.toContain(agency.id);
    // The agency's own key sees who set it: the agency.
    const fromAbove = await report([event(tenant.id, agent.code, '0.01')], agencyKey.key);
    expect(fromAbove[0].cap.set_by).toEqual({ organization_id: agency.id, name: 'Window Agency' });

    // The tenant's cap gone, the agency's holds the tenant: to the tenant's key it is a cap above, nameless.
    await sql`update organization_billing_settings set daily_spend_cap = null where organization_id = ${tenant.id}`.execute(db());
    const above = await report([event(tenant.id, agent.code, '0.50'), event(tenant.id, agent.code, '0.01')], tenantKey.key);
    expect(outcomes(above)).toEqual(['accepted', 'spend_cap_reached:day']);
    const hidden = {
      scope: 'subtree',
      limit: '1.00',
      window: 'day',
      window_start: dayOf(todayStart.getTime()),
      resets_at: tomorrow,
      name: m.organizationAbove,
      organization_id: null,
      set_by: { organization_id: null, name: m.organizationAbove },
    };
    expect(above[1].cap).toEqual(hidden);
    expect(above[1].message).toBe(m.spendCapReached('1.00', 'day', tomorrow, m.organizationAbove, m.organizationAbove));
    const entitled = await entitlement(tenant.id, agent.code, tenantKey.key);
    expect(entitled).toMatchObject({ allowed: false, reason: 'spend_cap_reached', cap: hidden });
    for (const answer of [above, entitled]) {
      expect(JSON.stringify(answer)).not.toContain(agency.id);
      expect(JSON.stringify(answer)).not.toContain(w.id('SA1'));
      expect(JSON.stringify(answer)).not.toContain('Window Agency');
    }
    // The agency's key sees the agency's cap and that its parent, above it, set it.
    expect((await entitlement(tenant.id, agent.code, agencyKey.key)).cap).toEqual({
      ...hidden,
      name: 'Window Agency',
      organization_id: agency.id,
    });

    // spend_cap_standing: the agency's own caps as they stand.
    const standing = await sql<Record<string, string>>`
      select kind, cap::text, charged::numeric(16, 2)::text as charged, to_char(window_start, 'YYYY-MM-DD') as window_start,
             to_char(resets_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as resets_at
      from spend_cap_standing(${agency.id}, now())`.execute(db());
    expect(standing.rows).toEqual([
      { kind: 'day', cap: '1.00', charged: '1.00', window_start: dayOf(todayStart.getTime()), resets_at: tomorrow },
    ]);
    expect((await reconcile(db())).ok).toBe(true);
  });
});
