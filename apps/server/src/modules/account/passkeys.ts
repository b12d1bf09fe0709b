import { sql } from 'kysely';
import {
  MESSAGES,
  MFA,
  type AddedPasskey,
  type AddPasskeyBody,
  type AuthenticationOptions,
  type Passkey,
  type PasskeyList,
  type PasskeyProofBody,
  type RegistrationOptions,
} from '@console/domain';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { BadRequestError, ConflictError, NotFoundError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { verifyPassword } from '../../lib/secrets.ts';
import { createFactorLifecycle } from './factor-lifecycle.ts';
import type { AccountDeps } from './queries.ts';

const iso = (value: string | null) => (value ? new Date(value).toISOString() : null);
const toPasskey = (row: { id: string; name: string; created_at: string; last_used_at: string | null }): Passkey => ({
  id: row.id,
  name: row.name,
  created_at: new Date(row.created_at).toISOString(),
  last_used_at: iso(row.last_used_at),
});

/** The signed-in person's passkeys: listed, added (password again, then the browser's answer), renamed, removed. */
export function createOwnPasskeys({ db, factors, passkeys }: AccountDeps) {
  const lifecycle = createFactorLifecycle({ factors, passkeys });
  async function list(caller: Caller): Promise<PasskeyList> {
    const rows = await db
      .selectFrom('passkeys')
      .select(['id', 'name', 'created_at', 'last_used_at'])
      .where('user_id', '=', caller.userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return { items: rows.map(toPasskey) };
  }

  /** Starting to add a passkey asks for the password again: a stolen access token alone adds no factor. */
  async function registrationOptions(caller: Caller, currentPassword: string): Promise<RegistrationOptions> {
    const person = await db
      .selectFrom('users')
      .select(['email', 'password_hash', 'first_name', 'last_name'])
      .where('id', '=', caller.userId)
      .executeTakeFirstOrThrow();
    if (!(await verifyPassword(person.password_hash, currentPassword))) {
      throw new BadRequestError(MESSAGES.auth.currentPasswordWrong, { current_password: MESSAGES.auth.currentPasswordWrong });
    }
    const name = [person.first_name, person.last_name].filter(Boolean).join(' ');
    return db.transaction().execute(async (trx) => {
      await assertRoom(trx, caller.userId);
      return passkeys.registrationOptions(trx, { id: caller.userId, email: person.email, name });
    });
  }

  async function assertRoom(trx: Parameters<typeof passkeys.hasPasskey>[0], userId: string): Promise<void> {
    const { n } = await trx
      .selectFrom('passkeys')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (n >= MFA.passkeysPerPerson) throw new ConflictError(MESSAGES.auth.passkeyTooMany(MFA.passkeysPerPerson));
  }

  /**
   * Adds the passkey the browser made for the person's registration options. A first factor
   * also gives `MFA.recoveryCodeCount` recovery codes, answered here only; the person's other
   * sessions end, since whoever held them did not show this factor. A refused answer is 422
   * and counts against the person's allowance of wrong answers.
   */
  async function add(caller: Caller, body: AddPasskeyBody, client: ClientInfo): Promise<AddedPasskey> {
    const outcome = await db.transaction().execute(async (trx) => {
      // The person's row orders concurrent additions, so the count below holds.
      await trx.selectFrom('users').select('id').where('id', '=', caller.userId).forUpdate().executeTakeFirstOrThrow();
      await factors.admit(trx, caller.userId);
      const made = await passkeys.verifyRegistration(trx, caller.userId, body.response);
      if (!made) {
        await factors.countWrong(trx, caller.userId);
        return null;
      }
      await assertRoom(trx, caller.userId);
      const taken = await trx.selectFrom('passkeys').select('id').where('credential_id', '=', made.credentialId).executeTakeFirst();
      if (taken) return null;
      const row = await trx
        .insertInto('passkeys')
        .values({
          user_id: caller.userId,
          credential_id: made.credentialId,
          public_key: made.publicKey,
          counter: made.counter,
          transports: made.transports,
          name: body.name,
        })
        .returning(['id', 'name', 'created_at', 'last_used_at'])
        .executeTakeFirstOrThrow();
      const codes = await lifecycle.added(trx, caller);
      await auditAction(trx, caller, client, {
        organizationId: caller.organization.id,
        action: 'auth.mfa_passkey_added',
        targetType: 'user',
        targetId: caller.userId,
        details: { method: 'passkey', passkey_id: row.id, name: row.name },
      });
      return { passkey: toPasskey(row), recovery_codes: codes };
    });
    if (!outcome) throw new RuleError(MESSAGES.auth.passkeyRefused, 'passkey_refused');
    return outcome;
  }

  async function rename(caller: Caller, passkeyId: string, name: string, client: ClientInfo): Promise<Passkey> {
    return db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('passkeys')
        .set({ name })
        .where('id', '=', passkeyId)
        .where('user_id', '=', caller.userId)
        .returning(['id', 'name', 'created_at', 'last_used_at'])
        .executeTakeFirst();
      if (!row) throw new NotFoundError(MESSAGES.auth.passkeyNotFound);
      await auditAction(trx, caller, client, {
        organizationId: caller.organization.id,
        action: 'auth.mfa_passkey_renamed',
        targetType: 'user',
        targetId: caller.userId,
        details: { passkey_id: row.id, name: row.name },
      });
      return toPasskey(row);
    });
  }

  /** Options for the browser to confirm a change with one of the person's passkeys (409 without one). */
  async function checkOptions(caller: Caller): Promise<AuthenticationOptions> {
    return db.transaction().execute(async (trx) => {
      if (!(await passkeys.hasPasskey(trx, caller.userId))) throw new ConflictError(MESSAGES.auth.passkeyNotFound);
      return passkeys.authenticationOptions(trx, 'reauth', { userId: caller.userId });
    });
  }

  /**
   * Removes one of the person's passkeys, proved by a current code (app or recovery code) or by
   * a passkey's answer to the re-check options. A wrong proof is 422 and counts against the
   * person's allowance. The person's other sessions end; the last factor gone, the recovery
   * codes and open sign-in challenges go too.
   */
  async function remove(caller: Caller, passkeyId: string, proof: PasskeyProofBody, client: ClientInfo): Promise<void> {
    const outcome = await db.transaction().execute(async (trx) => {
      await trx.selectFrom('users').select('id').where('id', '=', caller.userId).forUpdate().executeTakeFirstOrThrow();
      const target = await trx
        .selectFrom('passkeys')
        .select(['id', 'name'])
        .where('id', '=', passkeyId)
        .where('user_id', '=', caller.userId)
        .executeTakeFirst();
      if (!target) throw new NotFoundError(MESSAGES.auth.passkeyNotFound);
      await factors.admit(trx, caller.userId);
      const proved =
        'code' in proof
          ? await factors.checkCode(trx, caller.userId, proof.code)
          : (await passkeys.verifyAssertion(trx, 'reauth', { userId: caller.userId }, proof.response))
            ? 'passkey'
            : null;
      if (!proved) {
        await factors.countWrong(trx, caller.userId);
        return 'wrong' as const;
      }
      await trx.deleteFrom('passkeys').where('id', '=', target.id).execute();
      await lifecycle.removed(trx, caller);
      await auditAction(trx, caller, client, {
        organizationId: caller.organization.id,
        action: 'auth.mfa_passkey_removed',
        targetType: 'user',
        targetId: caller.userId,
        details: { method: proved, passkey_id: target.id, name: target.name },
      });
      return 'removed' as const;
    });
    if (outcome === 'wrong') {
      throw new RuleError(
        'code' in proof ? MESSAGES.auth.codeWrong : MESSAGES.auth.passkeyRefused,
        'code' in proof ? 'code_wrong' : 'passkey_refused',
      );
    }
  }

  return { list, registrationOptions, add, rename, checkOptions, remove };
}
