import { sql, type Kysely } from 'kysely';
import { signInAccountWaitSeconds, type SignInAccountLimits } from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import { RateLimitedError } from '../../lib/errors.ts';
import { endRun, extendRun, readRun, touchRun } from '../../lib/rate-limit.ts';

export type GuessLimits = SignInAccountLimits & { signInAccountWindowSeconds: number; signInKnownAddressWindowSeconds: number };

/** How a sign-in was let through: its attempt counted as a failure in advance, or from an address the account knows. */
export type GuessAdmission = 'counted' | 'known_address';

/** Attempts lost to concurrent ones before a sign-in is told to wait a second. */
const CLAIM_TRIES = 3;

/**
 * Wrong passwords for one e-mail from every address together, counted in `rate_limits` so
 * every server process shares the run. The e-mail is the key whether or not an account has
 * it: an unknown e-mail is answered, and waits, exactly as a known one.
 */
export function createGuessThrottle(db: Kysely<DB>, limits: GuessLimits) {
  const windowMs = limits.signInAccountWindowSeconds * 1000;
  const keyOf = (email: string) => `sign-in:account:${email.trim().toLowerCase()}`;

  /** Whether the account of `email` signed in from `ip` within the known-address window. */
  async function isKnownAddress(email: string, ip: string): Promise<boolean> {
    const { rows } = await sql<{ known: boolean }>`
      select exists (
        select 1 from users u join refresh_sessions s on s.user_id = u.id
        where lower(u.email) = ${email.trim().toLowerCase()} and s.ip = ${ip}
          and s.created_at > now() - ${limits.signInKnownAddressWindowSeconds} * interval '1 second'
      ) as known`.execute(db);
    return rows[0]?.known === true;
  }

  /**
   * Lets a sign-in try its password, or answers 429 with the wait. Outside a wait the attempt
   * is counted as a failure before the password is checked (a right one ends the run), so
   * concurrent guesses cannot pass the allowance together; within it, concurrent sign-ins all
   * go on. During a wait only an address the
   * account signed in from before is let through, uncounted: the owner is not locked out.
   */
  async function admit(email: string, ip: string): Promise<GuessAdmission> {
    const key = keyOf(email);
    for (let attempt = 0; attempt < CLAIM_TRIES; attempt++) {
      const run = await readRun(db, key, windowMs);
      const waitMs = signInAccountWaitSeconds(run.count, limits) * 1000 - run.sinceLastMs;
      if (waitMs > 0) {
        if (await isKnownAddress(email, ip)) return 'known_address';
        throw new RateLimitedError(Math.max(1, Math.ceil(waitMs / 1000)));
      }
      if (await extendRun(db, key, windowMs, { seen: run.count, below: limits.signInAccountFailures })) return 'counted';
    }
    throw new RateLimitedError(1);
  }

  /**
   * A wrong password: counted now if its attempt was not counted when admitted; either way the
   * wait runs from now, the moment the failure is known, not from when the check began.
   */
  async function failed(email: string, admission: GuessAdmission): Promise<void> {
    if (admission === 'known_address') await extendRun(db, keyOf(email), windowMs, null);
    else await touchRun(db, keyOf(email), windowMs);
  }

  /** The right password, or a password reset: the run of failures ends. */
  async function ended(email: string, executor: Executor = db): Promise<void> {
    await endRun(executor, keyOf(email));
  }

  return { admit, failed, ended };
}

export type GuessThrottle = ReturnType<typeof createGuessThrottle>;
