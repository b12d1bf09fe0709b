import type { Transaction } from 'kysely';
import { childTypeOf, mayCreateChildOrganization, type CreateOrganizationInput, type OrganizationDetail } from '@console/domain';
import type { DB } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { auditAction } from '../../lib/audit.ts';
import { ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { m, type OrganizationsDeps } from './queries.ts';

export function createOrganizationCreate({ db, reads: { visible, detail } }: OrganizationsDeps) {
  /** Creates a direct child of the caller's organization, with its billing settings. */
  async function create(
    caller: Caller,
    input: CreateOrganizationInput,
    info: ClientInfo,
    /** Runs in the same transaction once the child exists (the initial balance). */
    onCreated?: (trx: Transaction<DB>, child: { id: string; name: string }) => Promise<void>,
  ): Promise<OrganizationDetail> {
    const parentType = caller.organization.org_type;
    const childType = childTypeOf(parentType);
    if (!childType) throw new ForbiddenError(m.cannotCreateChildren(parentType));
    if (!mayCreateChildOrganization(caller)) throw new ForbiddenError();
    if (input.org_type !== childType) throw new RuleError(m.wrongChildType(parentType, childType));
    return db.transaction().execute(async (trx) => {
      const created = await trx
        .insertInto('organizations')
        .values({
          name: input.name,
          description: input.description || null,
          org_type: childType,
          parent_org_id: caller.organization.id,
          parent_org_type: parentType,
          disable_parent_invites: input.disable_parent_invites ?? false,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // The insert's foreign key waited for a deletion of the parent under way: read the
      // parent only now, so a child is never created under an organization deleted meanwhile.
      const parent = await trx
        .selectFrom('organizations')
        .select('deleted_at')
        .where('id', '=', caller.organization.id)
        .executeTakeFirstOrThrow();
      if (parent.deleted_at) throw new NotFoundError(m.notFound);
      await trx.insertInto('organization_billing_settings').values({ organization_id: created.id }).execute();
      await auditAction(trx, caller, info, {
        organizationId: created.id,
        action: 'organization.create',
        targetType: 'organization',
        targetId: created.id,
        details: { name: input.name, org_type: childType, parent_org_id: caller.organization.id },
      });
      await onCreated?.(trx, { id: created.id, name: input.name });
      return detail(caller, await visible(caller, created.id, trx), trx);
    });
  }

  return { create };
}
