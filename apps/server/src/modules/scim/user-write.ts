import { sql, type Updateable } from 'kysely';
import { MESSAGES, emailSchema, roleLevel } from '@console/domain';
import type { Executor, UsersTable } from '../../db/schema.ts';
import { revokeSessions, voidResetLinks } from '../../lib/access.ts';
import { lockActiveAdminIds } from '../../lib/admins.ts';
import type { ScimActor } from './context.ts';
import { ScimError } from './errors.ts';
import { scimAudit, type OrgIdentity } from './org-facts.ts';
import type { UserRow } from './user-resource.ts';

const m = MESSAGES.identity;

/** What a provider sets of a person. */
export interface UserState {
  email: string;
  givenName: string | null;
  familyName: string | null;
  externalId: string | null;
  active: boolean;
}

export const stateOf = (row: UserRow): UserState => ({
  email: row.email,
  givenName: row.first_name,
  familyName: row.last_name,
  externalId: row.scim_external_id,
  active: row.status === 'active',
});

/** userName is the person's e-mail: anything else is 400 `invalidValue`. */
export function emailOf(value: unknown): string {
  const parsed = emailSchema.safeParse(value);
  if (!parsed.success) throw new ScimError(400, m.scimUserNameNotEmail, 'invalidValue');
  return parsed.data;
}

/**
 * Who holds an e-mail, other than `exceptId`: a live person of the organization is 409
 * `uniqueness`; a person of another organization is 409 too, without naming it. Answers a
 * deleted person of this organization who held it (a provider may provision them again).
 */
export async function requireFreeEmail(trx: Executor, organizationId: string, email: string, exceptId: string | null) {
  let query = trx.selectFrom('users').select(['id', 'organization_id', 'deleted_at']).where(sql`lower(email)`, '=', email.toLowerCase());
  if (exceptId) query = query.where('id', '<>', exceptId);
  const holder = await query.executeTakeFirst();
  if (!holder) return null;
  if (holder.organization_id !== organizationId) throw new ScimError(409, m.scimEmailElsewhere, 'uniqueness');
  if (!holder.deleted_at || exceptId) throw new ScimError(409, m.scimUserExists, 'uniqueness');
  return holder;
}

export const isAdminRole = (role: string) => roleLevel(role) === 'admin';

/**
 * Provisioning never takes away the organization's last active admin (deactivating, deleting
 * or demoting them): the admin rows are locked so two changes cannot each think another remains.
 */
export async function requireAnotherActiveAdmin(trx: Executor, organizationId: string, leaving: readonly string[]) {
  const admins = await lockActiveAdminIds(trx, organizationId);
  if (!admins.some((id) => !leaving.includes(id))) throw new ScimError(400, MESSAGES.users.lastAdmin, 'mutability');
}

/** The checks before a person stops being able to sign in: never the break-glass admin, never the last active admin. */
export async function requireMayLeave(
  trx: Executor,
  facts: OrgIdentity,
  row: Pick<UserRow, 'id' | 'role' | 'status'>,
  organizationId: string,
) {
  if (facts.breakGlassId === row.id) throw new ScimError(400, m.scimBreakGlass, 'mutability');
  if (row.status === 'active' && isAdminRole(row.role)) await requireAnotherActiveAdmin(trx, organizationId, [row.id]);
}

/**
 * Applies a provider's view of a person (PUT or PATCH) to the locked row: what differs is
 * written and audited. Deactivation (`active: false`) ends every session of the person at
 * once and voids their reset links. Answers what happened: null when nothing differed.
 */
export async function changeUser(
  trx: Executor,
  actor: ScimActor,
  facts: OrgIdentity,
  row: UserRow,
  next: UserState,
): Promise<'updated' | 'deactivated' | null> {
  const orgId = actor.token.organization.id;
  const current = stateOf(row);
  const set: Updateable<UsersTable> = {};
  const changes: Record<string, { before: unknown; after: unknown }> = {};
  const note = (name: string, before: unknown, after: unknown) => {
    changes[name] = { before, after };
  };
  if (next.email !== current.email) {
    await requireFreeEmail(trx, orgId, next.email, row.id);
    set.email = next.email;
    note('userName', current.email, next.email);
  }
  if (next.givenName !== current.givenName) {
    set.first_name = next.givenName;
    note('givenName', current.givenName, next.givenName);
  }
  if (next.familyName !== current.familyName) {
    set.last_name = next.familyName;
    note('familyName', current.familyName, next.familyName);
  }
  if (next.externalId !== current.externalId) {
    set.scim_external_id = next.externalId;
    note('externalId', current.externalId, next.externalId);
  }
  const deactivating = current.active && !next.active;
  if (next.active !== current.active) {
    if (deactivating) await requireMayLeave(trx, facts, row, orgId);
    set.status = next.active ? 'active' : 'inactive';
    note('active', current.active, next.active);
  }
  if (Object.keys(changes).length === 0) return null;
  await trx
    .updateTable('users')
    .set({ ...set, updated_at: sql`now()` })
    .where('id', '=', row.id)
    .where('organization_id', '=', orgId)
    .execute();
  let ended = 0;
  if (deactivating) {
    ended = await revokeSessions(trx, row.id, 'deactivated by provisioning');
    await voidResetLinks(trx, row.id);
  }
  await scimAudit(trx, actor, {
    action: deactivating ? 'scim.user_deactivated' : 'scim.user_updated',
    targetType: 'user',
    targetId: row.id,
    details: { email: next.email, changes, ...(deactivating && { sessions_ended: ended }) },
  });
  return deactivating ? 'deactivated' : 'updated';
}
