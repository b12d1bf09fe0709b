import { sql } from 'kysely';
import { TOP_UP_HISTORY_LIMIT, mayReverseAllocation, type TopUpRecord } from '@console/domain';
import type { Executor } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { CURRENT_MONTH } from '../../lib/spend-caps.ts';

interface Row extends Omit<TopUpRecord, 'can_reverse'> {
  /** The made top-up's allocation_sent entry, as the reversal rule reads it. */
  sender_id: string | null;
  sent_at: string | null;
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * This month's ended top-up requests of an organization, latest first: what each was for,
 * what became of it and, for one made, its allocation and whether the caller may reverse it
 * now (mayReverseAllocation on the allocation's sent entry, as the ledger offers it).
 */
export async function topUpHistory(executor: Executor, caller: Caller, organizationId: string): Promise<TopUpRecord[]> {
  const { rows } = await sql<Row>`
    select to_char(q.created_at at time zone 'UTC', ${sql.raw(ISO)}) as at, q.reason,
           q.balance::text as balance, q.refused::text as refused, q.outcome,
           r.amount::text as amount, q.transaction_group as transaction_id,
           (select x.transaction_group from credit_ledger_entries x
            where x.entry_type = 'reversal_sent' and x.metadata->>'reverses_transaction_id' = q.transaction_group::text) as reversed_by,
           s.organization_id as sender_id, to_char(s.created_at at time zone 'UTC', ${sql.raw(ISO)}) as sent_at
    from top_up_requests q
    left join credit_ledger_entries r on r.transaction_group = q.transaction_group and r.entry_type = 'allocation_received'
    left join credit_ledger_entries s on s.transaction_group = q.transaction_group and s.entry_type = 'allocation_sent'
    where q.organization_id = ${organizationId} and q.done_at is not null
      and q.created_at >= ${CURRENT_MONTH}::timestamp at time zone 'UTC'
    order by q.created_at desc, q.id desc
    limit ${TOP_UP_HISTORY_LIMIT}`.execute(executor);
  const now = new Date();
  return rows.map(({ sender_id, sent_at, ...record }) => ({
    ...record,
    can_reverse:
      sender_id !== null &&
      sent_at !== null &&
      mayReverseAllocation(
        caller,
        { organization_id: sender_id, entry_type: 'allocation_sent', created_at: sent_at, reversed_by: record.reversed_by, metadata: {} },
        now,
      ),
  }));
}
