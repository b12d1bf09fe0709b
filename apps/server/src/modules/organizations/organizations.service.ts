import { sql, type CompiledQuery, type Kysely, type SelectQueryBuilder, type Transaction } from 'kysely';
import {
  MESSAGES,
  TREE_CHILDREN_LIMIT,
  TREE_DESCENDANT_COUNT_CAP,
  childTypeOf,
  mayChangeOrganizationStatus,
  mayCreateChildOrganization,
  mayDeleteOrganization,
  mayEditOrganization,
  mayOpenDebug,
  mayReadOrganization,
  type CreateOrganizationInput,
  type ListOrganizationsParams,
  type Organization,
  type OrganizationDetail,
  type OrganizationList,
  type OrganizationRef,
  type OrganizationTree,
  type OrgSortKey,
  type UpdateOrganizationInput,
  type VerifyChildren,
} from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { compileOnce } from '../../db/compile-once.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requireInSubtree } from '../../lib/authorize.ts';
import { ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import { likeEscape } from '../../lib/sql.ts';
import type { ClientInfo } from '../../lib/request-info.ts';

const m = MESSAGES.organizations;


/** An organizations query with the columns of a row and its billing settings. */
function withBilling<QB extends SelectQueryBuilder<DB & { o: DB['organizations'] }, 'o', object>>(query: QB) {
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

type OrgRow = Awaited<ReturnType<ReturnType<typeof baseQuery>['executeTakeFirstOrThrow']>>;

function toOrganization(row: OrgRow): Organization {
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

/** What a list's SQL text depends on: its view and order, and which filters it has (not their values). */
type ListShape = Pick<ListOrganizationsParams, 'view' | 'sort' | 'order'> & { status?: unknown; org_type?: unknown; search?: unknown };

/** The values a list binds. */
interface ListValues {
  anchorId: string;
  pathPrefix: string;
  status: ListOrganizationsParams['status'];
  orgType: ListOrganizationsParams['org_type'];
  search: string;
  limit: number;
  offset: number;
}

function listValues(anchor: { id: string; path: string }, query: ListOrganizationsParams): ListValues {
  return {
    anchorId: anchor.id,
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
    .orderBy(SORT_COLUMNS[shape.sort], shape.order)
    .orderBy('o.id', shape.order)
    .limit(v.limit)
    .offset(v.offset);
}

/** The filtered organizations of a list, before paging (exported so a test can EXPLAIN it). */
export function listQuery(db: Executor, anchor: { id: string; path: string }, query: ListOrganizationsParams) {
  return listFilter(db, query, listValues(anchor, query));
}

/** One page of a list (exported so a test can EXPLAIN it). */
export function listPage(db: Executor, anchor: { id: string; path: string }, query: ListOrganizationsParams) {
  return pageOf(db, query, listValues(anchor, query));
}

/**
 * A list's page and count statements, each shape compiled once (exported so a test can compare
 * them with the builders): at most the 128 shapes of the views, sort keys, orders and filters.
 */
export function listStatements(db: Executor) {
  const compiled = new Map<string, { page: (v: ListValues) => CompiledQuery<OrgRow>; count: (v: ListValues) => CompiledQuery<{ n: number }> }>();
  return (anchor: { id: string; path: string }, query: ListOrganizationsParams) => {
    const shape: ListShape = {
      view: query.view,
      sort: query.sort,
      order: query.order,
      status: Boolean(query.status),
      org_type: Boolean(query.org_type),
      search: Boolean(query.search),
    };
    const key = `${shape.view} ${shape.sort} ${shape.order} ${shape.status} ${shape.org_type} ${shape.search}`;
    let statements = compiled.get(key);
    if (!statements) {
      statements = {
        page: compileOnce((v: ListValues) => pageOf(db, shape, v)),
        count: compileOnce((v: ListValues) => listFilter(db, shape, v).select(sql<number>`count(*)::int`.as('n'))),
      };
      compiled.set(key, statements);
    }
    const values = listValues(anchor, query);
    return { page: statements.page(values), count: statements.count(values) };
  };
}

/**
 * The organization's live agent activations (served by the partial unique index of live
 * activations): what its activated agent limit bounds.
 */
async function activeAgentCount(executor: Executor, organizationId: string): Promise<number> {
  const row = await executor
    .selectFrom('agent_activations')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('organization_id', '=', organizationId)
    .where('deactivated_at', 'is', null)
    .executeTakeFirstOrThrow();
  return row.n;
}

export function createOrganizationsService({ db }: { db: Kysely<DB> }) {
  // Most organization routes read one first, the lists read a page and its count: each
  // compiled once, a prepared statement on PostgreSQL.
  const byId = compileOnce((v: { id: string }) => baseQuery(db).where('o.id', '=', v.id));
  const listStatementsOf = listStatements(db);

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

  return {
    visible,

    /** The organization's live agent activations, in `executor`'s transaction when one is given. */
    activeAgentCount: (organizationId: string, executor: Executor = db) => activeAgentCount(executor, organizationId),

    /** Ids of an organization and all its live descendants (the procedure the debug page checks against). */
    async getDescendantOrgIdsOrSelf(orgId: string, executor: Executor = db): Promise<string[]> {
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
    },

    async list(caller: Caller, query: ListOrganizationsParams): Promise<OrganizationList> {
      const anchor = await visible(caller, query.organization_id ?? caller.organization.id);
      const statements = listStatementsOf(anchor, query);
      const [page, count] = await Promise.all([db.executeQuery(statements.page), db.executeQuery(statements.count)]);
      const total = count.rows[0]!.n;
      return {
        organization: toOrganization(anchor),
        organizations: page.rows.map(toOrganization),
        total,
        page: query.page,
        page_size: query.page_size,
        total_pages: Math.ceil(total / query.page_size),
      };
    },

    /** One level of the Hierarchy view, with counts so the console knows what can expand. */
    async tree(caller: Caller, organizationId: string | undefined): Promise<OrganizationTree> {
      const node = await visible(caller, organizationId ?? caller.organization.id);
      const childCount = (parent: string) =>
        sql<number>`(select count(*)::int from organizations c where c.parent_org_id = ${sql.ref(parent)} and c.deleted_at is null)`;
      const count = (query: SelectQueryBuilder<DB, 'organizations', object>) =>
        query.select(sql<number>`count(*)::int`.as('n')).where('deleted_at', 'is', null).executeTakeFirstOrThrow();
      const [children, descendants, directCount] = await Promise.all([
        db
          .selectFrom('organizations as o')
          .select(['o.id', 'o.name', 'o.org_type', 'o.status', 'o.parent_org_id', childCount('o.id').as('child_count')])
          .where('o.parent_org_id', '=', node.id)
          .where('o.deleted_at', 'is', null)
          .orderBy('o.name')
          .orderBy('o.id')
          .limit(TREE_CHILDREN_LIMIT)
          .execute(),
        // Bounded: counting the whole subtree of a house with a million organizations costs
        // a full scan; the Hierarchy view only needs "more than the cap".
        db
          .selectFrom((eb) =>
            eb
              .selectFrom('organizations')
              .select('id')
              .where('path', 'like', `${likeEscape(node.path)}%`)
              .where('id', '<>', node.id)
              .where('deleted_at', 'is', null)
              .limit(TREE_DESCENDANT_COUNT_CAP + 1)
              .as('d'),
          )
          .select(sql<number>`count(*)::int`.as('n'))
          .executeTakeFirstOrThrow(),
        count(db.selectFrom('organizations').where('parent_org_id', '=', node.id)),
      ]);
      return {
        node: {
          id: node.id,
          name: node.name,
          org_type: node.org_type,
          status: node.status,
          parent_org_id: node.parent_org_id,
          child_count: directCount.n,
          descendant_count: descendants.n,
        },
        children,
      };
    },

    /** Everyone reads their own organization; another one of the subtree takes organizations.get (403 before reading). */
    async get(caller: Caller, id: string): Promise<OrganizationDetail> {
      if (!mayReadOrganization(caller, { id })) throw new ForbiddenError();
      return detail(caller, await visible(caller, id));
    },

    /** Creates a direct child of the caller's organization, with its billing settings. */
    async create(
      caller: Caller,
      input: CreateOrganizationInput,
      info: ClientInfo,
      /** Runs in the same transaction once the child exists (the initial balance). */
      onCreated?: (trx: Transaction<DB>, child: { id: string; name: string }) => Promise<void>,
    ): Promise<OrganizationDetail> {
      const parentType = caller.organization.org_type;
      const childType = childTypeOf(parentType);
      if (!childType) throw new ForbiddenError(m.cannotCreateChildren(parentType));
      if (!mayCreateChildOrganization(caller)) throw new ForbiddenError();
      if (input.org_type !== childType) throw new RuleError(m.wrongChildType(parentType, childType));
      return db.transaction().execute(async (trx) => {
        const created = await trx
          .insertInto('organizations')
          .values({
            name: input.name,
            description: input.description || null,
            org_type: childType,
            parent_org_id: caller.organization.id,
            parent_org_type: parentType,
            disable_parent_invites: input.disable_parent_invites ?? false,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        // The insert's foreign key waited for a deletion of the parent under way: read the
        // parent only now, so a child is never created under an organization deleted meanwhile.
        const parent = await trx.selectFrom('organizations').select('deleted_at').where('id', '=', caller.organization.id).executeTakeFirstOrThrow();
        if (parent.deleted_at) throw new NotFoundError(m.notFound);
        await trx.insertInto('organization_billing_settings').values({ organization_id: created.id }).execute();
        await writeAudit(trx, {
          actorUserId: caller.userId,
          organizationId: created.id,
          action: 'organization.create',
          targetType: 'organization',
          targetId: created.id,
          details: { name: input.name, org_type: childType, parent_org_id: caller.organization.id },
          ...info,
        });
        await onCreated?.(trx, { id: created.id, name: input.name });
        return detail(caller, await visible(caller, created.id, trx), trx);
      });
    },

    /** Edits reach the caller's own organization and its direct children, not grandchildren. */
    async update(caller: Caller, id: string, input: UpdateOrganizationInput, info: ClientInfo): Promise<OrganizationDetail> {
      return db.transaction().execute(async (trx) => {
        const target = await visible(caller, id, trx);
        if (!mayEditOrganization(caller, target)) throw new ForbiddenError(m.onlyOwnOrDirectChild);
        // Sending the status an organization already has changes nothing, so it needs no right.
        if (input.status !== undefined && input.status !== target.status && !mayChangeOrganizationStatus(caller, target)) {
          throw new ForbiddenError(m.statusOnlyParentAdmins);
        }
        const changes = {
          ...(input.name !== undefined && { name: input.name }),
          ...(input.description !== undefined && { description: input.description || null }),
          ...(input.status !== undefined && { status: input.status }),
          ...(input.disable_parent_invites !== undefined && { disable_parent_invites: input.disable_parent_invites }),
        };
        await trx
          .updateTable('organizations')
          .set({ ...changes, updated_at: sql`now()` })
          .where('id', '=', target.id)
          .execute();
        await writeAudit(trx, {
          actorUserId: caller.userId,
          organizationId: target.id,
          action: 'organization.update',
          targetType: 'organization',
          targetId: target.id,
          details: {
            before: Object.fromEntries(Object.keys(changes).map((k) => [k, target[k as keyof OrgRow]])),
            after: changes,
          },
          ...info,
        });
        return detail(caller, await visible(caller, target.id, trx), trx);
      });
    },

    /**
     * A soft delete, by admins of the parent only, of an organization that has no live
     * children, no active users and no credits left. Its balance row is locked first, then
     * its own row, the order every movement takes (balance rows, then the organizations'
     * rows through the ledger's foreign key), so a deletion and a movement never wait on
     * each other in a cycle; everything is read again once both are held.
     */
    async remove(caller: Caller, id: string, info: ClientInfo): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const target = await visible(caller, id, trx);
        if (!mayDeleteOrganization(caller, target)) throw new ForbiddenError(m.deleteOnlyParentAdmins);
        const balance = await trx
          .selectFrom('organization_billing_settings')
          .select('credit_balance')
          .where('organization_id', '=', target.id)
          .forUpdate()
          .executeTakeFirstOrThrow();
        // A child created meanwhile waits on this lock (its foreign key), then sees the parent gone.
        const live = await trx
          .selectFrom('organizations')
          .select('id')
          .where('id', '=', target.id)
          .where('deleted_at', 'is', null)
          .forUpdate()
          .executeTakeFirst();
        if (!live) throw new NotFoundError(m.notFound);
        const blockers = await trx
          .selectNoFrom([
            sql<boolean>`exists (select 1 from organizations where parent_org_id = ${target.id} and deleted_at is null)`.as('children'),
            sql<boolean>`exists (select 1 from users where organization_id = ${target.id} and status = 'active' and deleted_at is null)`.as('users'),
          ])
          .executeTakeFirstOrThrow();
        if (blockers.children) throw new RuleError(m.deleteHasChildren);
        if (blockers.users) throw new RuleError(m.deleteHasActiveUsers);
        if (balance.credit_balance !== '0.00') throw new RuleError(m.deleteHasBalance);
        await trx
          .updateTable('organizations')
          .set({ deleted_at: sql`now()`, updated_at: sql`now()` })
          .where('id', '=', target.id)
          .execute();
        // Its pending invitations go with it, so no link leads into a deleted organization
        // (taken after the organization's lock, the order acceptance locks them in).
        const revoked = await trx
          .updateTable('invitations')
          .set({ status: 'revoked', revoked_at: sql`now()` })
          .where('organization_id', '=', target.id)
          .where('status', '=', 'pending')
          .returning('id')
          .execute();
        // Its live activations end and its API keys are revoked, so nothing of it keeps
        // counting against a limit or answering a runtime should it ever be restored
        // (activations wait on the balance row held above).
        const deactivated = await trx
          .updateTable('agent_activations')
          .set({ deactivated_at: sql`now()`, deactivated_by: caller.userId, status: 'inactive' })
          .where('organization_id', '=', target.id)
          .where('deactivated_at', 'is', null)
          .returning('id')
          .execute();
        const keys = await trx
          .updateTable('api_keys')
          .set({ revoked_at: sql`now()`, revoked_by: caller.userId })
          .where('organization_id', '=', target.id)
          .where('revoked_at', 'is', null)
          .returning('id')
          .execute();
        await writeAudit(trx, {
          actorUserId: caller.userId,
          organizationId: target.id,
          action: 'organization.delete',
          targetType: 'organization',
          targetId: target.id,
          details: { name: target.name, revoked_invitations: revoked.length, deactivated_agents: deactivated.length, revoked_api_keys: keys.length },
          ...info,
        });
      });
    },

    /** The debug page's cross-check of direct children against the descendant procedure. */
    async verifyChildren(caller: Caller, id: string): Promise<VerifyChildren> {
      if (!mayOpenDebug(caller)) throw new ForbiddenError(m.debugOnly);
      const parent = await visible(caller, id);
      const [children, ids, direct] = await Promise.all([
        db
          .selectFrom('organizations')
          .select(['id', 'name', 'org_type', 'status'])
          .where('parent_org_id', '=', parent.id)
          .where('deleted_at', 'is', null)
          .orderBy('name')
          .limit(TREE_CHILDREN_LIMIT)
          .execute(),
        this.getDescendantOrgIdsOrSelf(parent.id),
        db
          .selectFrom('organizations')
          .select(sql<number>`count(*)::int`.as('n'))
          .where('parent_org_id', '=', parent.id)
          .where('deleted_at', 'is', null)
          .executeTakeFirstOrThrow(),
      ]);
      return {
        parentOrganization: { id: parent.id, name: parent.name, org_type: parent.org_type },
        childOrganizations: children,
        summary: { directChildrenCount: direct.n, rpcReturnedIds: ids.length, childOrgsRetrieved: children.length },
      };
    },
  };
}

export type OrganizationsService = ReturnType<typeof createOrganizationsService>;
