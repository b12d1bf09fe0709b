import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import { MESSAGES, type Organization, type OrganizationDetail, type OrganizationRef } from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { compileOnce } from '../../db/compile-once.ts';
import { requireInSubtree } from '../../lib/authorize.ts';

export const m = MESSAGES.organizations;

/** An organizations query with the columns of a row and its billing settings. */
export function withBilling<QB extends SelectQueryBuilder<DB & { o: DB['organizations'] }, 'o', object>>(query: QB) {
  return query
    .innerJoin('organization_billing_settings as b', 'b.organization_id', 'o.id')
    .select([
      'o.id',
      'o.name',
      'o.description',
      'o.org_type',
      'o.parent_org_id',
      'o.status',
      'o.disable_parent_invites',
      'o.created_at',
      'o.updated_at',
      'o.deleted_at',
      'o.path',
      'b.credit_balance',
      'b.activated_agent_limit',
      'b.low_balance_threshold',
    ]);
}

function baseQuery(db: Executor) {
  return withBilling(db.selectFrom('organizations as o').where('o.deleted_at', 'is', null));
}

export type OrgRow = Awaited<ReturnType<ReturnType<typeof baseQuery>['executeTakeFirstOrThrow']>>;

export function toOrganization(row: OrgRow): Organization {
  const billing = {
    organization_id: row.id,
    credit_balance: row.credit_balance,
    activated_agent_limit: row.activated_agent_limit,
    low_balance_threshold: row.low_balance_threshold,
  };
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    org_type: row.org_type,
    parent_org_id: row.parent_org_id,
    status: row.status,
    disable_parent_invites: row.disable_parent_invites,
    created_at: row.created_at,
    updated_at: row.updated_at,
    deleted_at: row.deleted_at,
    credit_balance: billing.credit_balance,
    activated_agent_limit: billing.activated_agent_limit,
    organization_billing_settings: billing,
  };
}

/**
 * The organization's live agent activations (served by the partial unique index of live
 * activations): what its activated agent limit bounds.
 */
export async function activeAgentCount(executor: Executor, organizationId: string): Promise<number> {
  const row = await executor
    .selectFrom('agent_activations')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('organization_id', '=', organizationId)
    .where('deactivated_at', 'is', null)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** The reads every organization use case starts from: one organization in scope and its detail. */
export function createOrganizationReads(db: Kysely<DB>) {
  // Most organization routes read one first: compiled once, a prepared statement on PostgreSQL.
  const byId = compileOnce((v: { id: string }) => baseQuery(db).where('o.id', '=', v.id));

  /**
   * The organization if the caller may see it (its own or a descendant); 404 otherwise,
   * whether it exists or not.
   */
  async function visible(caller: Caller, id: string, executor: Executor = db): Promise<OrgRow> {
    return requireInSubtree(caller, (await executor.executeQuery(byId({ id }))).rows[0], m.notFound);
  }

  /**
   * The organizations from the caller's own down to `row`'s parent, from the materialized
   * path, so nothing above the caller's own organization is named.
   */
  async function ancestorsOf(caller: Caller, row: OrgRow, executor: Executor): Promise<OrganizationRef[]> {
    const ids = row.path.split('/').filter(Boolean);
    const from = ids.indexOf(caller.organization.id);
    const chain = from < 0 ? [] : ids.slice(from, -1);
    if (chain.length === 0) return [];
    const rows = await executor.selectFrom('organizations').select(['id', 'name']).where('id', 'in', chain).execute();
    const names = new Map(rows.map((r) => [r.id, r.name]));
    return chain.flatMap((id) => (names.has(id) ? [{ id, name: names.get(id)! }] : []));
  }

  async function detail(caller: Caller, row: OrgRow, executor: Executor = db): Promise<OrganizationDetail> {
    const [children, active, ancestors] = await Promise.all([
      executor
        .selectFrom('organizations')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('parent_org_id', '=', row.id)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow(),
      activeAgentCount(executor, row.id),
      ancestorsOf(caller, row, executor),
    ]);
    return { ...toOrganization(row), active_agent_count: active, child_count: children.n, ancestors };
  }

  /** Ids of an organization and all its live descendants (the procedure the debug page checks against). */
  async function getDescendantOrgIdsOrSelf(orgId: string, executor: Executor = db): Promise<string[]> {
    const rows = await executor
      .selectFrom('organizations as o')
      .select('o.id')
      .where('o.deleted_at', 'is', null)
      .where(
        'o.path',
        'like',
        executor.selectFrom('organizations as p').select(sql<string>`p.path || '%'`.as('prefix')).where('p.id', '=', orgId),
      )
      .execute();
    return rows.map((r) => r.id);
  }

  return { visible, detail, getDescendantOrgIdsOrSelf };
}

export type OrganizationReads = ReturnType<typeof createOrganizationReads>;

/** What each use case of the module is built from. */
export interface OrganizationsDeps {
  db: Kysely<DB>;
  reads: OrganizationReads;
}
