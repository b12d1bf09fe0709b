import { sql } from 'kysely';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import {
  MFA,
  type AuthenticationOptions,
  type AuthenticationResponse,
  type RegistrationOptions,
  type RegistrationResponse,
  type WebauthnChallengePurpose,
} from '@console/domain';
import type { Executor } from '../db/schema.ts';
import { hashToken } from './secrets.ts';

type Purpose = WebauthnChallengePurpose;

/** Who a challenge is for: the person adding or re-checking, the sign-in challenge it answers, or nobody yet. */
interface Binding {
  userId?: string;
  signInTokenHash?: string;
}

/** A passkey that signed a challenge: whose it is. */
export interface UsedPasskey {
  passkeyId: string;
  userId: string;
}

/** The challenge inside a browser's clientDataJSON, or null when it is not readable. */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    const challenge = (data as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 200 ? challenge : null;
  } catch {
    return null;
  }
}

const uuidBytes = (id: string) => new Uint8Array(Buffer.from(id.replace(/-/g, ''), 'hex'));
const uuidOfHandle = (handle: string | undefined) => {
  if (!handle) return null;
  const hex = Buffer.from(handle, 'base64url').toString('hex');
  return hex.length === 32 ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}` : null;
};
const transportsOf = (stored: string) => (stored ? stored.split(',') : []) as NonNullable<RegistrationResponse['response']['transports']>;

/**
 * The WebAuthn ceremonies of passkeys. The relying party is the console's own address (its
 * host name and origin), so a passkey works only where the console is served. Every challenge
 * is kept as its SHA-256, bound to its purpose (and to the person or the sign-in challenge),
 * and answers once within `MFA.passkeyChallengeTtlSeconds`.
 */
export function createPasskeys({ appUrl }: { appUrl: string }) {
  const url = new URL(appUrl);
  const rpID = url.hostname;
  const origin = url.origin;

  async function remember(executor: Executor, challenge: string, purpose: Purpose, binding: Binding): Promise<void> {
    // Spent and expired challenges are of no more use: each new one clears them.
    await executor
      .deleteFrom('webauthn_challenges')
      .where((eb) => eb.or([eb('used_at', 'is not', null), eb('expires_at', '<=', sql<string>`now()`)]))
      .execute();
    await executor
      .insertInto('webauthn_challenges')
      .values({
        challenge_hash: hashToken(challenge),
        purpose,
        user_id: binding.userId ?? null,
        sign_in_token_hash: binding.signInTokenHash ?? null,
        expires_at: new Date(Date.now() + MFA.passkeyChallengeTtlSeconds * 1000),
      })
      .execute();
  }

  /** Options to make a discoverable passkey for the person; their passkeys are excluded so none is added twice. */
  async function registrationOptions(
    executor: Executor,
    person: { id: string; email: string; name: string },
  ): Promise<RegistrationOptions> {
    const existing = await executor
      .selectFrom('passkeys')
      .select(['credential_id', 'transports'])
      .where('user_id', '=', person.id)
      .execute();
    const options = await generateRegistrationOptions({
      rpName: MFA.issuer,
      rpID,
      userName: person.email,
      userDisplayName: person.name || person.email,
      userID: uuidBytes(person.id),
      timeout: MFA.passkeyChallengeTtlSeconds * 1000,
      attestationType: 'none',
      excludeCredentials: existing.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    await remember(executor, options.challenge, 'register', { userId: person.id });
    return options as RegistrationOptions;
  }

  /** Options to sign a challenge: with the person's passkeys named, or any (passwordless: the passkey names its person). */
  async function authenticationOptions(
    executor: Executor,
    purpose: Exclude<Purpose, 'register'>,
    binding: Binding,
  ): Promise<AuthenticationOptions> {
    const allowed = binding.userId
      ? await executor.selectFrom('passkeys').select(['credential_id', 'transports']).where('user_id', '=', binding.userId).execute()
      : [];
    const options = await generateAuthenticationOptions({
      rpID,
      timeout: MFA.passkeyChallengeTtlSeconds * 1000,
      userVerification: purpose === 'passwordless' ? 'required' : 'preferred',
      ...(binding.userId && { allowCredentials: allowed.map((p) => ({ id: p.credential_id, transports: transportsOf(p.transports) })) }),
    });
    await remember(executor, options.challenge, purpose, binding);
    return options as AuthenticationOptions;
  }

  /**
   * Takes the challenge a browser's answer signed: it must be unused, unexpired, of this purpose
   * and binding; it is marked used here (under its row's lock), so it answers once whatever the
   * outcome. Null when there is no such challenge.
   */
  async function take(executor: Executor, clientDataJSON: string, purpose: Purpose, binding: Binding): Promise<string | null> {
    const challenge = challengeOf(clientDataJSON);
    if (!challenge) return null;
    let query = executor
      .updateTable('webauthn_challenges')
      .set({ used_at: sql`now()` })
      .where('challenge_hash', '=', hashToken(challenge))
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<string>`now()`);
    if (binding.userId) query = query.where('user_id', '=', binding.userId);
    if (binding.signInTokenHash) query = query.where('sign_in_token_hash', '=', binding.signInTokenHash);
    const taken = await query.returning('challenge_hash').executeTakeFirst();
    return taken ? challenge : null;
  }

  /** A new passkey from the browser's answer to the person's registration options, or null when it does not verify. */
  async function verifyRegistration(
    executor: Executor,
    userId: string,
    response: RegistrationResponse,
  ): Promise<{ credentialId: string; publicKey: string; counter: number; transports: string } | null> {
    const challenge = await take(executor, response.response.clientDataJSON, 'register', { userId });
    if (!challenge) return null;
    try {
      const result = await verifyRegistrationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        requireUserVerification: false,
      });
      if (!result.verified) return null;
      const { credential } = result.registrationInfo;
      return {
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: (response.response.transports ?? []).join(','),
      };
    } catch {
      // A malformed or forged answer is a refused one.
      return null;
    }
  }

  /**
   * The passkey that signed a challenge of this purpose and binding, or null. Its row is locked;
   * a signature count that does not move forward (a cloned authenticator) is refused; the new
   * count and the time of use are kept. With a person bound, only their passkeys answer.
   */
  async function verifyAssertion(
    executor: Executor,
    purpose: Exclude<Purpose, 'register'>,
    binding: Binding,
    response: AuthenticationResponse,
  ): Promise<UsedPasskey | null> {
    const challenge = await take(executor, response.response.clientDataJSON, purpose, binding);
    if (!challenge) return null;
    const row = await executor
      .selectFrom('passkeys')
      .select(['id', 'user_id', 'credential_id', 'public_key', 'counter', 'transports'])
      .where('credential_id', '=', response.id)
      .forUpdate()
      .executeTakeFirst();
    if (!row || (binding.userId && row.user_id !== binding.userId)) return null;
    // A discoverable passkey names its person too: it must be the passkey's.
    if (response.response.userHandle && uuidOfHandle(response.response.userHandle) !== row.user_id) return null;
    try {
      const result = await verifyAuthenticationResponse({
        response,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpID,
        credential: {
          id: row.credential_id,
          publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')),
          counter: Number(row.counter),
          transports: transportsOf(row.transports),
        },
        requireUserVerification: purpose === 'passwordless',
      });
      if (!result.verified) return null;
      await executor
        .updateTable('passkeys')
        .set({ counter: result.authenticationInfo.newCounter, last_used_at: sql`now()` })
        .where('id', '=', row.id)
        .execute();
      return { passkeyId: row.id, userId: row.user_id };
    } catch {
      // A wrong signature, origin or relying party, or a counter that went back.
      return null;
    }
  }

  /** Whether the person has a passkey (a right password then gives a challenge). */
  async function hasPasskey(executor: Executor, userId: string): Promise<boolean> {
    const row = await executor.selectFrom('passkeys').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  return { rpID, origin, registrationOptions, authenticationOptions, verifyRegistration, verifyAssertion, hasPasskey };
}

export type Passkeys = ReturnType<typeof createPasskeys>;
