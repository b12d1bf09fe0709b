import type { ActivityAction, AuditDetails } from '@console/domain';
import type { Executor } from '../db/schema.ts';

/** `details` may be left out only when the action's schema has no required key. */
type DetailsOf<A extends ActivityAction> =
  Record<never, never> extends AuditDetails<A> ? { details?: AuditDetails<A> } : { details: AuditDetails<A> };

/** One audit row; its `details` are checked against `AUDIT_DETAILS[A]` (packages/domain). */
export type AuditEntry<A extends ActivityAction> = {
  actorUserId: string | null;
  organizationId: string | null;
  /** One of the actions the activity log knows how to say. */
  action: A;
  targetType: string;
  targetId: string | null;
  ip?: string | null;
  requestId?: string | null;
} & DetailsOf<A>;

/** Writes one audit row, inside the caller's transaction when it passes one. */
export async function writeAudit<A extends ActivityAction>(executor: Executor, entry: AuditEntry<A>): Promise<void> {
  await executor
    .insertInto('audit_log')
    .values({
      actor_user_id: entry.actorUserId,
      organization_id: entry.organizationId,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      details: JSON.stringify(entry.details ?? {}),
      ip: entry.ip ?? null,
      request_id: entry.requestId ?? null,
    })
    .execute();
}

/** The audit row of what a signed-in caller did, with the address and id of the request that did it. */
export function auditAction<A extends ActivityAction>(
  executor: Executor,
  caller: { userId: string },
  info: { ip: string; requestId: string },
  entry: Omit<AuditEntry<A>, 'actorUserId' | 'ip' | 'requestId'>,
): Promise<void> {
  return writeAudit<A>(executor, { ...entry, actorUserId: caller.userId, ip: info.ip, requestId: info.requestId } as AuditEntry<A>);
}
