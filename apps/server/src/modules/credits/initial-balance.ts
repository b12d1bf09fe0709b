import { randomUUID } from 'node:crypto';
import { mayAllocateCredits } from '@console/domain';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { move, negate } from './queries.ts';

/**
 * An organization created with credits: they move from its parent (an allocation_sent
 * on the parent, an initial_balance on the child, one transaction group), so none are made.
 */
export async function moveInitialBalance(
  trx: Transaction<DB>,
  caller: Caller,
  child: { id: string; name: string },
  amount: string,
  info: ClientInfo,
) {
  if (!mayAllocateCredits(caller)) throw new ForbiddenError();
  const group = randomUUID();
  await move(
    trx,
    [
      {
        organizationId: caller.organization.id,
        amount: negate(amount),
        type: 'allocation_sent',
        metadata: { to_org_id: child.id, to_org_name: child.name, notes: 'Initial balance' },
      },
      {
        organizationId: child.id,
        amount,
        type: 'initial_balance',
        metadata: { from_org_id: caller.organization.id, from_org_name: caller.organization.name, notes: 'Initial balance' },
      },
    ],
    group,
    caller.userId,
    { requireActive: true },
  );
  await auditAction(trx, caller, info, {
    organizationId: caller.organization.id,
    action: 'credits.initial_balance',
    targetType: 'organization',
    targetId: child.id,
    details: { amount, transaction_group: group },
  });
}
