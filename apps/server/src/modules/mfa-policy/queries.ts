import { sql, type Kysely } from 'kysely';
import { MESSAGES, MFA_POLICY_GRACE, mayViewMfaPolicy, type MfaPolicyView, type OrgType } from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import { requireInSubtree } from '../../lib/authorize.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError } from '../../lib/errors.ts';
import { enrollmentOf, hasFactorOf, mfaChainOf } from '../../lib/mfa-requirement.ts';

export const m = MESSAGES.mfaPolicy;

/** At most this many people are listed on the coverage card; the counts cover everyone. */
export const COVERAGE_PAGE = 200;

export interface MfaPolicyDeps {
  db: Kysely<DB>;
}

export interface PolicyOrg {
  id: string;
  name: string;
  org_type: OrgType;
  path: string;
  parent_org_id: string | null;
}

/** The organization whose policy the caller reads or sets: absent or out of scope is 404, another than their own 403. */
export async function policyOrganization(caller: Caller, id: string, executor: Executor): Promise<PolicyOrg> {
  const row = await executor
    .selectFrom('organizations')
    .select(['id', 'name', 'org_type', 'path', 'parent_org_id'])
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  const org = requireInSubtree(caller, row, MESSAGES.organizations.notFound);
  if (!mayViewMfaPolicy(caller, org)) throw new ForbiddenError(m.onlyOwnAdmins);
  return org;
}

/** The organization's own policy, its inherited requirements and its people's coverage. */
export async function readPolicy(org: PolicyOrg, executor: Executor): Promise<MfaPolicyView> {
  const own = await executor
    .selectFrom('mfa_policies as p')
    .leftJoin('users as u', 'u.id', 'p.updated_by')
    .select(['p.own_since', 'p.subtree_since', 'p.admins_since', 'p.grace_days', 'p.updated_at', 'u.email as updated_by_email'])
    .where('p.organization_id', '=', org.id)
    .executeTakeFirst();
  const above = await executor
    .selectFrom('mfa_policies as p')
    .innerJoin('organizations as a', 'a.id', 'p.organization_id')
    .select(['a.id', 'a.name', 'a.org_type', 'a.path', 'p.subtree_since', 'p.admins_since', 'p.grace_days'])
    .where(sql<boolean>`p.organization_id = any(organization_ancestors(${org.path}))`)
    .orderBy(sql`length(a.path)`)
    .execute();
  const inherited = above.flatMap((a) => [
    ...(a.subtree_since
      ? [
          {
            organization_id: a.id,
            organization_name: a.name,
            org_type: a.org_type,
            kind: 'subtree' as const,
            grace_days: a.grace_days,
            since: a.subtree_since,
          },
        ]
      : []),
    ...(a.admins_since
      ? [
          {
            organization_id: a.id,
            organization_name: a.name,
            org_type: a.org_type,
            kind: 'admins' as const,
            grace_days: a.grace_days,
            since: a.admins_since,
          },
        ]
      : []),
  ]);
  return {
    organization_id: org.id,
    policy: {
      require_own: !!own?.own_since,
      require_subtree: !!own?.subtree_since,
      require_admins: !!own?.admins_since,
      grace_days: own?.grace_days ?? MFA_POLICY_GRACE.default,
      updated_at: own?.updated_at ?? null,
      updated_by_email: own?.updated_by_email ?? null,
    },
    inherited,
    coverage: await coverageOf(org, executor),
  };
}

/**
 * The organization's active people a requirement reaches, decided person by person by the same
 * rule as sign-in and the route guard; those without a factor first, nearest deadline first.
 */
async function coverageOf(org: PolicyOrg, executor: Executor): Promise<MfaPolicyView['coverage']> {
  const rows = await executor
    .selectFrom('users as u')
    .innerJoin('organizations as o', 'o.id', 'u.organization_id')
    .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'u.role', 'u.created_at', 'u.admin_since'])
    .select([mfaChainOf(sql.ref('o.path')).as('mfa_chain'), hasFactorOf(sql.ref('u.id')).as('has_factor')])
    .where('u.organization_id', '=', org.id)
    .where('u.deleted_at', 'is', null)
    .where('u.status', '=', 'active')
    .orderBy('u.email')
    .execute();
  const covered = rows
    .map((row) => {
      const withoutFactor = enrollmentOf({ ...row, has_factor: false });
      if (!withoutFactor) return null;
      const name = [row.first_name, row.last_name].filter(Boolean).join(' ') || null;
      return {
        id: row.id,
        email: row.email,
        name,
        role: row.role,
        enrolled: row.has_factor,
        deadline: row.has_factor ? null : withoutFactor.deadline,
      };
    })
    .filter((p) => p !== null)
    .sort((a, b) => (a.deadline ?? '\uffff').localeCompare(b.deadline ?? '\uffff') || a.email.localeCompare(b.email));
  return {
    covered: covered.length,
    not_enrolled: covered.filter((p) => !p.enrolled).length,
    people: covered.slice(0, COVERAGE_PAGE),
    truncated: covered.length > COVERAGE_PAGE,
  };
}
