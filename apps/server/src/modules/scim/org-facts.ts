import { isJitRoleAllowed, type AuditDetails, type OrgType } from '@console/domain';
import type { Executor } from '../../db/schema.ts';
import { writeAudit, type AuditEntry } from '../../lib/audit.ts';
import type { ScimActor } from './context.ts';

/** What provisioning reads of the token's organization: the break-glass admin and the role a person holds outside every role group. */
export interface OrgIdentity {
  breakGlassId: string | null;
  /** The just-in-time role when one is set (never an admin role), otherwise `<type>_user`. */
  defaultRole: string;
}

export async function orgIdentity(executor: Executor, org: { id: string; org_type: OrgType }): Promise<OrgIdentity> {
  const provider = await executor
    .selectFrom('identity_providers')
    .select(['jit_role', 'break_glass_user_id'])
    .where('organization_id', '=', org.id)
    .executeTakeFirst();
  const jit = provider?.jit_role;
  return {
    breakGlassId: provider?.break_glass_user_id ?? null,
    defaultRole: jit && isJitRoleAllowed(jit, org.org_type) ? jit : `${org.org_type}_user`,
  };
}

/** The actions of provisioning changes; their details name the token, which `scimAudit` adds. */
type ScimAction = 'scim.user_created' | 'scim.user_updated' | 'scim.user_deactivated' | 'scim.user_deleted' | 'scim.group_changed';
type ScimDetails<A extends ScimAction> = A extends ScimAction ? Omit<AuditDetails<A>, 'scim_token'> : never;

/**
 * The audit row of a provisioning change: no person acted, the token did, so the row names it
 * in `scim_token` (never its secret) and the activity log says "SCIM token <name>".
 */
export function scimAudit<A extends ScimAction>(
  executor: Executor,
  actor: ScimActor,
  entry: { action: A; targetType: string; targetId: string | null; details: ScimDetails<A> },
): Promise<void> {
  const { token } = actor;
  // The details given and the token make the action's whole details, which TypeScript cannot see through the generic.
  return writeAudit<A>(executor, {
    actorUserId: null,
    organizationId: token.organization.id,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    details: { ...entry.details, scim_token: { id: token.id, name: token.name, prefix: token.prefix } },
    ip: actor.ip,
    requestId: actor.requestId,
  } as unknown as AuditEntry<A>);
}

/** `id` is a UUID: anything else names no resource (and would make PostgreSQL refuse the comparison). */
export const isUuid = (id: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
