import { MESSAGES, mayManageIdentity, mayViewIdentity, type OrgType } from '@console/domain';
import type { Executor } from '../db/schema.ts';
import { requireInSubtree } from './authorize.ts';
import type { Caller } from './caller.ts';
import { ForbiddenError } from './errors.ts';

export interface IdentityOrg {
  id: string;
  name: string;
  org_type: OrgType;
  path: string;
}

/**
 * The organization whose sign-in settings (its identity provider, its SCIM tokens) the caller
 * reads, or changes when `writing`: absent or outside the caller's subtree is 404; any other
 * than the caller's own, or a caller who is not its admin (or may not write), 403.
 */
export async function identityOrganizationFor(caller: Caller, id: string, executor: Executor, writing: boolean): Promise<IdentityOrg> {
  const row = await executor
    .selectFrom('organizations')
    .select(['id', 'name', 'org_type', 'path'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  const org = requireInSubtree(caller, row, MESSAGES.organizations.notFound);
  if (!(writing ? mayManageIdentity(caller, org) : mayViewIdentity(caller, org))) throw new ForbiddenError(MESSAGES.identity.onlyOwnAdmins);
  return org;
}
