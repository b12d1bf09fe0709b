import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import { generateSecret, generateURI, verify } from 'otplib';
import { MFA, type MfaMethod } from '@console/domain';
import type { Executor } from '../db/schema.ts';
import { RateLimitedError } from './errors.ts';
import { countHit } from './rate-limit.ts';
import type { SecretSealer } from './sealer.ts';
import { hashToken } from './secrets.ts';

/** The allowance of wrong second-factor codes a person has per window, across every server process. */
export interface SecondFactorLimits {
  secondFactorPerPerson: number;
  windowSeconds: number;
}

/** Letters and digits nobody misreads (no 0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_LENGTH = 10;

/** A recovery code as typed: case does not matter, and spaces and dashes are ignored. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]+/g, '');
}

/** A new recovery code, `xxxxx-xxxxx` (about 49 bits). */
export function newRecoveryCode(): string {
  const chars = Array.from({ length: RECOVERY_LENGTH }, () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/** Six digits (spaces ignored) are a code from the authenticator app; anything else a recovery code. */
export function methodOfCode(code: string): MfaMethod {
  return new RegExp(`^\\d{${MFA.totpDigits}}$`).test(code.replace(/\s+/g, '')) ? 'totp' : 'recovery_code';
}

/** The otpauth URI an authenticator app reads (issuer and the person's e-mail beside the code). */
export function totpUri(secret: string, email: string): string {
  return generateURI({ issuer: MFA.issuer, label: email, secret, digits: MFA.totpDigits, period: MFA.totpStepSeconds });
}

/** The time steps a code may be from now, as otplib counts tolerance: in seconds. */
const TOLERANCE_SECONDS = MFA.totpWindowSteps * MFA.totpStepSeconds;

/**
 * Second factors of a person: their authenticator app (its secret sealed at rest) and their
 * recovery codes, and the allowance of wrong codes the person gets per window.
 */
export function createSecondFactors({ sealer, limits }: { sealer: SecretSealer; limits: SecondFactorLimits }) {
  const windowMs = limits.windowSeconds * 1000;
  const personKey = (userId: string) => `second-factor:person:${userId}`;

  /**
   * Locks the person's count of wrong codes for the transaction (concurrent attempts take
   * turns) and refuses with 429 once the allowance is spent. Nothing is counted here: only a
   * wrong code counts (`countWrong`), so a person typing right codes is never held back.
   */
  async function admit(trx: Executor, userId: string): Promise<void> {
    const { current, ttl } = await countHit(trx, personKey(userId), windowMs, 0);
    if (current >= limits.secondFactorPerPerson) throw new RateLimitedError(Math.max(1, Math.ceil(ttl / 1000)));
  }

  /** A wrong code: counted against the person's allowance. */
  async function countWrong(trx: Executor, userId: string): Promise<void> {
    await countHit(trx, personKey(userId), windowMs, 1);
  }

  /**
   * A code from the authenticator app: accepted within `MFA.totpWindowSteps` steps of now, and
   * only for a step after the last one accepted (read and moved under the row's lock), so a
   * code is never accepted twice. `pending` checks the app being set up instead of a confirmed one.
   */
  async function checkTotp(trx: Executor, userId: string, code: string, pending = false): Promise<boolean> {
    const row = await trx
      .selectFrom('totp_factors')
      .select(['secret_sealed', 'confirmed_at', 'last_step'])
      .where('user_id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
    if (!row || (row.confirmed_at === null) !== pending) return false;
    const secret = sealer.open(row.secret_sealed);
    if (!secret) return false;
    let step: number;
    try {
      const result = await verify({
        secret,
        token: code.replace(/\s+/g, ''),
        digits: MFA.totpDigits,
        period: MFA.totpStepSeconds,
        epochTolerance: TOLERANCE_SECONDS,
        ...(row.last_step !== null && { afterTimeStep: row.last_step }),
      });
      // The TOTP strategy's answer names the step the code matched (the HOTP one, a counter).
      if (!result.valid || !('timeStep' in result)) return false;
      step = result.timeStep;
    } catch {
      // A malformed code, or every step of the window already used: not a valid code.
      return false;
    }
    await trx.updateTable('totp_factors').set({ last_step: step }).where('user_id', '=', userId).execute();
    return true;
  }

  /** An unused recovery code of the person: marked used in the same statement, so it answers once. */
  async function useRecoveryCode(trx: Executor, userId: string, code: string): Promise<boolean> {
    const normalized = normalizeRecoveryCode(code);
    if (normalized.length !== RECOVERY_LENGTH) return false;
    const used = await trx
      .updateTable('recovery_codes')
      .set({ used_at: sql`now()` })
      .where('user_id', '=', userId)
      .where('code_hash', '=', hashToken(normalized))
      .where('used_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return used !== undefined;
  }

  /** A code of the confirmed app or a recovery code (by `method`, or told apart by its form): the method it answered with, or null. */
  async function checkCode(trx: Executor, userId: string, code: string, method: MfaMethod = methodOfCode(code)): Promise<MfaMethod | null> {
    if (method === 'totp') return (await checkTotp(trx, userId, code)) ? 'totp' : null;
    return (await useRecoveryCode(trx, userId, code)) ? 'recovery_code' : null;
  }

  /** New recovery codes for the person, the old ones gone; the codes themselves are returned once and never stored. */
  async function replaceRecoveryCodes(trx: Executor, userId: string): Promise<string[]> {
    await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
    const codes = new Set<string>();
    while (codes.size < MFA.recoveryCodeCount) codes.add(newRecoveryCode());
    await trx
      .insertInto('recovery_codes')
      .values([...codes].map((code) => ({ user_id: userId, code_hash: hashToken(normalizeRecoveryCode(code)) })))
      .execute();
    return [...codes];
  }

  /** Whether the person has a confirmed authenticator app (a right password then gives a challenge). */
  async function hasConfirmedTotp(executor: Executor, userId: string): Promise<boolean> {
    const row = await executor
      .selectFrom('totp_factors')
      .select('user_id')
      .where('user_id', '=', userId)
      .where('confirmed_at', 'is not', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A new authenticator app secret (base32, 160 bits) and its sealed form for the database. */
  function newTotpSecret(): { secret: string; sealed: string } {
    const secret = generateSecret();
    return { secret, sealed: sealer.seal(secret) };
  }

  return { admit, countWrong, checkTotp, checkCode, replaceRecoveryCodes, hasConfirmedTotp, newTotpSecret };
}

export type SecondFactors = ReturnType<typeof createSecondFactors>;

/**
 * Every second factor of a person goes (an admin's reset): the authenticator app, set up or
 * being set up, every passkey and every recovery code, and each open sign-in challenge is voided so a
 * right password given before the reset answers nothing. Each kind of factor is one line
 * here (a new kind adds its delete). Answers what was removed.
 */
export async function removeAllFactors(
  trx: Executor,
  userId: string,
): Promise<{ totp: boolean; passkeys: number; recovery_codes: number }> {
  const totp = await trx.deleteFrom('totp_factors').where('user_id', '=', userId).executeTakeFirst();
  const passkeys = await trx.deleteFrom('passkeys').where('user_id', '=', userId).executeTakeFirst();
  const codes = await trx.deleteFrom('recovery_codes').where('user_id', '=', userId).executeTakeFirst();
  await trx
    .updateTable('sign_in_challenges')
    .set({ used_at: sql`now()` })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
  return { totp: Number(totp.numDeletedRows) > 0, passkeys: Number(passkeys.numDeletedRows), recovery_codes: Number(codes.numDeletedRows) };
}
