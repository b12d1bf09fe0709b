import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { USAGE_WINDOW } from '@console/domain';
import type { DB } from './db/schema.ts';
import { DAY_MS, DEMO_ACTIVATIONS, DEMO_AGENT_TYPES, seedDemo, type DemoOrganization, type SeededDemo } from './db/seed.ts';
import { isKeyRefusal, verifyKey } from './lib/api-key.ts';
import { createCreditsService } from './modules/credits/credits.service.ts';
import { createOrganizationsService } from './modules/organizations/organizations.service.ts';
import { createUsageService, type UsageEvent } from './modules/usage/usage.service.ts';

/**
 * The whole demo: the hierarchy, users, catalog, activations and API key (db/seed.ts), then
 * credits moved down the tree from a house adjustment, then 30 UTC days of usage of every
 * demo activation recorded through the usage service with the demo key, exactly as the
 * machine API records it (ledger consumption entries, balances, carries and day totals
 * included), one UTC day at a time, so the ledger holds each day's consumption on its day
 * as a runtime reporting every day would have left it. The usage is drawn from a fixed
 * seed, so every run makes the same figures.
 */

/** Days of usage, today included. */
export const DEMO_USAGE_DAYS = 30;

/** Lakeside-style tenants (credits `low`) end this far below their low-balance threshold. */
const LOW_BALANCE_MARGIN_CENTS = 463n;

/** Credits the house keeps beyond what it hands down. */
const HOUSE_RESERVE_CENTS = 2_000_000n;

const SEED_INFO = { ip: '127.0.0.1', userAgent: 'db:seed --demo', requestId: 'db-seed-demo' };

/** A small deterministic generator (mulberry32): the same demo on every run. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** An exact decimal string with up to `places` decimals, scaled to an integer of `places` digits. */
function scaled(value: string, places: number): bigint {
  const [whole, fraction = ''] = value.split('.');
  return BigInt(whole!) * 10n ** BigInt(places) + BigInt(fraction.padEnd(places, '0').slice(0, places) || '0');
}

/**
 * Runs `write` in one transaction with the ledger's entries dated `at` instead of the moment
 * they are written: the demo's history is written at once, but its entries belong to the days
 * they tell of. The changed default is part of the transaction: it is put back before the
 * commit, rolled back with everything else on an error or a crash, and any other writer of
 * the ledger waits for the commit (the change locks the table), so no other entry is dated.
 */
async function ledgerDatedAt<T>(db: Kysely<DB>, at: Date, write: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`alter table credit_ledger_entries alter column created_at set default ${sql.raw(`'${at.toISOString()}'::timestamptz`)}`.execute(
      trx,
    );
    const result = await write(trx);
    await sql`alter table credit_ledger_entries alter column created_at set default clock_timestamp()`.execute(trx);
    return result;
  });
}

const amount = (cents: bigint) => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;

export interface DemoUsage {
  events: UsageEvent[];
  /** What the events charge each organization in all, in cents: per agent type, the whole cents of its exact cost. */
  chargeCents: Map<string, bigint>;
}

/**
 * Each activation's events over the last DEMO_USAGE_DAYS UTC days: fewer at weekends, a
 * little more each week, none before it was activated or after its runtime was last active.
 * Sorted by time, as a runtime would report them.
 */
export function demoUsage(organizations: DemoOrganization[], now: Date): DemoUsage {
  const next = random(20_240_601);
  const orgIds = new Map(organizations.map((o) => [o.name, o.id]));
  const prices = new Map(
    DEMO_AGENT_TYPES.map((t) => [t.code, t.prices.map((p) => ({ from: now.getTime() - p.daysAgo * DAY_MS, price: scaled(p.price, 4) }))]),
  );
  const priceAt = (agent: string, time: number) =>
    prices
      .get(agent)!
      .filter((p) => p.from <= time)
      .at(-1)!.price;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const events: UsageEvent[] = [];
  // Exact costs, in hundred-millionths of a credit (units and prices both have four places).
  const costs = new Map<string, bigint>();
  for (const activation of DEMO_ACTIVATIONS) {
    const organizationId = orgIds.get(activation.organization)!;
    const activatedAt = now.getTime() - activation.activatedDaysAgo * DAY_MS;
    const lastActive = now.getTime() - activation.lastActiveMinutesAgo * 60_000;
    const costKey = `${organizationId}/${activation.agent}`;
    for (let daysAgo = DEMO_USAGE_DAYS - 1; daysAgo >= 0; daysAgo--) {
      const dayStart = today - daysAgo * DAY_MS;
      const begin = Math.max(dayStart, activatedAt);
      const end = Math.min(dayStart + DAY_MS, lastActive);
      if (end <= begin) continue;
      const weekday = new Date(dayStart).getUTCDay();
      const weekend = weekday === 0 || weekday === 6 ? 0.55 : 1;
      const growth = 0.8 + (0.3 * (DEMO_USAGE_DAYS - 1 - daysAgo)) / (DEMO_USAGE_DAYS - 1);
      const count = Math.round(activation.perDay * weekend * growth * (0.8 + 0.4 * next()) * ((end - begin) / DAY_MS));
      const day = new Date(dayStart).toISOString().slice(0, 10);
      for (let n = 1; n <= count; n++) {
        const time = begin + Math.floor(next() * (end - begin));
        const { min, max, places } = activation.units;
        const units = Math.max(min + next() * (max - min), 10 ** -places).toFixed(places);
        events.push({
          id: `demo-${activation.agent}-${day}-${String(n).padStart(4, '0')}`,
          organization_id: organizationId,
          agent: activation.agent,
          units,
          occurred_at: new Date(time).toISOString(),
        });
        costs.set(costKey, (costs.get(costKey) ?? 0n) + scaled(units, 4) * priceAt(activation.agent, time));
      }
    }
  }
  events.sort((a, b) => a.occurred_at.localeCompare(b.occurred_at));
  const chargeCents = new Map<string, bigint>();
  for (const [key, cost] of costs) {
    const organizationId = key.split('/')[0]!;
    chargeCents.set(organizationId, (chargeCents.get(organizationId) ?? 0n) + cost / 1_000_000n);
  }
  return { events, chargeCents };
}

export interface DemoSummary extends SeededDemo {
  agentTypeCount: number;
  events: number;
  days: number;
  charged: string;
  lowBalance: { organization: string; balance: string; threshold: string }[];
}

export async function seedDemoWithUsage(db: Kysely<DB>, options: { now?: Date } = {}): Promise<DemoSummary> {
  const now = options.now ?? new Date();
  const seeded = await seedDemo(db, { now });
  const organizations = createOrganizationsService({ db });
  const usage = createUsageService({ db, organizations });
  const credits = createCreditsService({ db, organizations, usage });
  const { events, chargeCents } = demoUsage(seeded.organizations, now);

  // Credits: an adjustment of the house, then each organization's share from its parent
  // as an initial balance; a `low` tenant gets its month's usage plus a little less than
  // its threshold.
  const thresholds = new Map(
    (await db.selectFrom('organization_billing_settings').select(['organization_id', 'low_balance_threshold']).execute()).map((r) => [
      r.organization_id,
      scaled(r.low_balance_threshold, 2),
    ]),
  );
  const creditsOf = (org: DemoOrganization) =>
    org.credits === 'low' ? (chargeCents.get(org.id) ?? 0n) + thresholds.get(org.id)! - LOW_BALANCE_MARGIN_CENTS : scaled(org.credits, 2);
  const names = new Map<string, string>([
    [seeded.house.id, seeded.house.name],
    ...seeded.organizations.map((o) => [o.id, o.name] as const),
  ]);
  const handedDown = seeded.organizations.filter((o) => o.parentId === seeded.house.id).reduce((sum, o) => sum + creditsOf(o), 0n);
  // The credits arrive the day before the first day of usage.
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const creditsDay = new Date(today - DEMO_USAGE_DAYS * DAY_MS);
  await ledgerDatedAt(db, creditsDay, async (trx) => {
    const reason = 'Demo credits';
    await credits.move(
      trx,
      [
        {
          organizationId: seeded.house.id,
          amount: amount(handedDown + HOUSE_RESERVE_CENTS),
          type: 'adjustment_increase',
          metadata: { reason, notes: reason },
        },
      ],
      randomUUID(),
      seeded.houseAdminId,
    );
    for (const org of seeded.organizations) {
      const share = amount(creditsOf(org));
      const notes = 'Initial balance';
      await credits.move(
        trx,
        [
          {
            organizationId: org.parentId,
            amount: `-${share}`,
            type: 'allocation_sent',
            metadata: { to_org_id: org.id, to_org_name: org.name, notes },
          },
          {
            organizationId: org.id,
            amount: share,
            type: 'initial_balance',
            metadata: { from_org_id: org.parentId, from_org_name: names.get(org.parentId), notes },
          },
        ],
        randomUUID(),
        seeded.houseAdminId,
        { requireActive: true },
      );
    }
  });

  // Usage, as the demo key's runtime reports it through the machine API.
  const key = await verifyKey(db, seeded.apiKey.secret);
  if (isKeyRefusal(key)) throw new Error(`The demo API key does not verify (${key.refused}).`);
  // Each UTC day's events as a runtime reports them: in batches, the ledger's entries dated
  // by the last event of the batch (never later than now).
  let charged = 0n;
  const byDay = new Map<string, UsageEvent[]>();
  for (const event of events) {
    const day = event.occurred_at.slice(0, 10);
    const list = byDay.get(day);
    if (list) list.push(event);
    else byDay.set(day, [event]);
  }
  for (const dayEvents of byDay.values()) {
    for (let start = 0; start < dayEvents.length; start += USAGE_WINDOW.batchMax) {
      const slice = dayEvents.slice(start, start + USAGE_WINDOW.batchMax);
      const at = new Date(Math.min(Date.parse(slice.at(-1)!.occurred_at), now.getTime()));
      const batch = await ledgerDatedAt(db, at, (trx) =>
        createUsageService({ db: trx, organizations }).record({ kind: 'key', key }, slice, SEED_INFO),
      );
      const refused = batch.results.find((r) => r.status !== 'accepted');
      if (refused) throw new Error(`Demo usage event ${refused.id} was ${refused.status}: ${refused.message ?? ''}`);
      for (const result of batch.results) charged += scaled(result.credits_charged!, 2);
    }
  }

  const low = await db
    .selectFrom('organization_billing_settings as b')
    .innerJoin('organizations as o', 'o.id', 'b.organization_id')
    .select(['o.name', 'b.credit_balance', 'b.low_balance_threshold'])
    .where(
      'b.organization_id',
      'in',
      seeded.organizations.map((o) => o.id),
    )
    .whereRef('b.credit_balance', '<', 'b.low_balance_threshold')
    .orderBy('o.name')
    .execute();
  return {
    ...seeded,
    agentTypeCount: DEMO_AGENT_TYPES.length,
    events: events.length,
    days: new Set(events.map((e) => e.occurred_at.slice(0, 10))).size,
    charged: amount(charged),
    lowBalance: low.map((r) => ({ organization: r.name, balance: r.credit_balance, threshold: r.low_balance_threshold })),
  };
}
