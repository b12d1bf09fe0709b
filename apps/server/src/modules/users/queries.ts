import { sql, type Kysely, type Transaction } from 'kysely';
import { MESSAGES, isOwnOrDirectChild, mayActOnRankOf, mayEndAccessOf, roleLevel, type OrgStatus, type UserProfile } from '@console/domain';
import { compileOnce } from '../../db/compile-once.ts';
import type { DB, Executor, SessionMethod } from '../../db/schema.ts';
import { revokeSessions, voidResetLinks } from '../../lib/access.ts';
import { lockActiveAdminIds } from '../../lib/admins.ts';
import { requireInSubtree } from '../../lib/authorize.ts';
import type { Caller } from '../../lib/caller.ts';
import { enrollmentOf, hasFactorOf, mfaChainOf } from '../../lib/mfa-requirement.ts';
import { ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import type { Mailer } from '../../lib/mail.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';

export function profileQuery(db: Executor) {
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

export function toProfile(row: ProfileRow): UserProfile {
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

export const m = MESSAGES.users;

/** What the service, and each of its use cases, is built from. */
export interface UsersDeps {
  db: Kysely<DB>;
  /** The people lists and profiles read here (the replica when there is one); every change reads the primary. */
  readDb?: Kysely<DB>;
  organizations: OrganizationsService;
  /** The reset of a person's second factors mails them and their admins. */
  mailer: Mailer;
}

/** The reads every people use case starts from: a person in scope, and one's own profile. */
export function createUserReads(db: Kysely<DB>) {
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
      .select(['u.admin_since', mfaChainOf(sql.ref('o.path')).as('mfa_chain'), hasFactorOf(sql.ref('u.id')).as('has_factor')])
      .where('u.id', '=', v.userId),
  );

  /**
   * A person's own profile, with the standing of the organizations above theirs. `sessionMethod`:
   * how the session it is read for began (what the second-factor policy asks depends on it).
   */
  async function getProfile(userId: string, executor: Executor = db, sessionMethod?: SessionMethod): Promise<UserProfile> {
    const row = (await executor.executeQuery(profileOf({ userId }))).rows[0];
    if (!row) throw new NotFoundError();
    const profile = toProfile(row);
    return {
      ...profile,
      organization: { ...profile.organization, ancestor_status: row.ancestor_status },
      mfa_enrollment: enrollmentOf({ ...row, session_method: sessionMethod }),
    };
  }

  return { visibleUser, getProfile };
}

export type UserReads = ReturnType<typeof createUserReads>;

/** Managing people reaches the caller's own organization and its direct children only. */
export function requireManageable(caller: Caller, target: { organization_id: string; org_parent_id: string | null }) {
  if (!isOwnOrDirectChild(caller, { id: target.organization_id, parent_org_id: target.org_parent_id })) {
    throw new ForbiddenError(m.onlyOwnOrDirectChild);
  }
}

/**
 * Refuses to leave an organization without an active admin. The admin rows are locked
 * so two admins demoting each other at once cannot both succeed.
 */
export async function requireAnotherAdmin(trx: Transaction<DB>, organizationId: string, userId: string) {
  const admins = await lockActiveAdminIds(trx, organizationId);
  if (!admins.some((id) => id !== userId)) throw new RuleError(m.lastAdmin);
}

/** Nobody acts on a person whose role ranks above their own. */
export function requireRankWithin(caller: Caller, target: { role: string }) {
  if (!mayActOnRankOf(caller, target)) throw new ForbiddenError(m.higherRank);
}

/**
 * Ending a person's sessions and resetting their second factors: decided by the domain's one
 * predicate, the one the console shows the actions by. The person was found within the
 * caller's subtree (404 otherwise); a refusal says why when it can.
 */
export function requireEndAccess(caller: Caller, target: { id: string; role: string }) {
  if (target.id === caller.userId) throw new ForbiddenError();
  requireRankWithin(caller, target);
  if (!mayEndAccessOf(caller, target)) throw new ForbiddenError();
}

/**
 * A person leaving active status loses every access they held, in the same transaction:
 * each session ends (access and refresh tokens stop at once) and each unused reset link
 * is voided, so a later reactivation revives none of them.
 */
export async function endAccess(trx: Transaction<DB>, userId: string) {
  await revokeSessions(trx, userId, 'deactivated');
  await voidResetLinks(trx, userId);
}

export const isAdminRole = (role: string) => roleLevel(role) === 'admin';
export const isActiveAdmin = (row: { role: string; status: string }) => row.status === 'active' && isAdminRole(row.role);
