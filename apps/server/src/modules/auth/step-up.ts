import { MESSAGES, type StepUpBody, type StepUpMethod, type StepUpResult, type StepUpStatus } from '@console/domain';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { BadRequestError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { verifyPassword } from '../../lib/secrets.ts';
import { markSteppedUp } from '../../lib/step-up.ts';
import type { AuthDeps } from './queries.ts';

/**
 * Step-up: the signed-in person proves it is them again, so their session may move money and
 * secrets for the next `freshSeconds`. A person with a second factor answers with it (a code
 * from the app, or a passkey's answer to the options of `POST /account/passkeys/check-options`)
 * or a recovery code, never their password (it alone would bypass the factor); a person without
 * one gives their password. Wrong answers are audited and counted against the person's
 * allowance, shared with the sign-in's second step.
 *
 * A session begun at the organization's identity provider is offered the provider first (a
 * fresh login there, `POST /auth/sso/step-up`), and its factors if it has any, never a password:
 * the provider is the authority on who signs in, and the person may have no password here at all.
 */
export function createStepUp({
  db,
  users,
  factors,
  passkeys,
  freshSeconds,
}: Pick<AuthDeps, 'db' | 'users' | 'factors' | 'passkeys'> & { freshSeconds: number }) {
  /** Whether the caller's session began at their organization's provider, which is still registered. */
  async function throughProvider(caller: Caller): Promise<boolean> {
    if (caller.sessionMethod !== 'sso') return false;
    const provider = await db
      .selectFrom('identity_providers')
      .select('organization_id')
      .where('organization_id', '=', caller.organization.id)
      .executeTakeFirst();
    return provider !== undefined;
  }

  async function methodsOf(caller: Caller): Promise<StepUpMethod[]> {
    const [app, passkey, sso] = await Promise.all([
      factors.hasConfirmedTotp(db, caller.userId),
      passkeys.hasPasskey(db, caller.userId),
      throughProvider(caller),
    ]);
    const provider = sso ? (['sso'] as const) : [];
    if (!app && !passkey) return sso ? ['sso'] : ['password'];
    return [...provider, ...(app ? (['totp'] as const) : []), ...(passkey ? (['passkey'] as const) : []), 'recovery_code'];
  }

  async function status(caller: Caller): Promise<StepUpStatus> {
    const fresh = caller.stepUpFreshUntil > Date.now();
    return { methods: await methodsOf(caller), fresh_until: fresh ? Math.floor(caller.stepUpFreshUntil / 1000) : null };
  }

  async function stepUp(caller: Caller, body: StepUpBody, client: ClientInfo): Promise<StepUpResult> {
    const methods = await methodsOf(caller);
    if (!methods.includes(body.method)) {
      const message = methods.includes('password')
        ? MESSAGES.auth.stepUpUsePassword
        : methods.length === 1 && methods[0] === 'sso'
          ? MESSAGES.identity.stepUpUseProvider
          : MESSAGES.auth.stepUpUseFactor;
      throw new BadRequestError(message, { method: message });
    }
    const failed = (trx: Parameters<typeof auditAction>[0]) =>
      auditAction(trx, caller, client, {
        organizationId: caller.organization.id,
        action: 'auth.step_up_failed',
        targetType: 'user',
        targetId: caller.userId,
        details: { method: body.method },
      });
    const outcome = await db.transaction().execute(async (trx) => {
      if (body.method === 'password') {
        if (!(await verifyPassword(await users.passwordHashOf(caller.userId, trx), body.password))) {
          await failed(trx);
          return null;
        }
      } else if (body.method === 'passkey') {
        await factors.admit(trx, caller.userId);
        if (!(await passkeys.verifyAssertion(trx, 'reauth', { userId: caller.userId }, body.response))) {
          await factors.countWrong(trx, caller.userId);
          await failed(trx);
          return null;
        }
      } else {
        // The person's allowance of wrong codes, shared with the sign-in's second step; a TOTP step is never accepted twice.
        await factors.admit(trx, caller.userId);
        if (!(await factors.checkCode(trx, caller.userId, body.code, body.method))) {
          await factors.countWrong(trx, caller.userId);
          await failed(trx);
          return null;
        }
      }
      const provenAt = await markSteppedUp(trx, caller.sessionId);
      await auditAction(trx, caller, client, {
        organizationId: caller.organization.id,
        action: 'auth.step_up',
        targetType: 'user',
        targetId: caller.userId,
        details: { method: body.method },
      });
      return { fresh_until: Math.floor(provenAt / 1000) + freshSeconds };
    });
    if (outcome) return outcome;
    if (body.method === 'password') {
      throw new BadRequestError(MESSAGES.auth.stepUpPasswordWrong, { password: MESSAGES.auth.stepUpPasswordWrong });
    }
    if (body.method === 'passkey') throw new RuleError(MESSAGES.auth.passkeyRefused, 'passkey_refused');
    throw new BadRequestError(MESSAGES.auth.codeWrong, { code: MESSAGES.auth.codeWrong });
  }

  return { status, stepUp };
}
