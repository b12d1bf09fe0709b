import { sql, type Kysely, type Transaction } from 'kysely';
import type { UserProfile } from '@console/domain';
import type { DB } from '../../db/schema.ts';
import { NotFoundError } from '../../lib/errors.ts';

type Executor = Kysely<DB> | Transaction<DB>;

const iso = (value: Date | null) => (value ? value.toISOString() : null);

function profileQuery(db: Executor) {
  return db
    .selectFrom('users as u')
    .innerJoin('organizations as o', 'o.id', 'u.organization_id')
    .select([
      'u.id',
      'u.email',
      'u.first_name',
      'u.last_name',
      'u.role',
      'u.status',
      'u.organization_id',
      'u.preferred_locale',
      'u.invited_at',
      'u.last_login_at',
      'u.created_at',
      'u.updated_at',
      'u.deleted_at',
      'o.name as org_name',
      'o.org_type',
      'o.status as org_status',
    ]);
}

type ProfileRow = Awaited<ReturnType<ReturnType<typeof profileQuery>['executeTakeFirstOrThrow']>>;

function toProfile(row: ProfileRow): UserProfile {
  return {
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    avatar_url: null,
    role: row.role,
    status: row.status as UserProfile['status'],
    organization_id: row.organization_id,
    preferred_locale: row.preferred_locale,
    invited_at: iso(row.invited_at),
    last_login_at: iso(row.last_login_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    deleted_at: iso(row.deleted_at),
    organization: {
      id: row.organization_id,
      name: row.org_name,
      org_type: row.org_type as UserProfile['organization']['org_type'],
      status: row.org_status as UserProfile['organization']['status'],
    },
  };
}

export function createUsersService({ db }: { db: Kysely<DB> }) {
  return {
    async getProfile(userId: string, executor: Executor = db): Promise<UserProfile> {
      const row = await profileQuery(executor).where('u.id', '=', userId).executeTakeFirst();
      if (!row) throw new NotFoundError();
      return toProfile(row);
    },

    /** What sign-in needs: the password hash and whether the account may sign in. */
    async findCredentials(email: string) {
      return db
        .selectFrom('users as u')
        .innerJoin('organizations as o', 'o.id', 'u.organization_id')
        .select(['u.id', 'u.password_hash', 'u.status', 'u.deleted_at', 'o.deleted_at as org_deleted_at'])
        .where(sql`lower(u.email)`, '=', email.toLowerCase())
        .executeTakeFirst();
    },

    async setPasswordHash(executor: Executor, userId: string, passwordHash: string) {
      await executor
        .updateTable('users')
        .set({ password_hash: passwordHash, updated_at: sql`now()` })
        .where('id', '=', userId)
        .execute();
    },

    async stampLastLogin(executor: Executor, userId: string) {
      await executor.updateTable('users').set({ last_login_at: sql`now()` }).where('id', '=', userId).execute();
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
