import {
  loosensMfaPolicy,
  mayManageMfaPolicy,
  mayRequireMfaForAdmins,
  type MfaPolicyView,
  type UpdateMfaPolicyInput,
} from '@console/domain';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { m, policyOrganization, readPolicy, type MfaPolicyDeps } from './queries.ts';

/**
 * Sets an organization's policy. A requirement turned on starts its grace now (its `_since`);
 * one left on keeps its start, so saving again never gives anyone more time; one turned off is
 * cleared. `loosens` runs before anything changes: turning a requirement off or lengthening
 * the grace is where the route asks for a fresh second factor.
 */
export function createMfaPolicyUpdate({ db }: MfaPolicyDeps) {
  async function update(
    caller: Caller,
    id: string,
    input: UpdateMfaPolicyInput,
    info: ClientInfo,
    loosens: (caller: Caller) => Promise<void> = async () => {},
  ): Promise<MfaPolicyView> {
    return db.transaction().execute(async (trx) => {
      const org = await policyOrganization(caller, id, trx);
      if (!mayManageMfaPolicy(caller, org)) throw new ForbiddenError(m.onlyOwnAdmins);
      if (input.require_admins && !mayRequireMfaForAdmins(org)) throw new RuleError(m.adminsOnlyHouse);
      // The row is locked so two admins saving at once apply one after the other.
      const row = await trx.selectFrom('mfa_policies').selectAll().where('organization_id', '=', org.id).forUpdate().executeTakeFirst();
      const before = {
        require_own: !!row?.own_since,
        require_subtree: !!row?.subtree_since,
        require_admins: !!row?.admins_since,
        grace_days: row?.grace_days ?? 7,
      };
      const after = {
        require_own: input.require_own,
        require_subtree: input.require_subtree,
        require_admins: input.require_admins,
        grace_days: input.grace_days,
      };
      if (loosensMfaPolicy(before, after)) await loosens(caller);
      const now = new Date().toISOString();
      const since = (on: boolean, was: string | null | undefined): string | null => (on ? (was ?? now) : null);
      const values = {
        own_since: since(after.require_own, row?.own_since),
        subtree_since: since(after.require_subtree, row?.subtree_since),
        admins_since: since(after.require_admins, row?.admins_since),
        grace_days: after.grace_days,
        updated_by: caller.userId,
        updated_at: now,
      };
      await trx
        .insertInto('mfa_policies')
        .values({ organization_id: org.id, ...values })
        .onConflict((oc) => oc.column('organization_id').doUpdateSet(values))
        .execute();
      await auditAction(trx, caller, info, {
        organizationId: org.id,
        action: 'mfa_policy.changed',
        targetType: 'organization',
        targetId: org.id,
        details: { before, after },
      });
      return readPolicy(org, trx);
    });
  }
  return { update };
}
