import { sql } from 'kysely';
import * as client from 'openid-client';
import { emailDomain, emailSchema, type SsoSignInError } from '@console/domain';
import { writeAudit } from '../../lib/audit.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import type { AuthService, IssuedSession } from '../auth/auth.service.ts';
import { memberFor, type SignedInIdentity } from './members.ts';
import { exchangeCode, reasonOf } from './oidc.ts';
import { spentStepUp, takePendingSignIn, type PendingSignIn } from './pending.ts';
import { hasDomainInEffect, type IdentityDeps } from './queries.ts';
import { createStepUpCallback, type StepUpAnswer } from './step-up-callback.ts';

/** Where the browser goes next, and the session to set the cookie of (a real sign-in only). */
export interface CallbackOutcome {
  location: string;
  session: IssuedSession | null;
}

/** A sign-in that ends without a session: the reason the page shows, and what the audit log keeps. */
class Refusal extends Error {
  readonly reason: SsoSignInError;
  readonly email: string | null;
  readonly userId: string | null;
  constructor(reason: SsoSignInError, why: string, email: string | null = null, userId: string | null = null) {
    super(why);
    this.reason = reason;
    this.email = email;
    this.userId = userId;
  }
}

/** A claim by name (`email`), or along a path of nested objects (`contact.email`) when no claim has the whole name. */
function claimOf(claims: Record<string, unknown>, name: string): unknown {
  if (name in claims) return claims[name];
  return name
    .split('.')
    .reduce<unknown>((value, key) => (value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), claims);
}

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim() : null);

/**
 * The provider's answer to a sign-in. The pending sign-in is found by the state's hash and
 * used up in the same statement, so a replayed answer (its state, and the nonce bound to it)
 * is refused. openid-client then checks the answer's issuer, trades the code with the PKCE
 * verifier and validates the ID token: signature by the provider's published keys, issuer,
 * audience, expiry and nonce. The e-mail must be of a domain the organization has in effect;
 * the member is found (or created, just in time) and a session starts. A step-up's answer
 * (step-up-callback.ts) renews a session instead and goes back to its page, even once spent.
 */
export function createSsoCallback({ db, sealer, oidc, startSession }: IdentityDeps & { startSession: AuthService['startSession'] }) {
  const stepUps = createStepUpCallback({ db, sealer, oidc });

  async function callback(currentUrl: URL, browser: string, info: ClientInfo): Promise<CallbackOutcome> {
    const state = currentUrl.searchParams.get('state');
    const pending = state ? await takePendingSignIn(db, state, browser) : undefined;
    const stepUp: StepUpAnswer | undefined =
      pending?.step_up_session_id && pending.return_to
        ? {
            organization_id: pending.organization_id,
            step_up_session_id: pending.step_up_session_id,
            return_to: pending.return_to,
            pending,
          }
        : !pending && state
          ? await spentStepUp(db, state, browser).then((spent) => spent && { ...spent, pending: null })
          : undefined;
    if (stepUp) return { location: await stepUps.finish(currentUrl, state!, stepUp, info), session: null };
    const test = pending?.tested_by != null;
    try {
      if (!state || !pending) throw new Refusal('expired', 'no pending sign-in for this state in this browser (unknown, used or expired)');
      const identity = await signedIn(currentUrl, state, pending);
      if (test) {
        await db
          .updateTable('identity_providers')
          .set({ tested_at: sql`now()` })
          .where('organization_id', '=', pending.organization_id)
          .execute();
        return { location: `/settings/identity?${new URLSearchParams({ test: 'ok', email: identity.email })}`, session: null };
      }
      const session = await startFor(pending.organization_id, identity, info);
      return { location: '/', session };
    } catch (error) {
      const refusal = error instanceof Refusal ? error : new Refusal('refused', reasonOf(error));
      // An answer with no pending sign-in behind it (a stray, replayed or forged link) names no
      // organization and proves nothing: anyone can send one, so it writes nothing either.
      if (pending)
        await writeAudit(db, {
          actorUserId: null,
          organizationId: pending?.organization_id ?? null,
          action: 'auth.sso_sign_in_failed',
          targetType: 'user',
          targetId: refusal.userId,
          details: {
            ...((refusal.email ?? pending?.email) && { email: (refusal.email ?? pending?.email)!.slice(0, 320) }),
            reason: refusal.reason,
            why: refusal.message.slice(0, 300),
            ...(test && { test: true }),
          },
          ip: info.ip,
          requestId: info.requestId,
        });
      return test
        ? { location: `/settings/identity?${new URLSearchParams({ test_error: refusal.reason })}`, session: null }
        : { location: `/login?${new URLSearchParams({ sso_error: refusal.reason })}`, session: null };
    }
  }

  /** The identity the provider's answer proves, once openid-client has validated it. */
  async function signedIn(currentUrl: URL, state: string, pending: PendingSignIn): Promise<SignedInIdentity> {
    const registration = await db
      .selectFrom('identity_providers')
      .select(['organization_id', 'issuer', 'client_id', 'client_secret_sealed', 'updated_at', 'email_claim', 'name_claim'])
      .where('organization_id', '=', pending.organization_id)
      .executeTakeFirst();
    if (!registration) throw new Refusal('refused', 'the organization has no identity provider any more', pending.email);
    const verifier = sealer.open(pending.code_verifier_sealed);
    if (!verifier) throw new Refusal('expired', 'the sign-in was started under another server secret', pending.email);
    const configuration = await oidc.configurationFor(registration);
    const tokens = await exchangeCode(configuration, currentUrl, { verifier, state, nonce: pending.nonce });
    const claims = tokens.claims()!;
    let email = text(claimOf(claims, registration.email_claim));
    let name = text(claimOf(claims, registration.name_claim));
    let verified = claims.email_verified;
    // Conforming providers keep the e-mail and name out of the ID token when an access token is issued: ask the userinfo endpoint.
    if (!email || !name) {
      // Only a missing name does not fail the sign-in (not every provider has a userinfo endpoint).
      const userinfo = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub).catch((error: unknown) => {
        if (!email) throw error;
        return null;
      });
      if (userinfo && !email) {
        email = text(claimOf(userinfo, registration.email_claim));
        verified = userinfo.email_verified;
      }
      if (userinfo) name ??= text(claimOf(userinfo, registration.name_claim));
    }
    if (!email || !emailSchema.safeParse(email).success)
      throw new Refusal('refused', `no e-mail address in the claim ${registration.email_claim}`, pending.email);
    // The provider says it never checked this address: anyone could have typed it.
    if (registration.email_claim === 'email' && verified === false)
      throw new Refusal('refused', 'the provider has not verified the e-mail', email);
    return { subject: claims.sub, email, name };
  }

  async function startFor(organizationId: string, identity: SignedInIdentity, info: ClientInfo): Promise<IssuedSession> {
    const domain = emailDomain(identity.email);
    if (!domain || !(await hasDomainInEffect(organizationId, db, domain))) {
      throw new Refusal('wrong_domain', `${domain ?? 'the e-mail'} is not a domain of the organization in effect`, identity.email);
    }
    const outcome = await db
      .transaction()
      .execute(async (trx) => {
        const org = await trx
          .selectFrom('organizations')
          .select(['id', 'org_type'])
          .where('id', '=', organizationId)
          .where('deleted_at', 'is', null)
          .executeTakeFirst();
        if (!org) throw new Refusal('refused', 'the organization was deleted', identity.email);
        const provider = await trx
          .selectFrom('identity_providers')
          .select('jit_role')
          .where('organization_id', '=', org.id)
          .executeTakeFirst();
        const member = await memberFor(trx, org, provider?.jit_role ?? null, identity, info);
        if (member.kind === 'refused') throw new Refusal('refused', member.why, identity.email, member.userId);
        if (member.kind === 'inactive') throw new Refusal('inactive', 'the account is not active', identity.email, member.userId);
        if (member.kind === 'not_member')
          throw new Refusal('not_member', 'not a member, and no members are added at first sign-in', identity.email);
        // The provider is the authority on who this is, with its own second factors: the
        // console asks for none of its own here (nor does enforcement leave a password to add one to).
        const session = await startSession(trx, member.userId, info, 'sso');
        await writeAudit(trx, {
          actorUserId: member.userId,
          organizationId: org.id,
          action: 'auth.sso_sign_in',
          targetType: 'user',
          targetId: member.userId,
          details: { email: identity.email, subject: identity.subject.slice(0, 255) },
          ip: info.ip,
          requestId: info.requestId,
        });
        return session;
      })
      .catch((error: unknown) => {
        // Two first sign-ins of one new person at once: the second finds the address taken.
        if ((error as { code?: unknown }).code === '23505')
          throw new Refusal('refused', 'signed in twice at once; sign in again', identity.email);
        throw error;
      });
    return outcome;
  }

  return { callback };
}
