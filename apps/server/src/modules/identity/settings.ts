import { sql } from 'kysely';
import { isJitRoleAllowed, type IdentitySettingsInput, type IdentityView } from '@console/domain';
import type { Executor } from '../../db/schema.ts';
import { ADMIN_ROLES } from '../../lib/admins.ts';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { hasDomainInEffect, manageableOrganization, m, readIdentity, type IdentityDeps } from './queries.ts';

/**
 * Just-in-time members, enforcement and the break-glass admin. Enforcing needs a provider,
 * a domain in effect (or nobody could reach the provider from the sign-in page) and a named
 * break-glass admin (or a broken provider would lock everyone out). Enforcing ends every
 * session of the organization's people that did not begin at the provider, but the
 * break-glass admin's: a password signed in before is no longer enough.
 */
export function createIdentitySettings({ db, config }: IdentityDeps) {
  async function update(caller: Caller, id: string, input: IdentitySettingsInput, info: ClientInfo): Promise<IdentityView> {
    return db.transaction().execute(async (trx) => {
      const org = await manageableOrganization(caller, id, trx);
      // Locked so two admins saving at once apply one after the other.
      const row = await trx
        .selectFrom('identity_providers')
        .select(['jit_role', 'enforce_sso', 'break_glass_user_id'])
        .where('organization_id', '=', org.id)
        .forUpdate()
        .executeTakeFirst();
      if (!row) throw new RuleError(m.noProvider);
      if (input.jit_role !== null && !isJitRoleAllowed(input.jit_role, org.org_type)) throw new RuleError(m.jitRoleNotAllowed);
      if (input.break_glass_user_id !== null) {
        const admin = await trx
          .selectFrom('users')
          .select('id')
          .where('id', '=', input.break_glass_user_id)
          .where('organization_id', '=', org.id)
          .where('role', 'in', ADMIN_ROLES)
          .where('status', '=', 'active')
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (!admin) throw new RuleError(m.breakGlassNotAdmin);
      }
      if (input.enforce_sso) {
        if (input.break_glass_user_id === null) throw new RuleError(m.breakGlassRequired);
        if (!(await hasDomainInEffect(org.id, trx))) throw new RuleError(m.enforceNeedsDomain);
      }
      await trx
        .updateTable('identity_providers')
        .set({
          jit_role: input.jit_role,
          enforce_sso: input.enforce_sso,
          break_glass_user_id: input.break_glass_user_id,
          updated_by: caller.userId,
        })
        .where('organization_id', '=', org.id)
        .execute();
      const sessionsEnded = input.enforce_sso ? await endPasswordSessions(trx, org.id, input.break_glass_user_id!) : 0;
      await auditAction(trx, caller, info, {
        organizationId: org.id,
        action: 'identity.settings_changed',
        targetType: 'organization',
        targetId: org.id,
        details: { before: row, after: input, sessions_ended: sessionsEnded },
      });
      return readIdentity(org, trx, config);
    });
  }

  return { update };
}

/**
 * Ends the live sessions of the organization's people that began with a password or a passkey,
 * but the break-glass admin's. Run whenever enforcement is saved on: a break-glass admin
 * replaced by another loses their exemption too.
 */
async function endPasswordSessions(trx: Executor, organizationId: string, breakGlassUserId: string): Promise<number> {
  const result = await trx
    .updateTable('refresh_sessions')
    .set({ revoked_at: sql`now()`, revoked_reason: 'single sign-on enforced' })
    .where('revoked_at', 'is', null)
    .where('method', '<>', 'sso')
    .where('user_id', '<>', breakGlassUserId)
    .where('user_id', 'in', (eb) => eb.selectFrom('users').select('id').where('organization_id', '=', organizationId))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
