import type { ActivityAction } from '@console/domain';
import type { Executor } from '../db/schema.ts';

export interface AuditEntry {
  actorUserId: string | null;
  organizationId: string | null;
  /** One of the actions the activity log knows how to say. */
  action: ActivityAction;
  targetType: string;
  targetId: string | null;
  details?: Record<string, unknown>;
  ip?: string | null;
  requestId?: string | null;
}

/** Writes one audit row, inside the caller's transaction when it passes one. */
export async function writeAudit(executor: Executor, entry: AuditEntry): Promise<void> {
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
export function auditAction(
  executor: Executor,
  caller: { userId: string },
  info: { ip: string; requestId: string },
  entry: Omit<AuditEntry, 'actorUserId' | 'ip' | 'requestId'>,
): Promise<void> {
  return writeAudit(executor, { ...entry, actorUserId: caller.userId, ip: info.ip, requestId: info.requestId });
}
