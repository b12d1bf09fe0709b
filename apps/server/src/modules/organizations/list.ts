import { sql, type CompiledQuery } from 'kysely';
import {
  AGENT_LIMIT,
  agentLimitStanding,
  mayViewAgents,
  type CapStanding,
  type ListOrganizationsParams,
  type OrganizationList,
  type OrganizationListItem,
  type OrgSortKey,
} from '@console/domain';
import type { Executor } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { compileOnce } from '../../db/compile-once.ts';
import { likeEscape } from '../../lib/sql.ts';
import { capReached, capStanding } from '../../lib/spend-caps.ts';
import { toOrganization, withBilling, type OrganizationsDeps, type OrgRow } from './queries.ts';

/** What a list's SQL text depends on: its view and order, and which filters it has (not their values). */
type ListShape = Pick<ListOrganizationsParams, 'view' | 'sort' | 'order' | 'attention'> & {
  status?: unknown;
  org_type?: unknown;
  search?: unknown;
};

/** The values a list binds. */
interface ListValues {
  anchorId: string;
  /** The organization whose invoices the overdue filter reads: the caller's own. */
  sellerId: string;
  pathPrefix: string;
  status: ListOrganizationsParams['status'];
  orgType: ListOrganizationsParams['org_type'];
  search: string;
  limit: number;
  offset: number;
}

function listValues(anchor: { id: string; path: string }, query: ListOrganizationsParams, sellerId: string = anchor.id): ListValues {
  return {
    anchorId: anchor.id,
    sellerId,
    pathPrefix: `${likeEscape(anchor.path)}%`,
    status: query.status,
    orgType: query.org_type,
    search: query.search ? `%${likeEscape(query.search)}%` : '',
    limit: query.page_size,
    offset: (query.page - 1) * query.page_size,
  };
}

/** Only the organizations table: the count needs nothing else, the page joins billing. */
function listFilter(db: Executor, shape: ListShape, v: ListValues) {
  let filtered = db.selectFrom('organizations as o').where('o.deleted_at', 'is', null);
  filtered =
    shape.view === 'children'
      ? filtered.where('o.parent_org_id', '=', v.anchorId)
      : filtered.where('o.path', 'like', v.pathPrefix).where('o.id', '<>', v.anchorId);
  if (shape.status) filtered = filtered.where('o.status', '=', v.status!);
  if (shape.org_type) filtered = filtered.where('o.org_type', '=', v.orgType!);
  if (shape.search) filtered = filtered.where(sql`o.name`, 'ilike', v.search);
  // Below the low-balance threshold: the few rows of billing_low_balance_idx.
  if (shape.attention === 'low_balance')
    filtered = filtered.where('o.id', 'in', (eb) =>
      eb
        .selectFrom('organization_billing_settings as lb')
        .select('lb.organization_id')
        .whereRef('lb.credit_balance', '<', 'lb.low_balance_threshold'),
    );
  // Active agents at or near the limit (agentLimitStanding): active × 100 ≥ limit × nearPercent
  // with a limit above 0, so only organizations with live activations, read from their
  // partial unique index.
  if (shape.attention === 'near_limit')
    filtered = filtered.where('o.id', 'in', (eb) =>
      eb
        .selectFrom('agent_activations as la')
        .innerJoin('organization_billing_settings as nb', 'nb.organization_id', 'la.organization_id')
        .select('la.organization_id')
        .where('la.deactivated_at', 'is', null)
        .where('nb.activated_agent_limit', '>', 0)
        .groupBy(['la.organization_id', 'nb.activated_agent_limit'])
        .having(sql<boolean>`count(*) * 100 >= nb.activated_agent_limit * ${sql.lit(AGENT_LIMIT.nearPercent)}`),
    );
  // Billed by the caller's own organization on an invoice past its due date (UTC) and not paid
  // in full: only the seller sees its children flagged, never the organizations above it.
  if (shape.attention === 'overdue_invoices')
    filtered = filtered.where('o.id', 'in', (eb) =>
      eb
        .selectFrom('invoices as oi')
        .select('oi.buyer_id')
        .where('oi.seller_id', '=', v.sellerId)
        .where('oi.kind', '=', 'invoice')
        .where('oi.voided_at', 'is', null)
        .where(sql<boolean>`oi.due_on < (now() at time zone 'UTC')::date`)
        .where(
          sql<boolean>`oi.total > (select coalesce(sum(op.amount), 0) from invoice_payments op where op.invoice_id = oi.id and op.reversed_at is null)`,
        ),
    );
  // Stopped by a subtree spend cap now: only the organizations with a cap (billing_capped_idx)
  // are asked.
  if (shape.attention === 'cap_reached')
    filtered = filtered.where('o.id', 'in', (eb) =>
      eb
        .selectFrom('organization_billing_settings as cb')
        .select('cb.organization_id')
        .where(sql<boolean>`(cb.spend_cap is not null or cb.daily_spend_cap is not null or cb.weekly_spend_cap is not null)`)
        .where(capReached(sql`cb.organization_id`)),
    );
  return filtered;
}

/** The column each sort key orders by. */
const SORT_COLUMNS = {
  name: 'o.name',
  created: 'o.created_at',
  balance: 'b.credit_balance',
  limit: 'b.activated_agent_limit',
} as const satisfies Record<OrgSortKey, string>;

/**
 * One page in the order asked for, with each row's billing settings. The id breaks ties in the
 * same direction, so equal values never trade places between pages and one index (read
 * backwards for descending) serves both orders.
 */
function pageOf(db: Executor, shape: ListShape, v: ListValues) {
  return withBilling(listFilter(db, shape, v))
    .select((eb) => [
      sql<boolean>`b.credit_balance < b.low_balance_threshold`.as('low_balance'),
      // The live activations (their partial unique index), one page's rows only.
      eb
        .selectFrom('agent_activations as aa')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('aa.organization_id', '=', 'o.id')
        .where('aa.deactivated_at', 'is', null)
        .as('active_agent_count'),
      capStanding(sql`o.id`).as('cap_standing'),
    ])
    .orderBy(SORT_COLUMNS[shape.sort], shape.order)
    .orderBy('o.id', shape.order)
    .limit(v.limit)
    .offset(v.offset);
}

/** The filtered organizations of a list, before paging (exported so a test can EXPLAIN it). */
export function listQuery(db: Executor, anchor: { id: string; path: string }, query: ListOrganizationsParams, sellerId?: string) {
  return listFilter(db, query, listValues(anchor, query, sellerId));
}

/** One page of a list (exported so a test can EXPLAIN it). */
export function listPage(db: Executor, anchor: { id: string; path: string }, query: ListOrganizationsParams, sellerId?: string) {
  return pageOf(db, query, listValues(anchor, query, sellerId));
}

/**
 * A list's page and count statements, each shape compiled once (exported so a test can compare
 * them with the builders): at most the 640 shapes of the views, sort keys, orders, filters present
 * and attention filter (none, low balance, near the limit, overdue invoices or cap reached).
 */
export function listStatements(db: Executor) {
  const compiled = new Map<
    string,
    { page: (v: ListValues) => CompiledQuery<PageRow>; count: (v: ListValues) => CompiledQuery<{ n: number }> }
  >();
  return (anchor: { id: string; path: string }, query: ListOrganizationsParams, sellerId?: string) => {
    const shape: ListShape = {
      view: query.view,
      sort: query.sort,
      order: query.order,
      status: Boolean(query.status),
      org_type: Boolean(query.org_type),
      search: Boolean(query.search),
      attention: query.attention,
    };
    const key = `${shape.view} ${shape.sort} ${shape.order} ${shape.status} ${shape.org_type} ${shape.search} ${shape.attention}`;
    let statements = compiled.get(key);
    if (!statements) {
      statements = {
        page: compileOnce((v: ListValues) => pageOf(db, shape, v)),
        count: compileOnce((v: ListValues) => listFilter(db, shape, v).select(sql<number>`count(*)::int`.as('n'))),
      };
      compiled.set(key, statements);
    }
    const values = listValues(anchor, query, sellerId);
    return { page: statements.page(values), count: statements.count(values) };
  };
}

type PageRow = OrgRow & { low_balance: boolean; active_agent_count: number | null; cap_standing: CapStanding };

/**
 * A list row: the organization, whether its balance is below its threshold, its active agents
 * against its limit (only for a viewer who may read its agents), and whether its spend caps
 * stop it, with the events they refused this month.
 */
function toListItem(row: PageRow, readsAgents: boolean): OrganizationListItem {
  const active = readsAgents ? (row.active_agent_count ?? 0) : null;
  return {
    ...toOrganization(row),
    low_balance: row.low_balance,
    active_agent_count: active,
    agent_limit_standing: active === null ? null : agentLimitStanding(active, row.activated_agent_limit),
    cap_standing: row.cap_standing,
  };
}

export function createOrganizationList({ db, reads: { visible } }: OrganizationsDeps) {
  // The lists read a page and its count: each compiled once, a prepared statement on PostgreSQL.
  const listStatementsOf = listStatements(db);

  async function list(caller: Caller, query: ListOrganizationsParams): Promise<OrganizationList> {
    const anchor = await visible(caller, query.organization_id ?? caller.organization.id);
    const statements = listStatementsOf(anchor, query, caller.organization.id);
    const [page, count] = await Promise.all([db.executeQuery(statements.page), db.executeQuery(statements.count)]);
    const total = count.rows[0]!.n;
    return {
      organization: toOrganization(anchor),
      organizations: page.rows.map((row) => toListItem(row, mayViewAgents(caller))),
      total,
      page: query.page,
      page_size: query.page_size,
      total_pages: Math.ceil(total / query.page_size),
    };
  }

  return { list };
}
