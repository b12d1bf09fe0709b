import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import { USAGE_WINDOW } from '@console/domain';
import type { DB } from './db/schema.ts';
import { DAY_MS, DEMO_AGENT_TYPES, seedDemo, type DemoOrganization, type SeededDemo } from './db/seed.ts';
import { isKeyRefusal, verifyKey } from './lib/api-key.ts';
import { seedDemoInvoices, type DemoInvoice } from './demo-invoices.ts';
import { seedDemoGrant, type DemoGrant } from './demo-grants.ts';
import { writeAudit } from './lib/audit.ts';
import type { SecretSealer } from './lib/sealer.ts';
import { makeTopUp } from './modules/billing/top-ups.ts';
import { createCreditsService } from './modules/credits/credits.service.ts';
import { createOrganizationsService } from './modules/organizations/organizations.service.ts';
import { createUsageService, type UsageEvent } from './modules/usage/usage.service.ts';
import { DEMO_USAGE_DAYS, demoUsage, scaled } from './demo-usage.ts';

/**
 * The whole demo: the hierarchy, users, catalog, activations and API key (db/seed.ts), then
 * credits moved down the tree from a house adjustment, then 30 UTC days of usage of every
 * demo activation recorded through the usage service with the demo key, exactly as the
 * machine API records it (ledger consumption entries, balances, carries and day totals
 * included), one UTC day at a time, so the ledger holds each day's consumption on its day
 * as a runtime reporting every day would have left it. The usage is drawn from a fixed
 * seed, so every run makes the same figures.
 */

export { DEMO_USAGE_DAYS, demoUsage, type DemoUsage } from './demo-usage.ts';

/** Lakeside-style tenants (credits `low`) end this far below their low-balance threshold. */
const LOW_BALANCE_MARGIN_CENTS = 463n;

/** Credits the house keeps beyond what it hands down. */
const HOUSE_RESERVE_CENTS = 2_000_000n;

/** The tenant whose parent caps its monthly spend, and how much of its current month's expected charges the cap allows. */
const CAPPED_TENANT = 'Harbor Realty';
const CAP_PERCENT = 70n;

/**
 * The tenant its parent tops up automatically: its line is this share of its month's
 * expected charges below what it starts with (it crosses it part-way through the month), and
 * the amount covers its month (one top-up).
 */
const TOP_UP_TENANT = 'Corner Bakery';
const TOP_UP_LINE_PERCENT = 40n;

const SEED_INFO = { ip: '127.0.0.1', userAgent: 'db:seed --demo', requestId: 'db-seed-demo' };

/**
 * Runs `write` in one transaction with the ledger's entries dated `at` instead of the moment
 * they are written: the demo's history is written at once, but its entries belong to the days
 * they tell of. `ledger_post` dates a posting from the setting `console.ledger_at`, set here
 * for this transaction only (`set_config(…, true)`), so it ends with the transaction and no
 * other writer's entry is dated.
 */
async function ledgerDatedAt<T>(db: Kysely<DB>, at: Date, write: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`select set_config('console.ledger_at', ${at.toISOString()}, true)`.execute(trx);
    return write(trx);
  });
}

const amount = (cents: bigint) => `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;

export interface DemoSummary extends SeededDemo {
  agentTypeCount: number;
  /** Events accepted (charged or not). */
  events: number;
  days: number;
  charged: string;
  lowBalance: { organization: string; balance: string; threshold: string }[];
  /** What each seller earned on its subtree's usage (its earning entries), by name. */
  earnings: { seller: string; earned: string }[];
  /** The monthly spend cap a parent set on a tenant, and the events refused by it, per month of occurrence. */
  cap: { organization: string; setBy: string; cap: string; refused: number; months: { month: string; charged: string; refused: number }[] };
  /** The automatic top-ups made, per organization topped up. */
  topUps: { organization: string; from: string; count: number; amount: string }[];
  /** The invoices issued for the demo's credits, with where each stands. */
  invoices: DemoInvoice[];
  grant: DemoGrant;
}

export async function seedDemoWithUsage(
  db: Kysely<DB>,
  options: { now?: Date; totpSealer?: SecretSealer; identitySealer?: SecretSealer; appUrl?: string } = {},
): Promise<DemoSummary> {
  const now = options.now ?? new Date();
  const seeded = await seedDemo(db, { now, totpSealer: options.totpSealer, identitySealer: options.identitySealer });
  const organizations = createOrganizationsService({ db });
  const usage = createUsageService({ db, organizations });
  const credits = createCreditsService({ db, organizations, usage });
  const { events, chargeCents, monthCents } = demoUsage(seeded.organizations, now);

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

  // A monthly spend cap on one tenant, set by its parent: a share of what the tenant's usage
  // of the current month (UTC) is expected to charge (caps count by the month of occurrence),
  // so it is reached whatever the date; early in a month without usage yet, of its busiest month.
  const capped = seeded.organizations.find((o) => o.name === CAPPED_TENANT)!;
  const cappedMonths = monthCents.get(capped.id) ?? new Map<string, bigint>();
  const currentMonth = now.toISOString().slice(0, 7);
  const capBase = cappedMonths.get(currentMonth) || [...cappedMonths.values()].reduce((a, b) => (a > b ? a : b), 0n);
  const capCents = (capBase * CAP_PERCENT) / 100n;
  // An automatic top-up on another, from its parent: a line its usage crosses part-way through
  // the month, and an amount that covers its month.
  const toppedUp = seeded.organizations.find((o) => o.name === TOP_UP_TENANT)!;
  const toppedUpCharges = chargeCents.get(toppedUp.id) ?? 0n;
  const topUpBelow = ((creditsOf(toppedUp) - (toppedUpCharges * TOP_UP_LINE_PERCENT) / 100n) / 100n) * 100n;
  const topUpAmount = (toppedUpCharges / 1000n + 1n) * 1000n;
  await db.transaction().execute(async (trx) => {
    const topUp = { below: amount(topUpBelow), amount: amount(topUpAmount), monthly_max: amount(3n * topUpAmount) };
    // Each set on an organization that had no cap and no top-up, audited as the spend controls write it.
    const unset = { spend_cap_before: null, spend_cap_after: null, top_up_before: null, top_up_after: null };
    const settings = [
      { org: capped, values: { spend_cap: amount(capCents) }, details: { ...unset, spend_cap_after: amount(capCents) } },
      {
        org: toppedUp,
        values: { top_up_below: topUp.below, top_up_amount: topUp.amount, top_up_monthly_max: topUp.monthly_max },
        details: { ...unset, top_up_after: topUp },
      },
    ];
    for (const { org, values, details } of settings) {
      await trx.updateTable('organization_billing_settings').set(values).where('organization_id', '=', org.id).execute();
      await writeAudit(trx, {
        actorUserId: null,
        organizationId: org.id,
        action: 'billing.spend_controls',
        targetType: 'organization',
        targetId: org.id,
        details,
      });
    }
  });

  // Usage, as the demo key's runtime reports it through the machine API.
  const key = await verifyKey(db, seeded.apiKey.secret);
  if (isKeyRefusal(key)) throw new Error(`The demo API key does not verify (${key.refused}).`);
  // Each UTC day's events as a runtime reports them: in batches, the ledger's entries dated
  // by the last event of the batch (never later than now).
  let charged = 0n;
  let accepted = 0;
  const refusedByMonth = new Map<string, number>();
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
      // The batch, and in the same transaction the automatic top-ups its usage called for, as
      // the top-up runner makes them (dated with the batch: on the day they happened).
      const batch = await ledgerDatedAt(db, at, async (trx) => {
        const recorded = await createUsageService({ db: trx, organizations }).record({ kind: 'key', key }, slice, SEED_INFO);
        while (await makeTopUp(trx)) {
          // one pending request at a time, until none is left
        }
        return recorded;
      });
      for (const [n, result] of batch.results.entries()) {
        const event = slice[n]!;
        if (result.id !== event.id) throw new Error(`Demo usage event ${event.id} was answered as ${result.id}.`);
        if (result.status === 'accepted') {
          accepted++;
          charged += scaled(result.credits_charged!, 2);
        } else if (result.status === 'rejected' && result.reason === 'spend_cap_reached' && event.organization_id === capped.id) {
          const month = event.occurred_at.slice(0, 7);
          refusedByMonth.set(month, (refusedByMonth.get(month) ?? 0) + 1);
        } else {
          throw new Error(`Demo usage event ${result.id} was ${result.status}: ${result.message ?? ''}`);
        }
      }
    }
  }

  const invoices = await seedDemoInvoices(db, seeded, { now, appUrl: options.appUrl ?? 'http://localhost:3000' });
  const grant = await seedDemoGrant(db, seeded, now);

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
  const earnings = await sql<{ seller: string; earned: string }>`
    select o.name as seller, sum(e.amount)::numeric(16, 2)::text as earned
    from credit_ledger_entries e join organizations o on o.id = e.organization_id
    where e.entry_type = 'earning' group by o.id, o.name order by o.name`.execute(db);
  const capMonths = await sql<{ month: string; charged: string }>`
    select to_char(m.month, 'YYYY-MM') as month, m.charged::text as charged from spend_cap_months m
    where m.scope = 'subtree' and m.scope_id = ${capped.id} and m.kind = 'month' order by m.month`.execute(db);
  const topUps = await sql<{ organization: string; from: string; count: number; amount: string }>`
    select o.name as organization, e.metadata->>'from_org_name' as "from", count(*)::int as count,
           sum(e.amount)::numeric(16, 2)::text as amount
    from credit_ledger_entries e join organizations o on o.id = e.organization_id
    where e.entry_type = 'allocation_received' and e.metadata->>'automatic' = 'true'
    group by o.id, o.name, e.metadata->>'from_org_name' order by o.name`.execute(db);
  const months = [...new Set([...capMonths.rows.map((m) => m.month), ...refusedByMonth.keys()])].sort();
  return {
    ...seeded,
    agentTypeCount: DEMO_AGENT_TYPES.length,
    events: accepted,
    days: new Set(events.map((e) => e.occurred_at.slice(0, 10))).size,
    charged: amount(charged),
    lowBalance: low.map((r) => ({ organization: r.name, balance: r.credit_balance, threshold: r.low_balance_threshold })),
    earnings: earnings.rows,
    cap: {
      organization: capped.name,
      setBy: names.get(capped.parentId)!,
      cap: amount(capCents),
      refused: [...refusedByMonth.values()].reduce((a, b) => a + b, 0),
      months: months.map((month) => ({
        month,
        charged: capMonths.rows.find((m) => m.month === month)?.charged ?? '0.00',
        refused: refusedByMonth.get(month) ?? 0,
      })),
    },
    topUps: topUps.rows,
    invoices,
    grant,
  };
}
