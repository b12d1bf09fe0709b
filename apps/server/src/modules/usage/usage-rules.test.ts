import { beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { insertOrg } from '../../test/fixtures.ts';
import { reconcile } from '../credits/reconcile.ts';
import { DAY, activate, ago, balanceOf, fund, insertAgentType, insertApiKey } from '../../test/usage-rows.ts';

/**
 * Rules of usage_record (db/rules/functions/usage_record.sql) and of the low-balance trigger
 * that an audit broke one at a time by hand without any test failing: each test here reports
 * usage through the machine API and fails when its rule is broken (docs/reliability.md lists
 * which breakage each one catches).
 */
const w = useWorld();
const db = () => w.t.database.db;
const m = MESSAGES.usage;

/** An API key of SA1: it reaches SA1's agencies and their tenants. */
let key: string;
let agent: { id: string; code: string };
/** An agent type that exists but that no organization of these tests activates. */
let idle: { id: string; code: string };

const event = (org: string, id: string, units: string, agentCode = agent.code) => ({
  id,
  organization_id: org,
  agent: agentCode,
  units,
  occurred_at: ago(60_000).toISOString(),
});
const report = (events: unknown[]) =>
  w.t.request('POST', '/api/v1/usage-events', { events }, { headers: { authorization: `Bearer ${key}` } });
const outcomes = (body: any) => body.results.map((r: any) => [r.id, r.status, r.reason, r.credits_charged]);

async function storedEvents(orgId: string) {
  return (
    await db()
      .selectFrom('usage_events')
      .select('client_event_id')
      .where('organization_id', '=', orgId)
      .orderBy('client_event_id')
      .execute()
  ).map((r) => r.client_event_id);
}

/** A tenant with the agent activated and `funds` credits posted through the ledger. */
async function tenant(name: string, parentId: string, funds: string) {
  const org = await insertOrg(db(), { name, type: 'tenant', parentId });
  const activation = await activate(db(), org.id, agent.id);
  await fund(db(), org.id, funds);
  return { id: org.id, activation };
}

beforeAll(async () => {
  agent = await insertAgentType(db(), 'ruled', '1.0000');
  idle = await insertAgentType(db(), 'idle', '1.0000');
  key = (await insertApiKey(db(), w.id('SA1'), { name: 'SA1 runtime' })).key;
});

describe('an organization below a suspended or inactive one takes no usage', () => {
  it('refuses the events of a tenant whose agency is suspended, then inactive, as organization_not_active; charged again once the agency is active', async () => {
    const agency = await insertOrg(db(), { name: 'Frozen Agency', type: 'agency', parentId: w.id('SA1') });
    const below = await tenant('Tenant Below Frozen Agency', agency.id, '10.00');
    const setAgencyStatus = async (status: string) => {
      const response = await w.t.request(
        'PATCH',
        `/api/organizations/${agency.id}`,
        { status },
        {
          token: await w.as('SA1.admin'),
        },
      );
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    };

    // While every organization above it is active, the tenant's event is charged.
    expect(outcomes((await report([event(below.id, 'ancestor-0', '1')])).body)).toEqual([['ancestor-0', 'accepted', null, '1.00']]);

    for (const status of ['suspended', 'inactive']) {
      await setAgencyStatus(status);
      const response = await report([event(below.id, `ancestor-${status}`, '1')]);
      expect(response.status).toBe(200);
      expect(outcomes(response.body), `agency ${status}`).toEqual([[`ancestor-${status}`, 'rejected', 'organization_not_active', null]]);
      expect(response.body.results[0].message).toBe(m.organizationNotActive);
    }
    // The tenant itself stayed active throughout: only its ancestor was not.
    const own = await db().selectFrom('organizations').select('status').where('id', '=', below.id).executeTakeFirstOrThrow();
    expect(own.status).toBe('active');
    expect(await balanceOf(db(), below.id)).toBe('9.00');
    expect(await storedEvents(below.id)).toEqual(['ancestor-0']);

    // A refused event is evaluated afresh when sent again: accepted once the agency is active.
    await setAgencyStatus('active');
    expect(outcomes((await report([event(below.id, 'ancestor-suspended', '1')])).body)).toEqual([
      ['ancestor-suspended', 'accepted', null, '1.00'],
    ]);
    expect(await balanceOf(db(), below.id)).toBe('8.00');
  });
});

describe('a deactivated activation is over', () => {
  it('refuses the events of an agent whose activation was deactivated as agent_not_active, and charges nothing', async () => {
    const ended = await tenant('Ended Tenant', w.id('A1'), '10.00');
    expect(outcomes((await report([event(ended.id, 'ended-0', '2')])).body)).toEqual([['ended-0', 'accepted', null, '2.00']]);

    const deactivated = await w.t.request('DELETE', `/api/organizations/${ended.id}/agents/${ended.activation}`, undefined, {
      token: await w.as('A1.admin'),
    });
    expect(deactivated.status, JSON.stringify(deactivated.body)).toBe(200);
    const row = await db()
      .selectFrom('agent_activations')
      .select('deactivated_at')
      .where('id', '=', ended.activation)
      .executeTakeFirstOrThrow();
    expect(row.deactivated_at).not.toBeNull();

    const response = await report([event(ended.id, 'ended-1', '2'), event(ended.id, 'ended-2', '3')]);
    expect(response.status).toBe(200);
    expect(outcomes(response.body)).toEqual([
      ['ended-1', 'rejected', 'agent_not_active', null],
      ['ended-2', 'rejected', 'agent_not_active', null],
    ]);
    expect(response.body.results[0].message).toBe(m.agentNotActive(agent.code));
    expect(await balanceOf(db(), ended.id)).toBe('8.00');
    expect(await storedEvents(ended.id)).toEqual(['ended-0']);
  });
});

describe('a repeat inside one batch answers what the first event got', () => {
  it('repeats of rejected events answer the same rejection and reason, not duplicate; a repeat of an accepted one is the duplicate', async () => {
    const repeat = await tenant('Repeat Tenant', w.id('A1'), '1.00');
    const response = await report([
      event(repeat.id, 'too-dear', '5'),
      event(repeat.id, 'too-dear', '5'),
      event(repeat.id, 'no-such-agent', '1', 'ghost'),
      event(repeat.id, 'no-such-agent', '1', 'ghost'),
      event(repeat.id, 'not-activated', '1', idle.code),
      event(repeat.id, 'not-activated', '1', idle.code),
      event(repeat.id, 'fits', '1'),
      event(repeat.id, 'fits', '1'),
      event(repeat.id, 'too-dear', '5'),
    ]);
    expect(response.status).toBe(200);
    expect(response.body.results.map((r: any) => [r.id, r.status, r.reason, r.message])).toEqual([
      ['too-dear', 'rejected', 'insufficient_credits', m.insufficient('1.00', '5.00')],
      ['too-dear', 'rejected', 'insufficient_credits', m.insufficient('1.00', '5.00')],
      ['no-such-agent', 'rejected', 'unknown_agent', m.unknownAgent('ghost')],
      ['no-such-agent', 'rejected', 'unknown_agent', m.unknownAgent('ghost')],
      ['not-activated', 'rejected', 'agent_not_active', m.agentNotActive(idle.code)],
      ['not-activated', 'rejected', 'agent_not_active', m.agentNotActive(idle.code)],
      ['fits', 'accepted', null, null],
      ['fits', 'duplicate', null, null],
      ['too-dear', 'rejected', 'insufficient_credits', m.insufficient('1.00', '5.00')],
    ]);
    expect(response.body).toMatchObject({ accepted: 1, duplicates: 1, rejected: 7 });
    expect(await balanceOf(db(), repeat.id)).toBe('0.00');
    expect(await storedEvents(repeat.id)).toEqual(['fits']);
  });
});

describe('an event id is remembered longer than the window it may be sent in', () => {
  it('an event 30 days old, replayed after an id sweep, answers duplicate and is charged once', async () => {
    // The window is 31 days: an event of 30 days ago may still be sent, so its id must outlive
    // it (ids are kept the window and a week more), whatever the constants say.
    const late = await tenant('Late Replay Tenant', w.id('A1'), '10.00');
    const old = { ...event(late.id, 'thirty-days-old', '1'), occurred_at: ago(30 * DAY).toISOString() };
    expect(outcomes((await report([old])).body)).toEqual([['thirty-days-old', 'accepted', null, '1.00']]);
    // Each batch forgets up to twice its size of the ids past the keep interval, oldest first.
    const sweep = Array.from({ length: 20 }, (_, i) => event(late.id, `sweep-${i}`, '0.01'));
    expect((await report(sweep)).body.accepted).toBe(20);
    const replay = await report([old]);
    expect(outcomes(replay.body)).toEqual([['thirty-days-old', 'duplicate', null, '1.00']]);
    expect(await balanceOf(db(), late.id)).toBe('8.80');
    expect(await storedEvents(late.id)).toHaveLength(21);
  });
});

describe('the low-balance alert', () => {
  it('is not raised by a balance that comes down exactly to the threshold, and is raised by one just below it', async () => {
    const edge = await tenant('Threshold Edge Tenant', w.id('A1'), '150.00');
    const settings = await db()
      .selectFrom('organization_billing_settings')
      .select('low_balance_threshold')
      .where('organization_id', '=', edge.id)
      .executeTakeFirstOrThrow();
    expect(settings.low_balance_threshold).toBe('100.00');
    const alerts = () =>
      db().selectFrom('balance_alerts').select(['kind', 'balance', 'threshold']).where('organization_id', '=', edge.id).execute();

    expect(outcomes((await report([event(edge.id, 'edge-at', '50')])).body)).toEqual([['edge-at', 'accepted', null, '50.00']]);
    expect(await balanceOf(db(), edge.id)).toBe('100.00');
    expect(await alerts()).toEqual([]);

    expect(outcomes((await report([event(edge.id, 'edge-below', '0.01')])).body)).toEqual([['edge-below', 'accepted', null, '0.01']]);
    expect(await balanceOf(db(), edge.id)).toBe('99.99');
    expect(await alerts()).toEqual([{ kind: 'low_balance', balance: '99.99', threshold: '100.00' }]);
  });
});

describe('after these rules', () => {
  it('the books reconcile', async () => {
    const report_ = await reconcile(db());
    expect(report_.ok, JSON.stringify(report_)).toBe(true);
  });
});
