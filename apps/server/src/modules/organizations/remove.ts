import { sql } from 'kysely';
import { mayDeleteOrganization } from '@console/domain';
import type { Caller } from '../../lib/caller.ts';
import { auditAction } from '../../lib/audit.ts';
import { ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { m, type OrganizationsDeps } from './queries.ts';

export function createOrganizationRemove({ db, reads: { visible } }: OrganizationsDeps) {
  /**
   * A soft delete, by admins of the parent only, of an organization that has no live
   * children, no active users and no credits left. Its balance row is locked first, then
   * its own row, the order every movement takes (balance rows, then the organizations'
   * rows through the ledger's foreign key), so a deletion and a movement never wait on
   * each other in a cycle; everything is read again once both are held.
   */
  async function remove(caller: Caller, id: string, info: ClientInfo): Promise<void> {
    await db.transaction().execute(async (trx) => {
      const target = await visible(caller, id, trx);
      if (!mayDeleteOrganization(caller, target)) throw new ForbiddenError(m.deleteOnlyParentAdmins);
      const balance = await trx
        .selectFrom('organization_billing_settings')
        .select('credit_balance')
        .where('organization_id', '=', target.id)
        .forUpdate()
        .executeTakeFirstOrThrow();
      // A child created meanwhile waits on this lock (its foreign key), then sees the parent gone.
      const live = await trx
        .selectFrom('organizations')
        .select('id')
        .where('id', '=', target.id)
        .where('deleted_at', 'is', null)
        .forUpdate()
        .executeTakeFirst();
      if (!live) throw new NotFoundError(m.notFound);
      const blockers = await trx
        .selectNoFrom([
          sql<boolean>`exists (select 1 from organizations where parent_org_id = ${target.id} and deleted_at is null)`.as('children'),
          sql<boolean>`exists (select 1 from users where organization_id = ${target.id} and status = 'active' and deleted_at is null)`.as(
            'users',
          ),
        ])
        .executeTakeFirstOrThrow();
      if (blockers.children) throw new RuleError(m.deleteHasChildren);
      if (blockers.users) throw new RuleError(m.deleteHasActiveUsers);
      if (balance.credit_balance !== '0.00') throw new RuleError(m.deleteHasBalance);
      await trx.updateTable('organizations').set({ deleted_at: sql`now()`, updated_at: sql`now()` }).where('id', '=', target.id).execute();
      // Its pending invitations go with it, so no link leads into a deleted organization
      // (taken after the organization's lock, the order acceptance locks them in).
      const revoked = await trx
        .updateTable('invitations')
        .set({ status: 'revoked', revoked_at: sql`now()` })
        .where('organization_id', '=', target.id)
        .where('status', '=', 'pending')
        .returning('id')
        .execute();
      // Its live activations end and its API keys are revoked, so nothing of it keeps
      // counting against a limit or answering a runtime should it ever be restored
      // (activations wait on the balance row held above).
      const deactivated = await trx
        .updateTable('agent_activations')
        .set({ deactivated_at: sql`now()`, deactivated_by: caller.userId, status: 'inactive' })
        .where('organization_id', '=', target.id)
        .where('deactivated_at', 'is', null)
        .returning('id')
        .execute();
      const keys = await trx
        .updateTable('api_keys')
        .set({ revoked_at: sql`now()`, revoked_by: caller.userId })
        .where('organization_id', '=', target.id)
        .where('revoked_at', 'is', null)
        .returning('id')
        .execute();
      await auditAction(trx, caller, info, {
        organizationId: target.id,
        action: 'organization.delete',
        targetType: 'organization',
        targetId: target.id,
        details: {
          name: target.name,
          revoked_invitations: revoked.length,
          deactivated_agents: deactivated.length,
          revoked_api_keys: keys.length,
        },
      });
    });
  }

  return { remove };
}
