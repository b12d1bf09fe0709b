import { sql, type Kysely, type Transaction } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { ALERT_REPEAT_HOURS, type AuditDetails, type TopUpOutcome, type TopUpReason } from '@console/domain';
import type { DB } from '../../db/schema.ts';
import { startPollLoop } from '../../lib/poll-loop.ts';
import { toppedUpThisMonth } from '../../lib/spend-caps.ts';

export interface TopUpRunnerOptions {
  db: Kysely<DB>;
  logger: FastifyBaseLogger;
  /** How often pending top-ups are looked for (default 1 s: a top-up follows its crossing within seconds). */
  pollMs?: number;
}

/** Requests taken in one look before yielding. */
const BATCH = 50;

interface Request {
  id: string;
  reason: TopUpReason;
  organization_id: string;
  name: string;
  parent_id: string | null;
  /** What the refused events would have charged (a refusal-driven request); null for a crossing. */
  refused: string | null;
}

/** Under both balance locks: the child's top-up, the two balances and whether a top-up is due and can be made. */
interface Facts {
  below: string | null;
  amount: string | null;
  monthly_max: string | null;
  /** The terms each top-up's credits carry ({expires_after_days, agent_type_ids, priority}), or null. */
  terms: { expires_after_days: number | null; agent_type_ids: string[] | null; priority: number } | null;
  balance: string;
  parent_balance: string;
  parent_name: string;
  live: boolean;
  month_so_far: string;
  short: boolean;
  over_month: boolean;
  needed: boolean;
}

/**
 * The background maker of automatic top-ups. A balance that crosses below its top-up line, or
 * usage refused for want of credits where a top-up can help, leaves one pending row in
 * `top_up_requests` (at most one per organization). The runner takes a pending row with
 * `for update skip locked` (several server processes share them, none takes a row another
 * holds), locks the parent's and the child's balances in id order, and re-checks everything
 * under the locks: both organizations and every one above them still active (a suspended
 * subtree moves no credits, and its request ends rather than blocking later ones); the
 * top-up still due, that is the balance below the line or, for a refusal, one top-up of the
 * amount letting the refused events through where the balance does not already (a top-up
 * that cannot cover a refusal is not made above the line, so no child pulls its parent's
 * credits with events it could never pay for); the parent holding the amount; the month's
 * top-ups, less those reversed, leaving room for it. In the same transaction it either
 * allocates the amount from the parent (a ledger allocation marked automatic, audited) or
 * refuses it, and marks the row done with its outcome: each request is made or refused
 * exactly once. A refusal for want of the parent's funds or of the monthly maximum alerts
 * the parent's admins, at most once per child and reason in `ALERT_REPEAT_HOURS`.
 *
 * makeTopUp: one pending top-up request, made or refused in the caller's transaction `trx` (see
 * createTopUpRunner): false when none is pending. The runner calls it in a transaction of its
 * own per request; the demo seed calls it in a transaction whose ledger entries it dates.
 */
export async function makeTopUp(trx: Transaction<DB>, logger?: Pick<FastifyBaseLogger, 'info'>): Promise<boolean> {
  const { rows } = await sql<Request>`
        select q.id, q.reason, q.organization_id, o.name, o.parent_org_id as parent_id, q.refused::text as refused
        from top_up_requests q join organizations o on o.id = q.organization_id
        where q.done_at is null
        order by q.id
        limit 1
        for update of q skip locked`.execute(trx);
  const request = rows[0];
  if (!request) return false;
  const done = (outcome: TopUpOutcome, group: string | null = null) =>
    sql`update top_up_requests set done_at = now(), outcome = ${outcome}, transaction_group = ${group} where id = ${request.id}`.execute(
      trx,
    );
  if (!request.parent_id) {
    await done('no_rule');
    return true;
  }
  await sql`select credit_balances_lock(array[${request.organization_id}, ${request.parent_id}]::uuid[])`.execute(trx);
  const { rows: facts } = await sql<Facts>`
        select b.top_up_below::text as below, b.top_up_amount::text as amount, b.top_up_monthly_max::text as monthly_max,
               b.top_up_terms as terms,
               b.credit_balance::text as balance, pb.credit_balance::text as parent_balance, p.name as parent_name,
               (o.deleted_at is null and p.deleted_at is null and o.status = 'active' and p.status = 'active'
                 and not exists (select 1 from organizations a where a.id = any(organization_ancestors(p.path)) and a.status <> 'active')) as live,
               m.total::text as month_so_far,
               -- What the parent can move: credits for every agent that have not expired (credit_spendable).
               credit_spendable(p.id, null, now()) < b.top_up_amount as short,
               m.total + b.top_up_amount > b.top_up_monthly_max as over_month,
               (b.credit_balance < b.top_up_below
                 or (${request.refused}::numeric is not null and b.credit_balance < ${request.refused}::numeric
                     and b.credit_balance + b.top_up_amount >= ${request.refused}::numeric)) as needed
        from organization_billing_settings b
        join organizations o on o.id = b.organization_id
        join organizations p on p.id = o.parent_org_id
        join organization_billing_settings pb on pb.organization_id = p.id
        cross join lateral (select ${toppedUpThisMonth(sql`b.organization_id`)}::numeric(16, 2) as total) m
        where b.organization_id = ${request.organization_id}`.execute(trx);
  const f = facts[0];
  if (!f || f.below === null) {
    await done('no_rule');
    return true;
  }
  if (!f.live) {
    await done('not_active');
    return true;
  }
  if (!f.needed) {
    await done('not_needed');
    return true;
  }
  if (f.over_month || f.short) {
    const reason = f.over_month ? 'monthly_max' : 'parent_short';
    await alertParent(trx, request, f, reason);
    await done(reason);
    return true;
  }
  const { rows: group } = await sql<{ id: string }>`select gen_random_uuid() as id`.execute(trx);
  const groupId = group[0]!.id;
  const notes = 'Automatic top-up';
  await sql`
        select 1 from ledger_post(${groupId}::uuid, null, true,
          array[${request.parent_id}, ${request.organization_id}]::uuid[], array[${`-${f.amount}`}, ${f.amount}]::numeric[],
          array['allocation_sent', 'allocation_received'],
          array[
            ${JSON.stringify({ notes, automatic: true, to_org_id: request.organization_id, to_org_name: request.name })}::jsonb,
            ${JSON.stringify({ notes, automatic: true, from_org_id: request.parent_id, from_org_name: f.parent_name })}::jsonb
          ], p_terms => array[null, ${grantTerms(f, request.parent_id!)}::jsonb])`.execute(trx);
  // A rule's three parts are set together (the spend controls), so a rule with a line has an amount.
  const made = { amount: f.amount!, transaction_group: groupId, below: f.below, balance_before: f.balance, reason: request.reason };
  await sql`
        insert into audit_log (actor_user_id, organization_id, action, target_type, target_id, details)
        values (null, ${request.parent_id}, 'top_up.made', 'organization', ${request.organization_id},
          ${JSON.stringify(made satisfies AuditDetails<'top_up.made'>)}::jsonb)`.execute(trx);
  await done('topped_up', groupId);
  logger?.info({ organization: request.organization_id, amount: f.amount }, 'automatic top-up made');
  return true;
}

/** The grant a top-up's credits make under its rule's terms: expiring the rule's days from now; null for open credits. */
function grantTerms(f: Facts, parentId: string): string | null {
  if (!f.terms) return null;
  const days = f.terms.expires_after_days;
  return JSON.stringify({
    granted_by: parentId,
    priority: f.terms.priority,
    agent_type_ids: f.terms.agent_type_ids,
    expires_at: days ? new Date(Date.now() + days * 86_400_000).toISOString() : null,
  });
}

/**
 * A top-up refused for want of the parent's funds or of the monthly maximum tells the parent's
 * admins, at most once per child and reason in `ALERT_REPEAT_HOURS`: a child whose usage keeps
 * being refused would otherwise mail them at every batch. The child's balance lock, held
 * here, makes the check and the insert one step for that child.
 */
async function alertParent(trx: Transaction<DB>, request: Request, f: Facts, reason: 'monthly_max' | 'parent_short') {
  await sql`
        insert into balance_alerts (organization_id, kind, balance, threshold, detail)
        select ${request.parent_id}, 'top_up_failed', ${f.parent_balance}, ${f.amount},
          ${JSON.stringify({ child_id: request.organization_id, child_name: request.name, reason, monthly_max: f.monthly_max, month_so_far: f.month_so_far })}::jsonb
        where not exists (
          select 1 from balance_alerts a
          where a.organization_id = ${request.parent_id} and a.kind = 'top_up_failed'
            and a.detail->>'child_id' = ${request.organization_id} and a.detail->>'reason' = ${reason}
            and a.created_at > now() - make_interval(hours => ${ALERT_REPEAT_HOURS}))`.execute(trx);
}

export function createTopUpRunner({ db, logger, pollMs = 1_000 }: TopUpRunnerOptions) {
  function makeOne(): Promise<boolean> {
    return db.transaction().execute((trx) => makeTopUp(trx, logger));
  }

  const loop = startPollLoop({
    pollMs,
    logger,
    // The database is away: the requests stay pending for the next look.
    what: 'top-ups could not be made',
    async pass(closed) {
      for (let made = 0; !closed() && made < BATCH && (await makeOne()); made++) {
        // one request a transaction, until none is pending
      }
    },
  });

  return {
    /** Makes the pending top-ups now (tests, and a caller that just queued one). */
    runNow: loop.runNow,
    close: loop.close,
  };
}
