import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import {
  MESSAGES,
  ROLE_RANK,
  isOwnOrDirectChild,
  isRoleValidForOrgType,
  mayActOnRankOf,
  mayGrantRole,
  mayViewPerson,
  roleLevel,
  roleRank,
  type ListUsersParams,
  type OrgStatus,
  type UpdateMeInput,
  type UpdateUserInput,
  type UserList,
  type UserProfile,
} from '@console/domain';
import { compileOnce } from '../../db/compile-once.ts';
import type { DB, Executor, UsersTable } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requireInSubtree, requirePermission } from '../../lib/authorize.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import { likeEscape } from '../../lib/sql.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import type { ClientInfo } from '../../lib/request-info.ts';

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
    status: row.status,
    organization_id: row.organization_id,
    preferred_locale: row.preferred_locale,
    invited_at: row.invited_at,
    last_login_at: row.last_login_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
    organization: {
      id: row.organization_id,
      name: row.org_name,
      org_type: row.org_type,
      status: row.org_status,
    },
  };
}

const m = MESSAGES.users;

export function createUsersService({ db, organizations }: { db: Kysely<DB>; organizations: OrganizationsService }) {
  /** The user if the caller may read it (its organization is live and in the caller's subtree). */
  async function visibleUser(caller: Caller, id: string, executor: Executor = db) {
    const row = await profileQuery(executor)
      .select('o.path')
      .select('o.parent_org_id as org_parent_id')
      .where('u.id', '=', id)
      .where('u.deleted_at', 'is', null)
      .where('o.deleted_at', 'is', null)
      .executeTakeFirst();
    return requireInSubtree(caller, row, m.notFound);
  }

  // GET /api/users/me runs this on every call: compiled once, a prepared statement on PostgreSQL.
  const profileOf = compileOnce((v: { userId: string }) =>
    profileQuery(db)
      .select(
        // The ancestors are read through the materialized path: primary-key lookups, three at most.
        sql<OrgStatus | null>`(select a.status from organizations a
          where a.id = any(organization_ancestors(o.path)) and a.status <> 'active'
          order by length(a.path) desc limit 1)`.as('ancestor_status'),
      )
      .where('u.id', '=', v.userId),
  );

  /** A person's own profile, with the standing of the organizations above theirs. */
  async function getProfile(userId: string, executor: Executor = db): Promise<UserProfile> {
    const row = (await executor.executeQuery(profileOf({ userId }))).rows[0];
    if (!row) throw new NotFoundError();
    const profile = toProfile(row);
    return { ...profile, organization: { ...profile.organization, ancestor_status: row.ancestor_status } };
  }

  /** Managing people reaches the caller's own organization and its direct children only. */
  function requireManageable(caller: Caller, target: { organization_id: string; org_parent_id: string | null }) {
    if (!isOwnOrDirectChild(caller, { id: target.organization_id, parent_org_id: target.org_parent_id })) {
      throw new ForbiddenError(m.onlyOwnOrDirectChild);
    }
  }

  /**
   * Refuses to leave an organization without an active admin. The admin rows are locked
   * so two admins demoting each other at once cannot both succeed.
   */
  async function requireAnotherAdmin(trx: Transaction<DB>, organizationId: string, userId: string) {
    const admins = await trx
      .selectFrom('users')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('status', '=', 'active')
      .where('role', 'like', '%\\_admin')
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .forUpdate()
      .execute();
    if (!admins.some((a) => a.id !== userId)) throw new RuleError(m.lastAdmin);
  }

  /** Nobody acts on a person whose role ranks above their own. */
  function requireRankWithin(caller: Caller, target: { role: string }) {
    if (!mayActOnRankOf(caller, target)) throw new ForbiddenError(m.higherRank);
  }

  /**
   * A person leaving active status loses every access they held, in the same transaction:
   * each session ends (access and refresh tokens stop at once) and each unused reset link
   * is voided, so a later reactivation revives none of them.
   */
  async function endAccess(trx: Transaction<DB>, userId: string) {
    await trx
      .updateTable('refresh_sessions')
      .set({ revoked_at: sql`now()`, revoked_reason: 'deactivated' })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
    await trx
      .updateTable('one_time_tokens')
      .set({ used_at: sql`now()` })
      .where('user_id', '=', userId)
      .where('purpose', '=', 'password_reset')
      .where('used_at', 'is', null)
      .execute();
  }

  const isAdminRole = (role: string) => roleLevel(role) === 'admin';
  const isActiveAdmin = (row: { role: string; status: string }) => row.status === 'active' && isAdminRole(row.role);

  /**
   * Edits someone: anyone edits themselves; editing another person takes a manager or
   * above, within reach, and never someone of a higher rank; only holders of users.delete
   * change a status, never their own. Leaving active status ends every session.
   */
  async function update(caller: Caller, id: string, input: UpdateUserInput, info: ClientInfo): Promise<UserProfile> {
    return db.transaction().execute(async (trx) => {
      const target = await visibleUser(caller, id, trx);
      const self = target.id === caller.userId;
      if (!self) {
        if (roleRank(caller.role) < ROLE_RANK.manager) throw new ForbiddenError(m.onlySelf);
        requireManageable(caller, target);
        requireRankWithin(caller, target);
      }
      if (input.status !== undefined && input.status !== target.status) {
        if (self) throw new ForbiddenError(m.cannotDeactivateSelf);
        requirePermission(caller, 'users.delete');
        if (input.status === 'inactive' && isActiveAdmin(target)) await requireAnotherAdmin(trx, target.organization_id, target.id);
      }
      await trx.updateTable('users').set({ ...input, updated_at: sql`now()` }).where('id', '=', target.id).execute();
      if (input.status !== undefined && input.status !== 'active') await endAccess(trx, target.id);
      await writeAudit(trx, {
        actorUserId: caller.userId,
        organizationId: target.organization_id,
        action: input.status === 'inactive' && target.status !== 'inactive' ? 'user.deactivate' : 'user.update',
        targetType: 'user',
        targetId: target.id,
        details: { changes: input },
        ...info,
      });
      return getProfile(target.id, trx);
    });
  }

  return {
    getProfile,

    /** What sign-in and recovery need: the stored address, the password hash and whether the account may sign in. */
    async findCredentials(email: string) {
      return db
        .selectFrom('users as u')
        .innerJoin('organizations as o', 'o.id', 'u.organization_id')
        .select(['u.id', 'u.email', 'u.password_hash', 'u.status', 'u.deleted_at', 'u.organization_id', 'o.deleted_at as org_deleted_at'])
        .where(sql`lower(u.email)`, '=', email.toLowerCase())
        .executeTakeFirst();
    },

    /** The password hash of a user, to check the current password before a change. */
    async passwordHashOf(userId: string, executor: Executor = db): Promise<string | null> {
      const row = await executor.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
      return row?.password_hash ?? null;
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

    async insert(trx: Transaction<DB>, values: Insertable<UsersTable>) {
      return trx.insertInto('users').values(values).returning('id').executeTakeFirstOrThrow();
    },

    /**
     * Moves a user into an organization with a role (invitation acceptance). An admin who
     * leaves an organization must leave another active admin behind.
     */
    async assignMembership(trx: Transaction<DB>, user: { id: string; organization_id: string; role: string }, organizationId: string, role: string) {
      if (user.organization_id !== organizationId && isAdminRole(user.role)) await requireAnotherAdmin(trx, user.organization_id, user.id);
      await trx
        .updateTable('users')
        .set({ organization_id: organizationId, role, updated_at: sql`now()` })
        .where('id', '=', user.id)
        .execute();
    },

    async findByEmail(email: string, executor: Executor = db) {
      return executor
        .selectFrom('users')
        .select(['id', 'organization_id', 'role', 'status'])
        .where(sql`lower(email)`, '=', email.toLowerCase())
        .executeTakeFirst();
    },

    async list(caller: Caller, query: ListUsersParams): Promise<UserList> {
      const org = await organizations.visible(caller, query.organization_id ?? caller.organization.id);
      let filtered = profileQuery(db).where('u.organization_id', '=', org.id).where('u.deleted_at', 'is', null);
      if (query.status) filtered = filtered.where('u.status', '=', query.status);
      if (query.role) filtered = filtered.where('u.role', '=', query.role);
      if (query.search) {
        const pattern = `%${likeEscape(query.search)}%`;
        filtered = filtered.where((eb) =>
          eb.or([
            eb('u.email', 'ilike', pattern),
            eb(sql`coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')`, 'ilike', pattern),
          ]),
        );
      }
      const [rows, count] = await Promise.all([
        filtered
          .orderBy(`u.${query.sort_by}`, (ob) => (query.sort_order === 'asc' ? ob.asc() : ob.desc()).nullsLast())
          .orderBy('u.id', query.sort_order)
          .limit(query.page_size)
          .offset((query.page - 1) * query.page_size)
          .execute(),
        filtered.clearSelect().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
      ]);
      return {
        users: rows.map(toProfile),
        pagination: {
          page: query.page,
          page_size: query.page_size,
          total: count.n,
          total_pages: Math.ceil(count.n / query.page_size),
        },
      };
    },

    async get(caller: Caller, id: string): Promise<UserProfile> {
      if (!mayViewPerson(caller, { id })) throw new ForbiddenError();
      return toProfile(await visibleUser(caller, id));
    },

    async updateMe(caller: Caller, input: UpdateMeInput, info: ClientInfo): Promise<UserProfile> {
      return db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ ...input, updated_at: sql`now()` }).where('id', '=', caller.userId).execute();
        await writeAudit(trx, {
          actorUserId: caller.userId,
          organizationId: caller.organization.id,
          action: 'user.update',
          targetType: 'user',
          targetId: caller.userId,
          details: { changes: input },
          ...info,
        });
        return getProfile(caller.userId, trx);
      });
    },

    /** Admins and managers edit people of their organization or a direct child; a user edits only themselves. */
    update,

    /** A role of the user's organization type, never one's own, never the last admin's. */
    async changeRole(caller: Caller, id: string, role: string, info: ClientInfo): Promise<UserProfile> {
      return db.transaction().execute(async (trx) => {
        const target = await visibleUser(caller, id, trx);
        if (target.id === caller.userId) throw new ForbiddenError(m.cannotChangeOwnRole);
        requireManageable(caller, target);
        requireRankWithin(caller, target);
        if (!isRoleValidForOrgType(role, target.org_type)) throw new RuleError(m.roleNotForOrgType(role, target.org_type));
        if (!mayGrantRole(caller, role)) throw new ForbiddenError(m.roleAboveOwn);
        if (isActiveAdmin(target) && !isAdminRole(role)) await requireAnotherAdmin(trx, target.organization_id, target.id);
        await trx.updateTable('users').set({ role, updated_at: sql`now()` }).where('id', '=', target.id).execute();
        await writeAudit(trx, {
          actorUserId: caller.userId,
          organizationId: target.organization_id,
          action: 'user.role_change',
          targetType: 'user',
          targetId: target.id,
          details: { before: target.role, after: role },
          ...info,
        });
        return getProfile(target.id, trx);
      });
    },

    /** Deactivation: the user can no longer sign in, and every session they held has ended. */
    async deactivate(caller: Caller, id: string, info: ClientInfo): Promise<UserProfile> {
      if (id === caller.userId) throw new ForbiddenError(m.cannotDeactivateSelf);
      return update(caller, id, { status: 'inactive' }, info);
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
