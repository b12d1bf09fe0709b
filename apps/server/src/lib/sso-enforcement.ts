import { MESSAGES } from '@console/domain';
import type { Executor } from '../db/schema.ts';
import { UnauthorizedError } from './errors.ts';

/**
 * Whether a person may sign in only through their organization's identity provider: it
 * enforces single sign-on and they are not its break-glass admin, who keeps the password
 * (and second factors) so a broken provider cannot lock everyone out.
 */
export async function ssoEnforcedFor(executor: Executor, userId: string): Promise<boolean> {
  const row = await executor
    .selectFrom('users as u')
    .innerJoin('identity_providers as p', 'p.organization_id', 'u.organization_id')
    .select('p.break_glass_user_id')
    .where('u.id', '=', userId)
    .where('p.enforce_sso', '=', true)
    .executeTakeFirst();
  return row !== undefined && row.break_glass_user_id !== userId;
}

/** The refusal of a password (or passkey) sign-in of a person whose organization signs them in through its provider. */
export class SsoRequiredError extends UnauthorizedError {
  constructor() {
    super(MESSAGES.identity.passwordDisabled, 'sso_required');
  }
}
