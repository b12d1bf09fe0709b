import { sql } from 'kysely';
import * as client from 'openid-client';
import { IDENTITY } from '@console/domain';
import type { Executor } from '../../db/schema.ts';
import type { SecretSealer } from '../../lib/sealer.ts';
import { hashToken } from '../../lib/secrets.ts';
import type { ProviderRegistration } from './oidc.ts';

/** What the console asks every provider for: an ID token, and the e-mail and name. */
export const SCOPE = 'openid email profile';

/** Pending sign-ins expired this long ago are deleted as new ones start (at most a batch at a time). */
const SWEEP_AFTER = "interval '1 day'";
const SWEEP_BATCH = 100;

/** What a pending sign-in is found by: the state, as only the browser that started it can present it. */
const stateHash = (state: string, browser: string) => hashToken(`${state}.${browser}`);

/** A step-up through the provider: the session it renews, and the console's path to come back to. */
export interface PendingStepUp {
  sessionId: string;
  returnTo: string;
}

/**
 * Starts a sign-in at the organization's provider: the authorization URL (code flow, PKCE
 * with S256, state, nonce), and the pending sign-in the callback finds by the hash of the
 * state and the browser's binding (browser-binding.ts). The verifier is sealed; the state
 * itself is kept only in the URL. A test sign-in names the
 * admin who started it and ends without a session. A step-up asks the provider to have the
 * person log in again whatever session it holds (`prompt=login`, `max_age=0`), and ends
 * without a session too.
 */
export async function beginSignIn(
  executor: Executor,
  sealer: SecretSealer,
  configuration: client.Configuration,
  registration: Pick<ProviderRegistration, 'organization_id'>,
  redirectUri: string,
  options: { email: string | null; testedBy: string | null; browser: string; stepUp?: PendingStepUp },
): Promise<string> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri,
    scope: SCOPE,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...(options.email && { login_hint: options.email }),
    ...(options.stepUp && { prompt: 'login', max_age: '0' }),
  });
  await executor
    .deleteFrom('sso_sign_ins')
    .where(
      'state_hash',
      'in',
      executor
        .selectFrom('sso_sign_ins')
        .select('state_hash')
        .where('expires_at', '<', sql<string>`now() - ${sql.raw(SWEEP_AFTER)}`)
        .limit(SWEEP_BATCH),
    )
    .execute();
  await executor
    .insertInto('sso_sign_ins')
    .values({
      state_hash: stateHash(state, options.browser),
      organization_id: registration.organization_id,
      code_verifier_sealed: sealer.seal(verifier),
      nonce,
      email: options.email,
      tested_by: options.testedBy,
      step_up_session_id: options.stepUp?.sessionId ?? null,
      return_to: options.stepUp?.returnTo ?? null,
      expires_at: sql`now() + ${IDENTITY.signInTtlSeconds} * interval '1 second'`,
    })
    .execute();
  return url.toString();
}

/**
 * The pending sign-in of `state` (from this browser), marked used in the same statement: a state (and the nonce
 * it carries) answers once, before it expires, however many callbacks race with it.
 */
export async function takePendingSignIn(executor: Executor, state: string, browser: string) {
  return executor
    .updateTable('sso_sign_ins')
    .set({ used_at: sql`now()` })
    .where('state_hash', '=', stateHash(state, browser))
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<string>`now()`)
    .returning(['organization_id', 'code_verifier_sealed', 'nonce', 'email', 'tested_by', 'step_up_session_id', 'return_to'])
    .executeTakeFirst();
}
export type PendingSignIn = NonNullable<Awaited<ReturnType<typeof takePendingSignIn>>>;

/**
 * The step-up a state of this browser started, once it can no longer answer (used or expired):
 * where to send the browser back to, saying so, rather than to the sign-in page of a person
 * who is signed in.
 */
export async function spentStepUp(executor: Executor, state: string, browser: string) {
  const row = await executor
    .selectFrom('sso_sign_ins')
    .select(['organization_id', 'step_up_session_id', 'return_to'])
    .where('state_hash', '=', stateHash(state, browser))
    .where('step_up_session_id', 'is not', null)
    .executeTakeFirst();
  return row?.step_up_session_id && row.return_to
    ? { organization_id: row.organization_id, step_up_session_id: row.step_up_session_id, return_to: row.return_to }
    : undefined;
}
