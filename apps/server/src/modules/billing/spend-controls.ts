import { sql, type Kysely } from 'kysely';
import { MESSAGES, maySetSpendControls, type SpendControls, type SpendControlsInput } from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { capStanding, capUsage, toppedUpThisMonth, windowCapUsage } from '../../lib/spend-caps.ts';
import { storedTopUpTerms, topUpTermsView, type StoredTopUpTerms } from '../../lib/grant-terms.ts';
import { lockKeyed } from '../../lib/locks.ts';
import { topUpHistory } from './top-up-history.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';

const s = MESSAGES.spend;

interface ControlsRow {
  spend_cap: SpendControls['spend_cap'];
  daily_spend_cap: SpendControls['daily_spend_cap'];
  weekly_spend_cap: SpendControls['weekly_spend_cap'];
  cap_standing: SpendControls['cap_standing'];
  top_up_below: string | null;
  top_up_amount: string | null;
  top_up_monthly_max: string | null;
  top_up_terms: StoredTopUpTerms | null;
  topped_up: string;
  last_at: string | null;
  last_outcome: NonNullable<SpendControls['last_top_up']>['outcome'] | null;
}

async function readControls(executor: Executor, organizationId: string): Promise<ControlsRow> {
  const { rows } = await sql<ControlsRow>`
    select ${capUsage('subtree', sql`b.organization_id`, sql`b.spend_cap`)} as spend_cap,
           ${windowCapUsage('subtree', 'day', sql`b.organization_id`, sql`b.daily_spend_cap`)} as daily_spend_cap,
           ${windowCapUsage('subtree', 'week', sql`b.organization_id`, sql`b.weekly_spend_cap`)} as weekly_spend_cap,
           ${capStanding(sql`b.organization_id`)} as cap_standing,
           b.top_up_below::text, b.top_up_amount::text, b.top_up_monthly_max::text, b.top_up_terms,
           ${toppedUpThisMonth(sql`b.organization_id`)}::numeric(16, 2)::text as topped_up,
           to_char(r.done_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last_at, r.outcome as last_outcome
    from organization_billing_settings b
    left join lateral (
      select q.done_at, q.outcome from top_up_requests q
      where q.organization_id = b.organization_id and q.done_at is not null
      order by q.created_at desc limit 1
    ) r on true
    where b.organization_id = ${organizationId}`.execute(executor);
  return rows[0]!;
}

/** A child's spend caps by day, week and month (over its subtree) and automatic top-up, kept by its parent's admins. */
export function createSpendControls({ db, organizations }: { db: Kysely<DB>; organizations: OrganizationsService }) {
  async function get(caller: Caller, id: string): Promise<SpendControls> {
    const org = await organizations.visible(caller, id);
    const row = await readControls(db, org.id);
    return {
      organization_id: org.id,
      spend_cap: row.spend_cap,
      daily_spend_cap: row.daily_spend_cap,
      weekly_spend_cap: row.weekly_spend_cap,
      cap_standing: row.cap_standing,
      top_up:
        row.top_up_below === null
          ? null
          : {
              below: row.top_up_below,
              amount: row.top_up_amount!,
              monthly_max: row.top_up_monthly_max!,
              terms: await topUpTermsView(db, row.top_up_terms),
            },
      topped_up_this_month: row.topped_up,
      last_top_up: row.last_at && row.last_outcome ? { at: row.last_at, outcome: row.last_outcome } : null,
      top_ups: await topUpHistory(db, caller, org.id),
      can_edit: maySetSpendControls(caller, org),
    };
  }

  /**
   * Sets a direct child's cap and top-up. The child's book key is taken exclusively (batches of
   * its subtree hold it shared) and its balance row is locked (its own batches lock it), so no
   * batch is half-way through a change; a changed cap's window rows are dropped, to be
   * recounted from the day totals by the next batch that needs them. A day or week cap left
   * out of the input stays. A top-up set on a child already below its
   * line is queued at once.
   */
  async function set(caller: Caller, id: string, input: SpendControlsInput, info: ClientInfo): Promise<SpendControls> {
    await db.transaction().execute(async (trx) => {
      const org = await organizations.visible(caller, id, trx);
      if (!maySetSpendControls(caller, org)) throw new ForbiddenError(s.onlyParentAdmins);
      await lockKeyed(trx, 'book', org.id);
      await sql`select credit_balances_lock(array[${org.id}]::uuid[])`.execute(trx);
      const before = await trx
        .selectFrom('organization_billing_settings')
        .select([
          'spend_cap',
          'daily_spend_cap',
          'weekly_spend_cap',
          'top_up_below',
          'top_up_amount',
          'top_up_monthly_max',
          'credit_balance',
        ])
        .where('organization_id', '=', org.id)
        .executeTakeFirstOrThrow();
      const topUp = input.top_up as { below: string; amount: string; monthly_max: string } | null;
      const topUpTerms = topUp ? await storedTopUpTerms(trx, input.top_up?.terms) : null;
      const spendCap = input.spend_cap as string | null;
      const dailyCap = input.daily_spend_cap === undefined ? before.daily_spend_cap : (input.daily_spend_cap as string | null);
      const weeklyCap = input.weekly_spend_cap === undefined ? before.weekly_spend_cap : (input.weekly_spend_cap as string | null);
      await trx
        .updateTable('organization_billing_settings')
        .set({
          spend_cap: spendCap,
          daily_spend_cap: dailyCap,
          weekly_spend_cap: weeklyCap,
          top_up_below: topUp?.below ?? null,
          top_up_amount: topUp?.amount ?? null,
          top_up_monthly_max: topUp?.monthly_max ?? null,
          top_up_terms: topUpTerms === null ? null : JSON.stringify(topUpTerms),
          updated_at: sql`now()`,
        })
        .where('organization_id', '=', org.id)
        .execute();
      const changed = [
        ...(before.spend_cap !== spendCap ? (['month'] as const) : []),
        ...(before.weekly_spend_cap !== weeklyCap ? (['week'] as const) : []),
        ...(before.daily_spend_cap !== dailyCap ? (['day'] as const) : []),
      ];
      if (changed.length > 0) {
        await trx
          .deleteFrom('spend_cap_months')
          .where('scope', '=', 'subtree')
          .where('scope_id', '=', org.id)
          .where('kind', 'in', changed)
          .execute();
      }
      if (topUp) {
        await sql`
          insert into top_up_requests (organization_id, reason, balance)
          select ${org.id}, 'crossed', ${before.credit_balance} where ${before.credit_balance}::numeric < ${topUp.below}::numeric
          on conflict (organization_id) where done_at is null do nothing`.execute(trx);
      }
      const topUpBefore =
        before.top_up_below === null
          ? null
          : { below: before.top_up_below, amount: before.top_up_amount, monthly_max: before.top_up_monthly_max };
      await auditAction(trx, caller, info, {
        organizationId: org.id,
        action: 'billing.spend_controls',
        targetType: 'organization',
        targetId: org.id,
        details: {
          spend_cap_before: before.spend_cap,
          spend_cap_after: spendCap,
          top_up_before: topUpBefore,
          top_up_after: topUp && {
            below: topUp.below,
            amount: topUp.amount,
            monthly_max: topUp.monthly_max,
            ...(topUpTerms ? { terms: topUpTerms } : {}),
          },
          ...(dailyCap !== before.daily_spend_cap
            ? { daily_spend_cap_before: before.daily_spend_cap, daily_spend_cap_after: dailyCap }
            : {}),
          ...(weeklyCap !== before.weekly_spend_cap
            ? { weekly_spend_cap_before: before.weekly_spend_cap, weekly_spend_cap_after: weeklyCap }
            : {}),
        },
      });
    });
    return get(caller, id);
  }

  return { get, set };
}
