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
 */
export function createStepUp({
  db,
  users,
  factors,
  passkeys,
  freshSeconds,
}: Pick<AuthDeps, 'db' | 'users' | 'factors' | 'passkeys'> & { freshSeconds: number }) {
  async function methodsOf(userId: string): Promise<StepUpMethod[]> {
    const [app, passkey] = await Promise.all([factors.hasConfirmedTotp(db, userId), passkeys.hasPasskey(db, userId)]);
    if (!app && !passkey) return ['password'];
    return [...(app ? (['totp'] as const) : []), ...(passkey ? (['passkey'] as const) : []), 'recovery_code'];
  }

  async function status(caller: Caller): Promise<StepUpStatus> {
    const fresh = caller.stepUpFreshUntil > Date.now();
    return { methods: await methodsOf(caller.userId), fresh_until: fresh ? Math.floor(caller.stepUpFreshUntil / 1000) : null };
  }

  async function stepUp(caller: Caller, body: StepUpBody, client: ClientInfo): Promise<StepUpResult> {
    const methods = await methodsOf(caller.userId);
    if (!methods.includes(body.method)) {
      const message = methods.includes('password') ? MESSAGES.auth.stepUpUsePassword : MESSAGES.auth.stepUpUseFactor;
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
