import { sql } from 'kysely';
import { IDENTITY, isReturnPath, type SsoStepUpError } from '@console/domain';
import type { Executor } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { exchangeCode, reasonOf } from './oidc.ts';
import type { PendingSignIn } from './pending.ts';
import type { IdentityDeps } from './queries.ts';

/** A step-up's pending sign-in: taken now (`pending`), or found already used or expired. */
export interface StepUpAnswer {
  organization_id: string;
  step_up_session_id: string;
  return_to: string;
  /** Null when the sign-in can no longer answer: it was used (a replay) or it expired. */
  pending: PendingSignIn | null;
}

class StepUpRefusal extends Error {
  readonly reason: SsoStepUpError;
  constructor(reason: SsoStepUpError, why: string) {
    super(why);
    this.reason = reason;
  }
}

/**
 * `returnTo` with `key=value` in its query (an earlier outcome's parameters replaced). The path
 * is kept as given, never normalized: `/.//host` stays a path of this console.
 */
export function backTo(returnTo: string, key: 'step_up' | 'step_up_error', value: string): string {
  const safe = isReturnPath(returnTo) ? returnTo : '/';
  const hashAt = safe.indexOf('#');
  const hash = hashAt < 0 ? '' : safe.slice(hashAt);
  const rest = hashAt < 0 ? safe : safe.slice(0, hashAt);
  const queryAt = rest.indexOf('?');
  const params = new URLSearchParams(queryAt < 0 ? '' : rest.slice(queryAt + 1));
  params.delete('step_up');
  params.delete('step_up_error');
  params.set(key, value);
  return `${queryAt < 0 ? rest : rest.slice(0, queryAt)}?${params}${hash}`;
}

/** Whether openid-client refused the ID token for its `auth_time` (missing, or too long ago). */
function isStale(error: unknown): boolean {
  for (let at: unknown = error, depth = 0; at && typeof at === 'object' && depth < 5; depth++) {
    const { message, claim, cause } = at as { message?: unknown; claim?: unknown; cause?: unknown };
    if (claim === 'auth_time' || (typeof message === 'string' && message.includes('"auth_time"'))) return true;
    at = cause;
  }
  return false;
}

/**
 * The provider's answer to a step-up. The person must have logged in there just now (the ID
 * token's `auth_time` within IDENTITY.stepUpMaxAgeSeconds, which openid-client checks with
 * the signature, issuer, audience, expiry, nonce and PKCE), as the very person of the session
 * (the subject linked to its user); then exactly that session, still live, proves a step-up
 * now. Either way the browser goes back to the page it came from, saying how it went; a
 * refusal renews nothing and is audited.
 */
export function createStepUpCallback({ db, sealer, oidc }: Pick<IdentityDeps, 'db' | 'sealer' | 'oidc'>) {
  async function finish(currentUrl: URL, state: string, answer: StepUpAnswer, info: ClientInfo): Promise<string> {
    const session = await db
      .selectFrom('refresh_sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .innerJoin('organizations as o', 'o.id', 'u.organization_id')
      .select([
        's.user_id',
        'u.organization_id',
        sql<boolean>`s.revoked_at is null and s.expires_at > now() and s.method = 'sso'
          and u.status = 'active' and u.deleted_at is null and o.deleted_at is null`.as('live'),
      ])
      .where('s.id', '=', answer.step_up_session_id)
      .executeTakeFirst();
    const audit = (executor: Executor, action: 'auth.step_up' | 'auth.step_up_failed', details: Record<string, unknown> = {}) =>
      writeAudit(executor, {
        actorUserId: session?.user_id ?? null,
        organizationId: session?.organization_id ?? answer.organization_id,
        action,
        targetType: 'user',
        targetId: session?.user_id ?? null,
        details: { method: 'sso', ...details },
        ip: info.ip,
        requestId: info.requestId,
      });
    try {
      if (!answer.pending) throw new StepUpRefusal('expired', 'no pending step-up for this state (used or expired)');
      if (!session?.live || session.organization_id !== answer.organization_id)
        throw new StepUpRefusal('session_ended', 'the session to renew has ended');
      const subject = await freshSubject(currentUrl, state, answer.pending);
      const linked = await db
        .selectFrom('sso_identities')
        .select('user_id')
        .where('organization_id', '=', answer.organization_id)
        .where('subject', '=', subject)
        .executeTakeFirst();
      if (linked?.user_id !== session.user_id)
        throw new StepUpRefusal('wrong_person', `the provider signed in ${subject.slice(0, 100)}, not the person of this session`);
      const renewed = await db.transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('refresh_sessions')
          .set({ stepped_up_at: sql`now()` })
          .where('id', '=', answer.step_up_session_id)
          .where('user_id', '=', session.user_id)
          .where('method', '=', 'sso')
          .where('revoked_at', 'is', null)
          .where('expires_at', '>', sql<string>`now()`)
          .returning('id')
          .executeTakeFirst();
        if (!row) return false;
        await audit(trx, 'auth.step_up');
        return true;
      });
      // Signed out while the person was at the provider.
      if (!renewed) throw new StepUpRefusal('session_ended', 'the session ended during the step-up');
      return backTo(answer.return_to, 'step_up', 'ok');
    } catch (error) {
      const refusal = error instanceof StepUpRefusal ? error : new StepUpRefusal(isStale(error) ? 'not_fresh' : 'refused', reasonOf(error));
      await audit(db, 'auth.step_up_failed', { reason: refusal.reason, why: refusal.message.slice(0, 300) });
      return backTo(answer.return_to, 'step_up_error', refusal.reason);
    }
  }

  /** The subject the provider's answer proves, once openid-client has validated it and found the login fresh. */
  async function freshSubject(currentUrl: URL, state: string, pending: PendingSignIn): Promise<string> {
    const registration = await db
      .selectFrom('identity_providers')
      .select(['organization_id', 'issuer', 'client_id', 'client_secret_sealed', 'updated_at'])
      .where('organization_id', '=', pending.organization_id)
      .executeTakeFirst();
    if (!registration) throw new StepUpRefusal('refused', 'the organization has no identity provider any more');
    const verifier = sealer.open(pending.code_verifier_sealed);
    if (!verifier) throw new StepUpRefusal('expired', 'the step-up was started under another server secret');
    const configuration = await oidc.configurationFor(registration);
    const tokens = await exchangeCode(configuration, currentUrl, {
      verifier,
      state,
      nonce: pending.nonce,
      maxAge: IDENTITY.stepUpMaxAgeSeconds,
    });
    return tokens.claims()!.sub;
  }

  return { finish };
}
