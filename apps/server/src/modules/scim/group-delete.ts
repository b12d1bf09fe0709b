import { lockOrganizationScim } from '../../lib/scim-lock.ts';
import { requireScimWritable } from './auth.ts';
import type { ScimActor, ScimDeps } from './context.ts';
import { requireMatch } from './etag.ts';
import { groupVersion } from './group-resource.ts';
import { applyGroupRoles, inRoleGroups } from './group-roles.ts';
import { lockedGroup } from './group-write.ts';
import { orgIdentity, scimAudit } from './org-facts.ts';

/** DELETE /Groups/:id: its members leave it, and those it gave a role get theirs again from their other groups. */
export function createGroupDelete({ db }: ScimDeps) {
  async function remove(actor: ScimActor, id: string, ifMatch: string | string[] | undefined): Promise<string> {
    requireScimWritable(actor);
    const org = actor.token.organization;
    return db.transaction().execute(async (trx) => {
      await lockOrganizationScim(trx, org.id);
      const { row, members } = await lockedGroup(trx, org.id, id);
      requireMatch(ifMatch, groupVersion(row));
      const affected = row.role === null ? [] : members;
      const wereInRoleGroups = await inRoleGroups(trx, org.id, affected);
      await trx.deleteFrom('scim_groups').where('id', '=', row.id).where('organization_id', '=', org.id).execute();
      const roleChanges = await applyGroupRoles(trx, org, await orgIdentity(trx, org), affected, wereInRoleGroups);
      await scimAudit(trx, actor, {
        action: 'scim.group_changed',
        targetType: 'scim_group',
        targetId: row.id,
        details: { change: 'deleted', group: row.display_name, role: row.role, removed: members.length, role_changes: roleChanges },
      });
      return row.display_name;
    });
  }
  return { remove };
}
