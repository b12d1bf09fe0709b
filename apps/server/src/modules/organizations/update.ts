import { sql } from 'kysely';
import { mayChangeOrganizationStatus, mayEditOrganization, type OrganizationDetail, type UpdateOrganizationInput } from '@console/domain';
import type { Caller } from '../../lib/caller.ts';
import { auditAction } from '../../lib/audit.ts';
import { ForbiddenError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { m, type OrganizationsDeps, type OrgRow } from './queries.ts';

export function createOrganizationUpdate({ db, reads: { visible, detail } }: OrganizationsDeps) {
  /** Edits reach the caller's own organization and its direct children, not grandchildren. */
  async function update(caller: Caller, id: string, input: UpdateOrganizationInput, info: ClientInfo): Promise<OrganizationDetail> {
    return db.transaction().execute(async (trx) => {
      const target = await visible(caller, id, trx);
      if (!mayEditOrganization(caller, target)) throw new ForbiddenError(m.onlyOwnOrDirectChild);
      // Sending the status an organization already has changes nothing, so it needs no right.
      if (input.status !== undefined && input.status !== target.status && !mayChangeOrganizationStatus(caller, target)) {
        throw new ForbiddenError(m.statusOnlyParentAdmins);
      }
      const changes = {
        ...(input.name !== undefined && { name: input.name }),
        ...(input.description !== undefined && { description: input.description || null }),
        ...(input.status !== undefined && { status: input.status }),
        ...(input.disable_parent_invites !== undefined && { disable_parent_invites: input.disable_parent_invites }),
      };
      await trx
        .updateTable('organizations')
        .set({ ...changes, updated_at: sql`now()` })
        .where('id', '=', target.id)
        .execute();
      await auditAction(trx, caller, info, {
        organizationId: target.id,
        action: 'organization.update',
        targetType: 'organization',
        targetId: target.id,
        details: { before: Object.fromEntries(Object.keys(changes).map((k) => [k, target[k as keyof OrgRow]])), after: changes },
      });
      return detail(caller, await visible(caller, target.id, trx), trx);
    });
  }

  return { update };
}
