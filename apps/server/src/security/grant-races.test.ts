import { sql } from 'kysely';
import pino from 'pino';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { insertOrg } from '../test/fixtures.ts';
import { useWorld } from '../test/harness.ts';
import { createMailer } from '../lib/mail.ts';
import { reconcile } from '../modules/credits/reconcile.ts';
import { createGrantExpiry } from '../modules/grants/expiry.ts';
import { activate, fund, insertAgentType, insertApiKey } from '../test/usage-rows.ts';

/**
 * A grant's expiry racing the usage that draws from it and the allocations that add to its
 * holder, through real HTTP and several expiry runners at once: the remainder moves once,
 * nothing is drawn from the grant after its instant, nothing is spent twice, and the books
 * reconcile. On PostgreSQL these run truly concurrently; PGlite only checks the arithmetic.
 */
const onPostgres = Boolean(inject('pgServerUrl'));
const mode = onPostgres ? 'PostgreSQL: truly concurrent' : 'PGlite: serialized, arithmetic only';
const w = useWorld({ topUpPollMs: 3_600_000, grantExpiryPollMs: 3_600_000 });
const db = () => w.t.database.db;
const silent = pino({ level: 'silent' });

let agent: { id: string; code: string };
let key: string;

beforeAll(async () => {
  agent = await insertAgentType(db(), 'raced-grant', '1.0000');
  key = (await insertApiKey(db(), w.id('SA1'), { name: 'grant racer' })).key;
});

describe(`a grant's expiry under concurrent usage and allocations (${mode})`, () => {
  it('moves the remainder once, draws nothing after the instant, and keeps the books whole', { timeout: 180_000 }, async () => {
    const agency = await insertOrg(db(), { name: 'Racing Agency', type: 'agency', parentId: w.id('SA1') });
    const tenant = await insertOrg(db(), { name: 'Racing Tenant', type: 'tenant', parentId: agency.id });
    await activate(db(), tenant.id, agent.id);
    await fund(db(), agency.id, '1000.00');
    const expiresAt = new Date(Date.now() + 1500);
    await sql`select 1 from ledger_post(gen_random_uuid(), null, false, array[${agency.id}, ${tenant.id}]::uuid[],
      array[-200, 200]::numeric[], array['allocation_sent', 'allocation_received'], array['{}', '{}']::jsonb[],
      p_terms => array[null, ${JSON.stringify({ granted_by: agency.id, expires_at: expiresAt.toISOString(), priority: 5 })}::jsonb])`.execute(
      db(),
    );
    const grantId = (await sql<{ id: string }>`select id from credit_grants where organization_id = ${tenant.id}`.execute(db())).rows[0]!
      .id;

    let n = 0;
    const usage = () =>
      w.t.request(
        'POST',
        '/api/v1/usage-events',
        {
          events: Array.from({ length: 5 }, () => ({
            id: `race-${++n}`,
            organization_id: tenant.id,
            agent: agent.code,
            units: '1',
            occurred_at: new Date().toISOString(),
          })),
        },
        { headers: { authorization: `Bearer ${key}` } },
      );
    const runners = Array.from({ length: 3 }, () =>
      createGrantExpiry({ db: db(), mailer: createMailer({ db: db(), smtpUrl: null, logger: silent }), logger: silent, pollMs: 3_600_000 }),
    );
    const deadline = Date.now() + 3500;
    const responses: { status: number; body: any }[] = [];
    await Promise.all([
      // Usage all along, before and after the instant.
      ...Array.from({ length: 4 }, async () => {
        while (Date.now() < deadline) responses.push(await usage());
      }),
      // Open credits arriving meanwhile, from the agency, through the one ledger writer.
      (async () => {
        while (Date.now() < deadline) {
          await sql`select 1 from ledger_post(gen_random_uuid(), null, false, array[${agency.id}, ${tenant.id}]::uuid[],
            array[-2, 2]::numeric[], array['allocation_sent', 'allocation_received'], array['{}', '{}']::jsonb[])`.execute(db());
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })(),
      // Three expiry runners looking again and again.
      ...runners.map(async (runner) => {
        while (Date.now() < deadline) {
          await runner.expireDue();
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }),
    ]);
    for (const runner of runners) await runner.expireDue();
    expect(responses.filter((r) => r.status >= 500)).toEqual([]);

    const expiries = await sql<{ n: number; amount: string | null }>`
      select count(*)::int as n, sum(amount)::text as amount from credit_ledger_entries
      where entry_type = 'expiry' and metadata->>'grant_id' = ${grantId}`.execute(db());
    const grant = (
      await sql<{
        remaining: string;
        expired_at: string | null;
      }>`select remaining::text, expired_at::text from credit_grants where id = ${grantId}`.execute(db())
    ).rows[0]!;
    expect(grant.remaining).toBe('0.00');
    expect(grant.expired_at).not.toBeNull();
    expect(expiries.rows[0]!.n).toBeLessThanOrEqual(1);
    // Nothing drew from the grant after its instant, and every draw is within it.
    const late = await sql<{ n: number }>`
      select count(*)::int as n from credit_ledger_entries e
      where e.organization_id = ${tenant.id} and e.entry_type = 'consumption' and e.metadata -> 'grants' ? ${grantId}
        and e.created_at >= ${expiresAt.toISOString()}::timestamptz`.execute(db());
    expect(late.rows[0]!.n).toBe(0);
    const accepted = responses.flatMap((r) => r.body?.results ?? []).filter((x: any) => x.status === 'accepted').length;
    const consumed = await sql<{ total: string }>`
      select coalesce(-sum(amount), 0)::numeric(16, 2)::text as total from credit_ledger_entries
      where organization_id = ${tenant.id} and entry_type = 'consumption'`.execute(db());
    expect(consumed.rows[0]!.total).toBe(accepted.toFixed(2));
    const report = await reconcile(db());
    expect(report.grant_mismatches).toEqual([]);
    expect(report.ok).toBe(true);
  });
});
