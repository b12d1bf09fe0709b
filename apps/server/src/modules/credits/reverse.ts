import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { ALLOCATION_REVERSAL, MESSAGES, mayAllocateFrom, type AllocationReversalResult } from '@console/domain';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { ConflictError, ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { c, move, negate, type CreditsDeps, type Movement } from './queries.ts';

/** Under the balance locks: what the reversal must find settled before anything is written. */
interface Settled {
  reversed: boolean;
  in_window: boolean;
  sender_status: string | null;
  child_deleted: boolean | null;
  child_balance: string | null;
  covered: boolean | null;
  /** The child's automatic top-up request already pending before the reversal, if any. */
  pending_top_up: string | null;
  /** The grant the allocation made (it carried terms), and whether it still holds the whole amount. */
  grant_id: string | null;
  grant_covers: boolean | null;
}

const UNIQUE_VIOLATION = '23505';

export function createReverseAllocation({ db, organizations }: Pick<CreditsDeps, 'db' | 'organizations'>) {
  /**
   * Gives an allocation, or an automatic top-up, back to the organization that made it: the child's `reversal_sent`
   * and the parent's `reversal_received`, both naming the allocation, in one transaction with
   * the audit row. Who may (the sender's admins, on their own active organization) is judged
   * first; under both balance locks (taken in id order, as every movement takes them) the
   * allocation is found not yet reversed, still within its window by the database's clock,
   * the sender still active and the child live and holding the whole amount. A second
   * reversal waits for the first's locks and then finds it (409); the unique index on the
   * reversed allocation backs that whatever happens.
   */
  async function reverseAllocation(
    caller: Caller,
    transactionId: string,
    input: { reason: string },
    info: ClientInfo,
  ): Promise<AllocationReversalResult> {
    // The allocation's two entries: ledger rows never change, so no lock is needed to read them.
    const entries = await db
      .selectFrom('credit_ledger_entries')
      .select(['id', 'organization_id', 'entry_type', 'amount', 'metadata'])
      .where('transaction_group', '=', transactionId)
      .where('entry_type', 'in', ['allocation_sent', 'allocation_received'])
      .execute();
    const sent = entries.find((entry) => entry.entry_type === 'allocation_sent');
    const received = entries.find((entry) => entry.entry_type === 'allocation_received');
    if (!sent || !received) throw new NotFoundError(c.allocationNotFound);
    // Outside the caller's subtree it does not exist for the caller.
    const sender = await organizations.visible(caller, sent.organization_id).catch((error: unknown) => {
      throw error instanceof NotFoundError ? new NotFoundError(c.allocationNotFound) : error;
    });
    if (!mayAllocateFrom(caller, sender)) throw new ForbiddenError(c.onlySenderAdmins);

    const amount = received.amount;
    const child = received.organization_id;
    const group = randomUUID();
    const childName = (await db.selectFrom('organizations').select('name').where('id', '=', child).executeTakeFirst())?.name ?? '';
    const link = { reason: input.reason, reverses_transaction_id: transactionId };
    try {
      return await db.transaction().execute(async (trx) => {
        let pendingTopUp: string | null = null;
        const taking: Movement = {
          organizationId: child,
          amount: negate(amount),
          type: 'reversal_sent',
          metadata: { ...link, to_org_id: sender.id, to_org_name: sender.name },
        };
        const [taken, returned] = await move(
          trx,
          [
            taking,
            {
              organizationId: sender.id,
              amount,
              type: 'reversal_received',
              metadata: { ...link, from_org_id: child, from_org_name: childName },
            },
          ],
          group,
          caller.userId,
          {
            afterLock: async () => {
              const { rows } = await sql<Settled>`
                select
                  exists (select 1 from credit_ledger_entries r
                          where r.entry_type = 'reversal_sent' and r.metadata->>'reverses_transaction_id' = ${transactionId}) as reversed,
                  (select e.created_at from credit_ledger_entries e where e.id = ${sent.id})
                    > now() - make_interval(hours => ${ALLOCATION_REVERSAL.windowHours}) as in_window,
                  (select o.status from organizations o where o.id = ${sender.id} and o.deleted_at is null) as sender_status,
                  (select o.deleted_at is not null from organizations o where o.id = ${child}) as child_deleted,
                  (select b.credit_balance::text from organization_billing_settings b where b.organization_id = ${child}) as child_balance,
                  -- Compared as exact decimals, as every amount is.
                  (select b.credit_balance >= ${amount}::numeric from organization_billing_settings b
                   where b.organization_id = ${child}) as covered,
                  (select q.id::text from top_up_requests q where q.organization_id = ${child} and q.done_at is null) as pending_top_up,
                  -- Credits given with terms are a grant: the reversal takes them back from it, whole.
                  (select g.id::text from credit_grants g join credit_ledger_entries r on r.id = g.entry_id
                   where r.transaction_group = ${transactionId} and r.entry_type = 'allocation_received') as grant_id,
                  (select g.remaining >= ${amount}::numeric and g.expired_at is null from credit_grants g
                   join credit_ledger_entries r on r.id = g.entry_id
                   where r.transaction_group = ${transactionId} and r.entry_type = 'allocation_received') as grant_covers
              `.execute(trx);
              const settled = rows[0]!;
              pendingTopUp = settled.pending_top_up;
              if (settled.reversed) throw new ConflictError(c.alreadyReversed);
              if (!settled.in_window) {
                throw new RuleError(c.reversalWindowPassed(ALLOCATION_REVERSAL.windowHours), 'reversal_window_passed');
              }
              if (settled.sender_status !== 'active') throw new RuleError(c.notActive, 'organization_not_active');
              if (settled.child_deleted !== false) throw new NotFoundError(MESSAGES.organizations.notFound);
              if (!settled.covered || settled.grant_covers === false) {
                throw new RuleError(c.reversalNotCovered(childName, settled.child_balance ?? '0'), 'insufficient_credits');
              }
              if (settled.grant_id) taking.draws = { [settled.grant_id]: amount };
            },
          },
        );
        // Taking credits back is the parent's decision: a crossing below the child's top-up line
        // that the reversal itself caused queues no top-up (it would hand the amount straight
        // back). A request pending from before stays.
        await sql`delete from top_up_requests where organization_id = ${child} and done_at is null
                  and id is distinct from ${pendingTopUp}::bigint`.execute(trx);
        await auditAction(trx, caller, info, {
          organizationId: sender.id,
          action: 'credits.reverse_allocation',
          targetType: 'organization',
          targetId: child,
          details: { amount, reason: input.reason, transaction_group: group, reverses_transaction_id: transactionId, name: childName },
        });
        return {
          transaction_id: group,
          reverses_transaction_id: transactionId,
          from_balance: returned!.balance_after,
          to_balance: taken!.balance_after,
        };
      });
    } catch (error) {
      if ((error as { code?: unknown }).code === UNIQUE_VIOLATION) throw new ConflictError(c.alreadyReversed);
      throw error;
    }
  }

  return { reverseAllocation };
}
