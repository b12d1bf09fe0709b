import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import { useWorld } from '../../test/harness.ts';
import { insertOrg } from '../../test/fixtures.ts';
import { activate, fund, insertAgentType, insertApiKey } from '../../test/usage-rows.ts';
import { grantMismatches } from '../credits/reconcile-grants.ts';

/**
 * Property: grants are drawn as a model in integers says. Each run makes an agency and a
 * tenant of its own; the agency grants credits with random terms (an expiry already passed,
 * one ahead or none; every agent or one of two; a priority of 0 to 2) or open credits;
 * events of either agent arrive through the machine API, each a whole number of credits;
 * expiries run in between. After every step the tenant's grants, open credits and both
 * balances equal the model's: each event charged from the right grants (highest priority,
 * then soonest expiry, then oldest; open credits as priority 0 without expiry, oldest),
 * nothing drawn from an expired or out-of-scope grant, credits conserved within the tree
 * (what left it is exactly what was consumed), and the grants agree with their moves.
 */
const w = useWorld({ grantExpiryPollMs: 3_600_000, topUpPollMs: 3_600_000 });
const db = () => w.t.database.db;

let agents: { id: string; code: string }[];
let key: { id: string; key: string };
let run = 0;
let events = 0;

type Step =
  | { op: 'grant'; amount: number; expiry: 'past' | 'ahead' | 'none'; scope: 0 | 1 | null; priority: number }
  | { op: 'open'; amount: number }
  | { op: 'use'; agent: 0 | 1; units: number }
  | { op: 'expire' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    op: fc.constant('grant' as const),
    amount: fc.integer({ min: 1, max: 30 }),
    expiry: fc.constantFrom('past' as const, 'ahead' as const, 'none' as const),
    scope: fc.constantFrom(0 as const, 1 as const, null),
    priority: fc.integer({ min: 0, max: 2 }),
  }),
  fc.record({ op: fc.constant('open' as const), amount: fc.integer({ min: 1, max: 20 }) }),
  fc.record({ op: fc.constant('use' as const), agent: fc.constantFrom(0 as const, 1 as const), units: fc.integer({ min: 1, max: 25 }) }),
  fc.record({ op: fc.constant('expire' as const) }),
);

interface ModelGrant {
  id: string;
  rem: number;
  /** Minutes from the run's start: negative has passed; null never. */
  exp: number | null;
  scope: 0 | 1 | null;
  priority: number;
  n: number;
  expired: boolean;
}

/** The draw order, with the open credits as a grant of priority 0, no expiry, older than all. */
function drawOrder(grants: ModelGrant[]): (ModelGrant | 'open')[] {
  const key = (g: ModelGrant | 'open') => (g === 'open' ? [0, Infinity, -1] : [g.priority, g.exp ?? Infinity, g.n]);
  return [...grants, 'open' as const].sort((a, b) => {
    const [pa, ea, na] = key(a);
    const [pb, eb, nb] = key(b);
    return pb! - pa! || (ea === eb ? 0 : ea! < eb! ? -1 : 1) || na! - nb!;
  });
}

const cents = (amount: string) => Math.round(Number(amount) * 100);

beforeAll(async () => {
  agents = [await insertAgentType(db(), 'prop-voice', '1.0000'), await insertAgentType(db(), 'prop-chat', '1.0000')];
  key = await insertApiKey(db(), w.id('SA1'), { name: 'grants property' });
});

describe('grants against a model in integers', () => {
  it('charge each event from the right grants, never from an expired or out-of-scope one, and conserve credits', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 12 }), async (steps) => {
        run += 1;
        const agency = await insertOrg(db(), { name: `Prop agency ${run}`, type: 'agency', parentId: w.id('SA1') });
        const tenant = await insertOrg(db(), { name: `Prop tenant ${run}`, type: 'tenant', parentId: agency.id });
        for (const agent of agents) await activate(db(), tenant.id, agent.id);
        await fund(db(), agency.id, '1000.00');
        const model = { agency: 100_000, open: 0, consumed: 0, grants: [] as ModelGrant[] };
        let n = 0;

        for (const step of steps) {
          if (step.op === 'grant' || step.op === 'open') {
            const amount = step.amount * 100;
            const terms =
              step.op === 'open'
                ? null
                : {
                    granted_by: agency.id,
                    priority: step.priority,
                    expires_at:
                      step.expiry === 'none'
                        ? null
                        : new Date(Date.now() + (step.expiry === 'past' ? -60_000 - n * 1000 : 86_400_000 + n * 1000)).toISOString(),
                    agent_type_ids: step.scope === null ? null : [agents[step.scope]!.id],
                  };
            await sql`select 1 from ledger_post(gen_random_uuid(), null, false, array[${agency.id}, ${tenant.id}]::uuid[],
              array[${-step.amount}, ${step.amount}]::numeric[], array['allocation_sent', 'allocation_received'],
              array['{}', '{}']::jsonb[], p_terms => array[null, ${terms === null ? null : JSON.stringify(terms)}::jsonb])`.execute(db());
            model.agency -= amount;
            if (step.op === 'open') model.open += amount;
            else {
              const id = (
                await sql<{
                  id: string;
                }>`select id from credit_grants where organization_id = ${tenant.id} order by created_at desc, id limit 1`.execute(db())
              ).rows[0]!.id;
              const exp = step.expiry === 'none' ? null : step.expiry === 'past' ? -1000 - n : 1000 + n;
              model.grants.push({ id, rem: amount, exp, scope: step.scope, priority: step.priority, n: n++, expired: false });
            }
          } else if (step.op === 'use') {
            const charge = step.units * 100;
            const live = (g: ModelGrant) => !g.expired && (g.exp === null || g.exp > 0) && (g.scope === null || g.scope === step.agent);
            const spendable = model.open + model.grants.filter(live).reduce((sum, g) => sum + g.rem, 0);
            const response = await w.t.request(
              'POST',
              '/api/v1/usage-events',
              {
                events: [
                  {
                    id: `p-${++events}`,
                    organization_id: tenant.id,
                    agent: agents[step.agent]!.code,
                    units: String(step.units),
                    occurred_at: new Date().toISOString(),
                  },
                ],
              },
              { headers: { authorization: `Bearer ${key.key}` } },
            );
            const result = response.body.results[0];
            if (charge > spendable) {
              expect(result).toMatchObject({ status: 'rejected', reason: 'insufficient_credits' });
            } else {
              expect(result.status).toBe('accepted');
              let need = charge;
              for (const g of drawOrder(model.grants.filter(live))) {
                const take = Math.min(need, g === 'open' ? model.open : g.rem);
                if (g === 'open') model.open -= take;
                else g.rem -= take;
                need -= take;
              }
              model.consumed += charge;
            }
          } else {
            for (const g of model.grants) {
              const { rows } = await sql<{ r: unknown }>`select credit_grant_expire(${g.id}::uuid, now()) as r`.execute(db());
              if (!g.expired && g.exp !== null && g.exp < 0) {
                g.expired = true;
                model.agency += g.rem;
                expect(rows[0]!.r === null).toBe(g.rem === 0);
                g.rem = 0;
              } else {
                expect(rows[0]!.r).toBeNull();
              }
            }
          }
          const stored = await sql<{
            id: string;
            remaining: string;
          }>`select id, remaining::text from credit_grants where organization_id = ${tenant.id}`.execute(db());
          const rem = new Map(stored.rows.map((r) => [r.id, cents(r.remaining)]));
          for (const g of model.grants) expect(rem.get(g.id)).toBe(g.rem);
          const balances = await sql<{ id: string; balance: string }>`
            select organization_id as id, credit_balance::text as balance from organization_billing_settings
            where organization_id in (${agency.id}, ${tenant.id})`.execute(db());
          const balance = new Map(balances.rows.map((r) => [r.id, cents(r.balance)]));
          const tenantTotal = model.open + model.grants.reduce((sum, g) => sum + g.rem, 0);
          expect(balance.get(tenant.id)).toBe(tenantTotal);
          expect(balance.get(agency.id)).toBe(model.agency);
          expect(balance.get(agency.id)! + balance.get(tenant.id)! + model.consumed).toBe(100_000);
        }
        expect(await grantMismatches(db())).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });
});
