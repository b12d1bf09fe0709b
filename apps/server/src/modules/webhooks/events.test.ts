/**
 * Every webhook event type, made by the change it reports through the real paths (the API,
 * the machine API, the top-up runner), written in that change's transaction with the data
 * its documented schema describes, about the organization it concerns.
 */
import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { WEBHOOK_EVENT_DATA, WEBHOOK_EVENT_TYPES } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { writeAudit } from '../../lib/audit.ts';
import { fund, insertAgentType, insertApiKey } from '../../test/usage-rows.ts';
import { until } from '../../../../../support/webhook-receiver.ts';

const w = useWorld({ topUpPollMs: 50, reminderPollMs: 50, grantExpiryPollMs: 50 });
const db = () => w.t.database.db;
const as = async (who: string, method: string, path: string, body?: unknown) => {
  const answer = await w.t.request(method, path, body, { token: await w.as(who) });
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body;
};
const events = async (type: string) =>
  (
    await db()
      .selectFrom('webhook_events')
      .select(['organization_id', 'data'])
      .where('type', '=', type as never)
      .orderBy('created_at')
      .execute()
  ).map((row) => ({ org: row.organization_id, data: row.data as Record<string, unknown> }));
const drain = async (org: string, amount: string) =>
  sql`select 1 from ledger_post(gen_random_uuid(), null, false, array[${org}]::uuid[], array[${`-${amount}`}]::numeric[],
    array['adjustment_decrease'], array['{"reason":"test drain"}'::jsonb])`.execute(db());

describe('webhook events', () => {
  it('are written by every change they report, each with its documented data', async () => {
    const t1 = w.id('T1');
    const t2 = w.id('T2');
    const types = await Promise.all(['ev-a', 'ev-b', 'ev-c', 'ev-d'].map((code) => insertAgentType(db(), code, '1.0000')));
    const key = await insertApiKey(db(), t1);
    const report = (events: unknown[]) =>
      w.t.request('POST', '/api/v1/usage-events', { events }, { headers: { authorization: `Bearer ${key.key}` } });

    // Limits and activations: T1 at 1 of 1 (critical); T2 at 3 of 4 (warning), then 4 of 4 (critical).
    // Capacity down the tree, as set up before (the world's limits are 0).
    for (const [org, limit] of [
      ['H', 100],
      ['SA1', 50],
      ['A1', 20],
    ] as const)
      await db()
        .updateTable('organization_billing_settings')
        .set({ activated_agent_limit: limit })
        .where('organization_id', '=', w.id(org))
        .execute();
    await as('A1.admin', 'PUT', `/api/organizations/${t1}/agent-limit`, { activated_agent_limit: 1 });
    await as('A1.admin', 'PUT', `/api/organizations/${t2}/agent-limit`, { activated_agent_limit: 4 });
    const activation = await as('A1.admin', 'POST', `/api/organizations/${t1}/agents`, { agent_type_id: types[0]!.id });
    for (const type of types) await as('A1.admin', 'POST', `/api/organizations/${t2}/agents`, { agent_type_id: type.id });
    // A heartbeat in error.
    const beat = await w.t.request(
      'POST',
      '/api/v1/heartbeats',
      { organization_id: t1, agent: 'ev-a', status: 'error', health_score: 12 },
      { headers: { authorization: `Bearer ${key.key}` } },
    );
    expect(beat.status).toBe(200);

    // An alert line of T1's own admins: the usage below takes the balance below it and the threshold (alert.crossed).
    await as('T1.admin', 'POST', `/api/organizations/${t1}/alert-lines`, { kind: 'balance', bound: '95' });

    // Credits: funded (adjusted), used below the threshold (low), refused, then refilled (allocated, recovered).
    await fund(db(), t1, '150.00');
    expect(
      (await report([{ id: 'ev-1', organization_id: t1, agent: 'ev-a', units: '60', occurred_at: new Date().toISOString() }])).status,
    ).toBe(200);
    await report([{ id: 'ev-2', organization_id: t1, agent: 'no-such-agent', units: '1', occurred_at: new Date().toISOString() }]);
    await fund(db(), w.id('A1'), '500.00');
    await as('A1.admin', 'POST', '/api/credits/allocations', { from_org_id: w.id('A1'), to_org_id: t1, amount: '20.00' });

    // A monthly cap on T1 (set by A1's admins), reached by the next events.
    await as('A1.admin', 'PUT', `/api/organizations/${t1}/spend-controls`, { spend_cap: '70.00', top_up: null });
    await report([{ id: 'ev-3', organization_id: t1, agent: 'ev-a', units: '10', occurred_at: new Date().toISOString() }]);

    // Top-ups of T2 from A1: one made, then one A1 cannot fund.
    await fund(db(), t2, '60.00');
    await as('A1.admin', 'PUT', `/api/organizations/${t2}/spend-controls`, {
      spend_cap: null,
      top_up: { below: '50.00', amount: '20.00', monthly_max: '500.00' },
    });
    await drain(t2, '30.00');
    await until(async () => (await events('top_up.succeeded')).length > 0, 'a top-up');
    const a1 = await db()
      .selectFrom('organization_billing_settings')
      .select('credit_balance')
      .where('organization_id', '=', w.id('A1'))
      .executeTakeFirstOrThrow();
    await drain(w.id('A1'), a1.credit_balance);
    await drain(t2, '45.00');
    await until(async () => (await events('top_up.failed')).length > 0, 'a refused top-up');

    // API keys: made, rolled, revoked.
    const made = await as('T1.admin', 'POST', `/api/organizations/${t1}/api-keys`, { name: 'Events', scopes: ['usage:write'] });
    await as('T1.admin', 'POST', `/api/organizations/${t1}/api-keys/${made.api_key.id}/roll`, { grace_seconds: 60 });
    await as('T1.admin', 'DELETE', `/api/organizations/${t1}/api-keys/${made.api_key.id}`);
    await as('A1.admin', 'DELETE', `/api/organizations/${t1}/agents/${activation.activation.id}`);

    // Organizations: created, suspended, deleted.
    const child = await as('A1.admin', 'POST', '/api/organizations', { name: 'Evented Tenant', org_type: 'tenant' });
    await as('A1.admin', 'PATCH', `/api/organizations/${child.organization.id}`, { status: 'suspended' });
    await as('A1.admin', 'DELETE', `/api/organizations/${child.organization.id}`);

    // An invitation accepted by registering.
    await as('T1.admin', 'POST', '/api/invitations', {
      email: 'joiner@events.test',
      first_name: 'Jo',
      last_name: 'Iner',
      role: 'tenant_user',
      organization_id: t1,
    });
    const mail = await db().selectFrom('outbox').select('link').where('to_address', '=', 'joiner@events.test').executeTakeFirstOrThrow();
    const token = new URL(mail.link!).searchParams.get('token') ?? new URL(mail.link!).hash.replace(/^#?token=/, '');
    const registered = await w.t.request('POST', '/api/invitations/register', { token, password: 'a-good-password' });
    expect(registered.status, JSON.stringify(registered.body)).toBeLessThan(300);

    // Second factors: audit rows as the account, users and policy changes write them.
    // A1 bills T1 for the 20.00 it allocated, due the day it is issued: the reminder says it is
    // due (invoice.overdue), then a payment in full pays it (invoice.paid).
    await as('A1.admin', 'PUT', `/api/organizations/${w.id('A1')}/billing-details`, {
      legal_name: 'A1 Ltd',
      address: 'Street 1',
      currency: 'EUR',
      credit_price: '1',
      tax_rate: '0',
      tax_label: 'VAT',
      terms_days: 0,
    });
    const issued = await as('A1.admin', 'POST', `/api/organizations/${w.id('A1')}/invoice-drafts/issue`, { buyer_id: t1 });
    const invoice = issued.invoices[0];
    await until(async () => (await events('invoice.overdue')).length > 0, 'an overdue reminder');
    await as('A1.admin', 'POST', `/api/invoices/${invoice.id}/payments`, {
      amount: invoice.total,
      paid_on: new Date().toISOString().slice(0, 10),
      method: 'bank_transfer',
    });

    // Credits with an expiry two seconds ahead: warned of (credits.expiring), then expired back to A1 (credits.expired).
    await fund(db(), w.id('A1'), '5.00');
    await as('A1.admin', 'POST', '/api/credits/allocations', {
      from_org_id: w.id('A1'),
      to_org_id: t1,
      amount: '5',
      terms: { expires_at: new Date(Date.now() + 2000).toISOString() },
    });
    await until(async () => (await events('credits.expired')).length > 0, 'a grant expired');

    const member = await db().selectFrom('users').select('id').where('email', '=', w.world.users['T1.user']!).executeTakeFirstOrThrow();
    const actor = await db().selectFrom('users').select('id').where('email', '=', w.world.users['T1.admin']!).executeTakeFirstOrThrow();
    // Second factors and the policy, written as their use cases write them (typed by AUDIT_DETAILS).
    const about = { actorUserId: actor.id, organizationId: t1, targetType: 'user', targetId: member.id } as const;
    await writeAudit(db(), { ...about, action: 'auth.mfa_enrolled' });
    await writeAudit(db(), { ...about, action: 'auth.mfa_removed', details: { method: 'totp' } });
    await writeAudit(db(), {
      ...about,
      action: 'auth.mfa_reset',
      details: { by: 'admin', totp: true, passkeys: 0, recovery_codes: 0, ended: 0 },
    });
    const policy = { require_own: false, require_subtree: false, require_admins: false, grace_days: 7 };
    await writeAudit(db(), {
      actorUserId: actor.id,
      organizationId: t1,
      action: 'mfa_policy.changed',
      targetType: 'organization',
      targetId: t1,
      details: { before: policy, after: { ...policy, require_own: true } },
    });

    // An allocation given back: the child's balance goes down (credits.reversed).
    await fund(db(), w.id('A1'), '5.00');
    const given = await as('A1.admin', 'POST', '/api/credits/allocations', { from_org_id: w.id('A1'), to_org_id: t1, amount: '5.00' });
    await as('A1.admin', 'POST', `/api/credits/allocations/${given.transaction_id}/reversal`, { reason: 'Sent twice' });

    // Prices: A1's book for ev-a above what it pays (its children's price moves), then SA1's book
    // above A1's: what A1 and its tenants pay moves, and A1's book is now below its own price.
    await as('A1.admin', 'PUT', `/api/organizations/${w.id('A1')}/prices/${types[0]!.id}`, { price: '1.5' });
    await as('SA1.admin', 'PUT', `/api/organizations/${w.id('SA1')}/prices/${types[0]!.id}`, { price: '2' });

    // Every type is there, each row's data as documented.
    const rows = await db().selectFrom('webhook_events').select(['type', 'data']).execute();
    const seen = new Set(rows.map((row) => row.type));
    expect(WEBHOOK_EVENT_TYPES.filter((type) => !seen.has(type))).toEqual([]);
    for (const row of rows) {
      const parsed = WEBHOOK_EVENT_DATA[row.type].safeParse(row.data);
      expect(parsed.success, `${row.type}: ${JSON.stringify(row.data)} ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }

    // Each about the organization it concerns.
    expect(await events('agent_limit.critical')).toEqual([
      { org: t1, data: { active: 1, limit: 1, percent: 100 } },
      { org: t2, data: { active: 4, limit: 4, percent: 100 } },
    ]);
    expect(await events('agent_limit.warning')).toEqual([{ org: t2, data: { active: 3, limit: 4, percent: 75 } }]);
    expect(await events('agent.error')).toEqual([
      { org: t1, data: { activation_id: activation.activation.id, agent: 'ev-a', health: 12, message: null } },
    ]);
    expect((await events('balance.low'))[0]).toEqual({ org: t1, data: { balance: '90.00', threshold: '100.00' } });
    // Funded from nothing, T1 climbed over its threshold once already; the refill after the low balance is the second climb.
    expect(await events('balance.recovered')).toContainEqual({ org: t1, data: { balance: '110.00', threshold: '100.00' } });
    expect((await events('credits.allocated'))[0]).toMatchObject({
      org: t1,
      data: { amount: '20.00', balance_after: '110.00', from_organization: { id: w.id('A1'), name: 'Agency One' }, automatic: false },
    });
    const agentRef = { id: types[0]!.id, code: 'ev-a', name: expect.any(String) };
    const pricesOf = async (type: string, org: string) =>
      (await events(type)).filter((event) => event.org === org).map((event) => event.data);
    expect(await pricesOf('price.changed', t1)).toEqual([
      expect.objectContaining({ agent_type: agentRef, before: '1.0000', after: '1.5000', set_by: { id: w.id('A1'), name: 'Agency One' } }),
      expect.objectContaining({
        agent_type: agentRef,
        before: '1.5000',
        after: '2.0000',
        set_by: expect.objectContaining({ id: w.id('SA1') }),
      }),
    ]);
    expect(await pricesOf('price.changed', w.id('A1'))).toEqual([
      expect.objectContaining({ before: '1.0000', after: '2.0000', set_by: expect.objectContaining({ id: w.id('SA1') }) }),
    ]);
    expect(await pricesOf('price.changed', w.id('SA1'))).toEqual([]);
    expect(await pricesOf('price.floored', w.id('A1'))).toEqual([
      expect.objectContaining({ agent_type: agentRef, book: '1.5000', own_price: '2.0000' }),
    ]);
    expect((await events('price.floored')).map((event) => event.org)).toEqual([w.id('A1')]);
    const reversed = await events('credits.reversed');
    expect(reversed).toHaveLength(1);
    expect(reversed[0]).toMatchObject({
      org: t1,
      data: {
        amount: '-5.00',
        to_organization: { id: w.id('A1'), name: 'Agency One' },
        reverses_transaction_id: given.transaction_id,
        reason: 'Sent twice',
      },
    });
    expect((await events('spend_cap.reached'))[0]).toMatchObject({ org: t1, data: { scope: 'subtree', cap: '70.00', charged: '70.00' } });
    expect((await events('top_up.succeeded'))[0]).toMatchObject({
      org: t2,
      data: { amount: '20.00', from_organization: { id: w.id('A1') } },
    });
    expect((await events('top_up.failed'))[0]).toMatchObject({ org: t2, data: { amount: '20.00', reason: 'parent_short' } });
    expect(await events('organization.deleted')).toEqual([{ org: child.organization.id, data: {} }]);
    expect((await events('invitation.accepted'))[0]).toMatchObject({ org: t1, data: { email: 'joiner@events.test', role: 'tenant_user' } });
    expect(await events('alert.crossed')).toContainEqual({
      org: t1,
      data: expect.objectContaining({ kind: 'balance', bound: '95.00', value: '90.00', window: null }),
    });
    expect((await events('usage.refused'))[0]).toMatchObject({ org: t1, data: { reason: 'unknown_agent', events: 1 } });
  });
});
