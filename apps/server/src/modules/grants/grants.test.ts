import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pino from 'pino';
import { GRANT_MESSAGES } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { PASSWORD, insertUser } from '../../test/fixtures.ts';
import { activate, balanceOf, fund, insertAgentType, insertApiKey } from '../../test/usage-rows.ts';
import { createMailer } from '../../lib/mail.ts';
import { reconcile } from '../credits/reconcile.ts';
import { createGrantExpiry } from './expiry.ts';
import { runTopUpsNow } from '../../test/top-up-run.ts';

/**
 * Credits with terms, through the API: an allocation with an expiry, a scope and a priority
 * is a grant of the child; usage draws from the grants that apply to its agent, in order; a
 * debit that is not usage draws only on credits for every agent; at its instant the grant's
 * remainder goes back to the parent, once; warnings go out 7 days and 1 day before.
 */
const w = useWorld({ grantExpiryPollMs: 3_600_000, topUpPollMs: 3_600_000 });
const db = () => w.t.database.db;
const silent = pino({ level: 'silent' });
const DAY = 86_400_000;

let voice: { id: string; code: string };
let chat: { id: string; code: string };
let key: { id: string; key: string };
let n = 0;
const as = async (who: string, method: string, path: string, body?: unknown) => w.t.request(method, path, body, { token: await w.as(who) });
const allocate = (who: string, from: string, to: string, amount: string, terms?: unknown) =>
  as(who, 'POST', '/api/credits/allocations', { from_org_id: w.id(from as 'A1'), to_org_id: w.id(to as 'T1'), amount, terms });
const report = (org: string, agent: string, units: string) =>
  w.t.request(
    'POST',
    '/api/v1/usage-events',
    { events: [{ id: `g-${++n}`, organization_id: org, agent, units, occurred_at: new Date().toISOString() }] },
    { headers: { authorization: `Bearer ${key.key}` } },
  );
const grantsOf = async (org: string, who = 'A1.admin', all = false) =>
  (await as(who, 'GET', `/api/organizations/${org}/credit-grants${all ? '?all=true' : ''}`)).body;
const expiry = (at: Date) =>
  createGrantExpiry({
    db: db(),
    mailer: createMailer({ db: db(), smtpUrl: null, logger: silent }),
    logger: silent,
    pollMs: 3_600_000,
    now: () => at,
  });

beforeAll(async () => {
  voice = await insertAgentType(db(), 'voice-rcpt', '1.0000');
  chat = await insertAgentType(db(), 'chat-bot', '1.0000');
  for (const agent of [voice, chat]) await activate(db(), w.id('T1'), agent.id);
  await fund(db(), w.id('A1'), '1000.00');
  key = await insertApiKey(db(), w.id('A1'), { name: 'grants runtime' });
  await insertUser(db(), { email: 'admin@t2.test', password: PASSWORD, role: 'tenant_admin', organizationId: w.id('T2') });
});

describe('an allocation with terms is a grant of the child', () => {
  it('refuses terms that cannot be kept, and writes nothing', async () => {
    const before = await balanceOf(db(), w.id('T1'));
    const past = await allocate('A1.admin', 'A1', 'T1', '10', { expires_at: new Date(Date.now() - DAY).toISOString() });
    expect(past.status).toBe(400);
    expect(JSON.stringify(past.body)).toContain(GRANT_MESSAGES.expiryInPast);
    const unknown = await allocate('A1.admin', 'A1', 'T1', '10', { agent_types: ['no-such-agent'] });
    expect(unknown.status, JSON.stringify(unknown.body)).toBe(422);
    expect(unknown.body.error.message).toBe(GRANT_MESSAGES.unknownAgentType('no-such-agent'));
    expect((await allocate('A1.admin', 'A1', 'T1', '10', { priority: 101 })).status).toBe(400);
    expect(await balanceOf(db(), w.id('T1'))).toBe(before);
  });

  it('draws usage from the grants that apply, in priority order, and never from another agent', async () => {
    const tomorrow = new Date(Date.now() + DAY).toISOString();
    const made = await allocate('A1.admin', 'A1', 'T1', '100', { agent_types: [voice.code], expires_at: tomorrow, priority: 10 });
    expect(made.status).toBe(200);
    const listed = await grantsOf(w.id('T1'));
    expect(listed.grants).toHaveLength(1);
    expect(listed.grants[0]).toMatchObject({
      amount: '100.00',
      remaining: '100.00',
      priority: 10,
      agent_types: [{ code: voice.code }],
      granted_by: { id: w.id('A1') },
      transaction_id: made.body.transaction_id,
    });
    expect(listed.parts.total).toBe('100.00');
    expect(listed.parts.open).toBe('0.00');
    const spend = Object.fromEntries(listed.parts.spendable.map((s: any) => [s.code, s.amount]));
    expect(spend).toEqual({ [voice.code]: '100.00', [chat.code]: '0.00' });
    expect(listed.parts.soonest_expiry.amount).toBe('100.00');

    // The chat agent may not spend the voice credits.
    const refused = await report(w.id('T1'), chat.code, '1');
    expect(refused.body.results[0]).toMatchObject({ status: 'rejected', reason: 'insufficient_credits' });
    // Open credits arrive: the chat agent spends them; the voice agent spends its grant first.
    expect((await allocate('A1.admin', 'A1', 'T1', '50')).status).toBe(200);
    expect((await report(w.id('T1'), chat.code, '5')).body.results[0].status).toBe('accepted');
    expect((await report(w.id('T1'), voice.code, '30')).body.results[0].status).toBe('accepted');
    const after = await grantsOf(w.id('T1'));
    expect(after.grants[0].remaining).toBe('70.00');
    expect(after.parts.open).toBe('45.00');
    expect(after.parts.total).toBe('115.00');
    // The grant's creation is a move; the consumption names what it drew in its own metadata.
    const moves = await sql<{ amount: string; entry_type: string }>`
      select m.amount::text, e.entry_type from credit_grant_moves m join credit_ledger_entries e on e.id = m.entry_id
      where m.grant_id = ${after.grants[0].id} order by e.seq`.execute(db());
    expect(moves.rows).toEqual([{ amount: '100.00', entry_type: 'allocation_received' }]);
    const drawn = await sql<{ drawn: string }>`
      select (metadata -> 'grants' ->> ${after.grants[0].id})::numeric(16, 2)::text as drawn from credit_ledger_entries
      where organization_id = ${w.id('T1')} and entry_type = 'consumption' and metadata -> 'grants' ? ${after.grants[0].id}`.execute(db());
    expect(drawn.rows).toEqual([{ drawn: '30.00' }]);
    // The voice agent past its grant spends open credits too: 70 from the grant, 10 open.
    expect((await report(w.id('T1'), voice.code, '80')).body.results[0].status).toBe('accepted');
    const drained = await grantsOf(w.id('T1'), 'A1.admin', true);
    expect(drained.grants[0].remaining).toBe('0.00');
    expect(drained.parts.open).toBe('35.00');
    expect((await reconcile(db())).ok).toBe(true);
  });
});

describe('expiry', () => {
  it('returns what is left to the granting organization once, however many run it, and warns 7 days and 1 day before', async () => {
    const expires = new Date(Date.now() + 10 * DAY);
    const made = await allocate('A1.admin', 'A1', 'T2', '40', { expires_at: expires.toISOString() });
    expect(made.status).toBe(200);
    const grantId = (await grantsOf(w.id('T2'))).grants[0].id;
    const subject = GRANT_MESSAGES.expiringMailSubject('40.00', 7);
    const mails = async (s: string) => (await db().selectFrom('outbox').select('to_address').where('subject', '=', s).execute()).length;

    expect(await expiry(new Date(expires.getTime() - 8 * DAY)).warnDue()).toBe(0);
    expect(await expiry(new Date(expires.getTime() - 6 * DAY)).warnDue()).toBe(1);
    expect(await expiry(new Date(expires.getTime() - 5 * DAY)).warnDue()).toBe(0);
    expect(await mails(subject)).toBe(1);
    expect(await expiry(new Date(expires.getTime() - DAY / 2)).warnDue()).toBe(1);
    const warned = await sql<{ data: any }>`select data from webhook_events where type = 'credits.expiring' order by id`.execute(db());
    expect(warned.rows.map((r) => r.data.days).sort()).toEqual([1, 7]);

    const parentBefore = await balanceOf(db(), w.id('A1'));
    const after = new Date(expires.getTime() + 1000);
    const runs = await Promise.all([expiry(after).expireDue(), expiry(after).expireDue(), expiry(after).expireDue()]);
    expect(runs.every((r) => r >= 0)).toBe(true);
    expect(await balanceOf(db(), w.id('T2'))).toBe('0.00');
    expect(await balanceOf(db(), w.id('A1'))).toBe((Number(parentBefore) + 40).toFixed(2));
    const entries = await sql<{ entry_type: string; amount: string }>`
      select entry_type, amount::text from credit_ledger_entries where metadata->>'grant_id' = ${grantId} order by seq`.execute(db());
    expect(entries.rows).toEqual([
      { entry_type: 'expiry', amount: '-40.00' },
      { entry_type: 'expiry_returned', amount: '40.00' },
    ]);
    const expired = (await grantsOf(w.id('T2'), 'A1.admin', true)).grants[0];
    expect(expired.expired_at).not.toBeNull();
    expect(expired.remaining).toBe('0.00');
    expect(
      (await sql<{ n: number }>`select count(*)::int as n from webhook_events where type = 'credits.expired'`.execute(db())).rows[0]!.n,
    ).toBe(1);
    expect((await reconcile(db())).ok).toBe(true);
  });

  it('takes nothing from a grant past its instant before the expiry has run', async () => {
    await sql`update organizations set status = 'active' where id = ${w.id('T2')}`.execute(db());
    await activate(db(), w.id('T2'), voice.id).catch(() => undefined);
    expect((await allocate('A1.admin', 'A1', 'T2', '20', { expires_at: new Date(Date.now() + 2000).toISOString() })).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const refused = await report(w.id('T2'), voice.code, '1');
    expect(refused.body.results[0]).toMatchObject({ status: 'rejected', reason: 'insufficient_credits' });
  });
});

describe('a debit that is not usage', () => {
  it('draws only on credits for every agent: scoped credits stay with the agents they were given for', async () => {
    await fund(db(), w.id('SA1'), '100.00');
    const scoped = await as('SA1.admin', 'POST', '/api/credits/allocations', {
      from_org_id: w.id('SA1'),
      to_org_id: w.id('A1'),
      amount: '30',
      terms: { agent_types: [voice.code] },
    });
    expect(scoped.status).toBe(200);
    const a1 = (await grantsOf(w.id('A1'))).parts;
    expect(Number(a1.total) - Number(a1.open)).toBe(30);
    const tooMuch = (Number(a1.open) + 1).toFixed(2);
    const before = await balanceOf(db(), w.id('T1'));
    const refused = await allocate('A1.admin', 'A1', 'T1', tooMuch);
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toBe(GRANT_MESSAGES.notSpendable(a1.open));
    expect(await balanceOf(db(), w.id('T1'))).toBe(before);
  });

  it('reverses an allocation with terms from its own grant', async () => {
    const made = await allocate('A1.admin', 'A1', 'T1', '12', { agent_types: [voice.code] });
    expect(made.status).toBe(200);
    const reversed = await as('A1.admin', 'POST', `/api/credits/allocations/${made.body.transaction_id}/reversal`, {
      reason: 'wrong child',
    });
    expect([200, 403]).toContain(reversed.status);
    if (reversed.status !== 200) return;
    const grant = (await grantsOf(w.id('T1'), 'A1.admin', true)).grants.find((g: any) => g.transaction_id === made.body.transaction_id);
    expect(grant.remaining).toBe('0.00');
    expect((await reconcile(db())).ok).toBe(true);
  });
});

describe('an automatic top-up with terms', () => {
  it("makes each top-up's credits a grant on the rule's terms, and the spend controls show them", async () => {
    const path = `/api/organizations/${w.id('T1')}/spend-controls`;
    const bad = await as('A1.admin', 'PUT', path, {
      spend_cap: null,
      top_up: { below: '100000', amount: '7', monthly_max: '50', terms: { expires_after_days: 0 } },
    });
    expect(bad.status).toBe(400);
    const set = await as('A1.admin', 'PUT', path, {
      spend_cap: null,
      top_up: { below: '100000', amount: '7', monthly_max: '50', terms: { expires_after_days: 7, agent_types: [voice.code], priority: 3 } },
    });
    expect(set.status).toBe(200);
    expect(set.body.top_up.terms).toEqual({
      expires_after_days: 7,
      agent_types: [{ code: voice.code, name: expect.any(String) }],
      priority: 3,
    });
    await runTopUpsNow(db(), w.t.app.log);
    const grants = (await grantsOf(w.id('T1'))).grants.filter((g: any) => g.amount === '7.00');
    expect(grants).toHaveLength(1);
    expect(grants[0]).toMatchObject({ priority: 3, agent_types: [{ code: voice.code }], granted_by: { id: w.id('A1') } });
    const days = (Date.parse(grants[0].expires_at) - Date.now()) / DAY;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);
    expect((await as('A1.admin', 'PUT', path, { spend_cap: null, top_up: null })).status).toBe(200);
    expect((await reconcile(db())).ok).toBe(true);
  });
});
