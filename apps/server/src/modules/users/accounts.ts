import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { DB, Executor, UsersTable } from '../../db/schema.ts';
import { isAdminRole, requireAnotherAdmin } from './queries.ts';

/** What sign-in, recovery and invitations read and write of an account. */
export function createAccounts(db: Kysely<DB>) {
  /** What sign-in and recovery need: the stored address, the password hash and whether the account may sign in. */
  async function findCredentials(email: string) {
    return db
      .selectFrom('users as u')
      .innerJoin('organizations as o', 'o.id', 'u.organization_id')
      .select(['u.id', 'u.email', 'u.password_hash', 'u.status', 'u.deleted_at', 'u.organization_id', 'o.deleted_at as org_deleted_at'])
      .where(sql`lower(u.email)`, '=', email.toLowerCase())
      .executeTakeFirst();
  }

  /** The password hash of a user, to check the current password before a change. */
  async function passwordHashOf(userId: string, executor: Executor = db): Promise<string | null> {
    const row = await executor.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
    return row?.password_hash ?? null;
  }

  async function setPasswordHash(executor: Executor, userId: string, passwordHash: string) {
    await executor.updateTable('users').set({ password_hash: passwordHash, updated_at: sql`now()` }).where('id', '=', userId).execute();
  }

  async function stampLastLogin(executor: Executor, userId: string) {
    await executor.updateTable('users').set({ last_login_at: sql`now()` }).where('id', '=', userId).execute();
  }

  async function insert(trx: Transaction<DB>, values: Insertable<UsersTable>) {
    return trx.insertInto('users').values(values).returning('id').executeTakeFirstOrThrow();
  }

  /**
   * Moves a user into an organization with a role (invitation acceptance). An admin who
   * leaves an organization must leave another active admin behind.
   */
  async function assignMembership(
    trx: Transaction<DB>,
    user: { id: string; organization_id: string; role: string },
    organizationId: string,
    role: string,
  ) {
    if (user.organization_id !== organizationId && isAdminRole(user.role)) await requireAnotherAdmin(trx, user.organization_id, user.id);
    await trx
      .updateTable('users')
      .set({ organization_id: organizationId, role, updated_at: sql`now()` })
      .where('id', '=', user.id)
      .execute();
  }

  async function findByEmail(email: string, executor: Executor = db) {
    return executor
      .selectFrom('users')
      .select(['id', 'organization_id', 'role', 'status'])
      .where(sql`lower(email)`, '=', email.toLowerCase())
      .executeTakeFirst();
  }

  return { findCredentials, passwordHashOf, setPasswordHash, stampLastLogin, insert, assignMembership, findByEmail };
}
