import { sql, type Kysely } from 'kysely';
import type { FastifyRequest } from 'fastify';
import { MESSAGES, MFA, type OrgStatus, type OrgType } from '@console/domain';
import { compileOnce } from '../db/compile-once.ts';
import type { DB, SessionMethod } from '../db/schema.ts';
import type { TokenService } from './tokens.ts';
import { RateLimitedError, UnauthorizedError } from './errors.ts';
import type { SharedCounter } from './machine-limits.ts';
import { enrollmentOf, hasFactorOf, mfaChainOf } from './mfa-requirement.ts';

/** Who is calling, read from the database on every request: the token only names the user. */
export interface Caller {
  userId: string;
  email: string;
  role: string;
  sessionId: string;
  /** Until when (Unix ms) the session's last proof of a second factor or password lets it move money and secrets; 0 when none does. */
  stepUpFreshUntil: number;
  /** How the session began ('sso': at the organization's identity provider); absent in tests that build a caller by hand. */
  sessionMethod?: SessionMethod;
  organization: {
    id: string;
    name: string;
    org_type: OrgType;
    status: OrgStatus;
    path: string;
    /** The nearest organization above that is not active, if any: its subtree (this one too) is frozen. */
    ancestor_status: OrgStatus | null;
  };
  /**
   * What the second-factor policy asks of them: a factor by a deadline, or nothing (null; absent in tests that build a caller by
   * hand). A session begun at the identity provider is asked nothing: the provider asks its own factors.
   */
  mfaEnrollment?: { required: true; deadline: string } | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller | null;
  }
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  // Exactly `Bearer <token>`: anything after the token (a second word, a trailing space) is no bearer at all.
  const match = /^bearer ([^\s]+)$/i.exec(header);
  return match ? match[1]! : null;
}

/** The caller's user, organization, frozen ancestor and session, in one query. */
function callerQuery(db: Kysely<DB>, userId: string, sessionId: string) {
  return db
    .selectFrom('users as u')
    .innerJoin('organizations as o', 'o.id', 'u.organization_id')
    .innerJoin('refresh_sessions as s', (join) => join.onRef('s.user_id', '=', 'u.id').on('s.id', '=', sessionId))
    .select([
      'u.id',
      'u.email',
      'u.role',
      'u.status',
      'u.deleted_at',
      's.revoked_at',
      's.method as session_method',
      sql<number | null>`(extract(epoch from s.stepped_up_at) * 1000)::float8`.as('stepped_up_ms'),
      'o.id as org_id',
      'o.name as org_name',
      'o.org_type',
      'o.status as org_status',
      'o.path',
      'o.deleted_at as org_deleted_at',
      // The ancestors are read through the materialized path: primary-key lookups, three at most.
      sql<OrgStatus | null>`(select a.status from organizations a
        where a.id = any(organization_ancestors(o.path)) and a.status <> 'active'
        order by length(a.path) desc limit 1)`.as('ancestor_status'),
      // The second-factor policy: the chain's policies and whether the person has a factor.
      'u.created_at',
      'u.admin_since',
      mfaChainOf(sql.ref('o.path')).as('mfa_chain'),
      hasFactorOf(sql.ref('u.id')).as('has_factor'),
    ])
    .where('u.id', '=', userId);
}

/**
 * Verifies the bearer token and loads the caller. A deactivated user, or a session that
 * was signed out or revoked, is refused at once whatever the token's expiry says.
 */
/** A person's allowance of requests that change something: counted in the shared in-memory counter's window (a minute). */
export interface WriteAllowance {
  counter: SharedCounter;
  perPerson: number;
}

/**
 * Authenticates a session route's request by its access token. A request that changes
 * something (not a GET) also counts against its person's allowance of changes, shared by every
 * server process: past it, 429 with Retry-After before the body is read.
 */
export function createAuthenticator(
  db: Kysely<DB>,
  tokens: TokenService,
  writes?: WriteAllowance,
  stepUpFreshSeconds: number = MFA.stepUpFreshSeconds,
) {
  // Every authenticated request runs this query: compiled once, a prepared statement on PostgreSQL.
  const bind = compileOnce((v: { userId: string; sessionId: string }) => callerQuery(db, v.userId, v.sessionId));
  return async function authenticate(request: FastifyRequest): Promise<void> {
    const token = bearerToken(request);
    if (!token) throw new UnauthorizedError();
    const { userId, sessionId } = await tokens.verify(token);
    const row = (await db.executeQuery(bind({ userId, sessionId }))).rows[0];
    if (!row) throw new UnauthorizedError('Session ended', 'session_revoked');
    // Deactivation also ends the sessions; the person is told why they were signed out.
    if (row.status !== 'active' || row.deleted_at || row.org_deleted_at) {
      throw new UnauthorizedError('Account is not active', 'account_inactive');
    }
    if (row.revoked_at) throw new UnauthorizedError('Session ended', 'session_revoked');
    request.caller = {
      userId: row.id,
      email: row.email,
      role: row.role,
      sessionId,
      stepUpFreshUntil: row.stepped_up_ms === null ? 0 : row.stepped_up_ms + stepUpFreshSeconds * 1000,
      sessionMethod: row.session_method,
      organization: {
        id: row.org_id,
        name: row.org_name,
        org_type: row.org_type,
        status: row.org_status,
        path: row.path,
        ancestor_status: row.ancestor_status,
      },
      mfaEnrollment: enrollmentOf(row),
    };
    if (writes && request.method !== 'GET' && request.method !== 'HEAD') {
      const verdict = writes.counter.take([{ name: `writes:${row.id}`, policy: 'person', limit: writes.perPerson }]);
      if (!verdict.allowed) {
        throw new RateLimitedError(verdict.resetSeconds, MESSAGES.auth.tooManyChanges(writes.perPerson, verdict.resetSeconds));
      }
    }
  };
}

/** The caller of a route that ran `authenticate`. */
export function callerOf(request: FastifyRequest): Caller {
  if (!request.caller) throw new UnauthorizedError();
  return request.caller;
}
