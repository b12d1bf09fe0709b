import { sql } from 'kysely';
import { revokeSessions, voidResetLinks } from '../../lib/access.ts';
import { lockOrganizationScim } from '../../lib/scim-lock.ts';
import { requireScimWritable } from './auth.ts';
import type { ScimActor, ScimDeps } from './context.ts';
import { requireMatch } from './etag.ts';
import { orgIdentity, scimAudit } from './org-facts.ts';
import { lockedUser } from './user-update.ts';
import { requireMayLeave } from './user-write.ts';

/**
 * DELETE /Users/:id: the person is deleted (kept for the audit trail, gone for SCIM and for
 * sign-in), every session ends at once and they leave their groups. Never the break-glass
 * admin, never the last active admin.
 */
export function createUserDelete({ db, baseUrl }: ScimDeps) {
  async function remove(actor: ScimActor, id: string, ifMatch: string | string[] | undefined): Promise<string> {
    requireScimWritable(actor);
    const org = actor.token.organization;
    return db.transaction().execute(async (trx) => {
      await lockOrganizationScim(trx, org.id);
      const { row, resource } = await lockedUser(trx, org.id, id, baseUrl);
      requireMatch(ifMatch, resource.meta.version);
      await requireMayLeave(trx, await orgIdentity(trx, org), row, org.id);
      const left = await trx.deleteFrom('scim_group_members').where('user_id', '=', row.id).returning('group_id').execute();
      if (left.length > 0) {
        await trx
          .updateTable('scim_groups')
          .set({ version: sql`version + 1`, updated_at: sql`now()` })
          .where(
            'id',
            'in',
            left.map((g) => g.group_id),
          )
          .where('organization_id', '=', org.id)
          .execute();
      }
      await trx.updateTable('users').set({ deleted_at: sql`now()`, updated_at: sql`now()` }).where('id', '=', row.id).execute();
      const ended = await revokeSessions(trx, row.id, 'deleted by provisioning');
      await voidResetLinks(trx, row.id);
      await scimAudit(trx, actor, {
        action: 'scim.user_deleted',
        targetType: 'user',
        targetId: row.id,
        details: { email: row.email, sessions_ended: ended, groups_left: left.length },
      });
      return row.email;
    });
  }
  return { remove };
}
