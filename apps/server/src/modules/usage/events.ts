import { sql, type Kysely } from 'kysely';
import { pricingViewOf, usageEventAsSeen, type PricingView, type UsageEventRow, type UsageEventsPage } from '@console/domain';
import type { DB } from '../../db/schema.ts';
import type { VerifiedKey } from '../../lib/api-key.ts';
import type { Caller } from '../../lib/caller.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { upperBound } from '../../lib/sql.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';

/** What narrows a list of stored events, whoever asks. */
export interface EventFilters {
  agent_type_id?: string;
  /** An agent type's code, as the machine API names agents. */
  agent?: string;
  ledger_entry_id?: string;
  from?: string;
  to?: string;
}

/**
 * The stored usage events of one organization, newest occurrence first, keyed by
 * (occurred_at, id): a page costs the same at any depth, served by the index on
 * (organization_id, occurred_at desc, id desc). The console reads the organizations its
 * caller may see; a key reads its own organization and those below it.
 */
export function createUsageEvents({ db, organizations }: { db: Kysely<DB>; organizations: OrganizationsService }) {
  async function page(organizationId: string, view: PricingView, filters: EventFilters, cursor: string | undefined, limit: number) {
    let query = db
      .selectFrom('usage_events as e')
      .innerJoin('agent_types as t', 't.id', 'e.agent_type_id')
      .select([
        'e.id as row_id',
        'e.client_event_id as id',
        'e.organization_id',
        't.code as agent',
        'e.agent_type_id',
        't.unit',
        'e.units',
        'e.price',
        'e.charged as credits_charged',
        'e.occurred_at',
        'e.received_at',
        'e.ledger_entry_id',
        'e.metadata',
      ])
      .where('e.organization_id', '=', organizationId);
    if (filters.agent_type_id) query = query.where('e.agent_type_id', '=', filters.agent_type_id);
    if (filters.agent) query = query.where('t.code', '=', filters.agent);
    if (filters.ledger_entry_id) query = query.where('e.ledger_entry_id', '=', filters.ledger_entry_id);
    if (filters.from) query = query.where('e.occurred_at', '>=', new Date(filters.from).toISOString());
    if (filters.to) query = query.where('e.occurred_at', '<', new Date(upperBound(filters.to)).toISOString());
    if (cursor !== undefined) {
      // A cursor of another organization, or of none, names no place in this list: the list starts over empty.
      query = query.where(
        sql<boolean>`(e.occurred_at, e.id) < (select c.occurred_at, c.id from usage_events c where c.id = ${cursor} and c.organization_id = ${organizationId})`,
      );
    }
    const rows = await query
      .orderBy('e.occurred_at', 'desc')
      .orderBy('e.id', 'desc')
      .limit(limit + 1)
      .execute();
    const more = rows.length > limit;
    const shown = more ? rows.slice(0, limit) : rows;
    const events: UsageEventRow[] = shown.map(({ row_id: _, metadata, ...event }) =>
      usageEventAsSeen({ ...event, metadata: (metadata ?? {}) as Record<string, unknown> }, view),
    );
    return { events, next_cursor: more ? shown[shown.length - 1]!.row_id : null };
  }

  /** A page of the events of an organization the caller may see (its own by default); 404 otherwise. */
  async function listForCaller(
    caller: Caller,
    query: EventFilters & { organization_id?: string; cursor?: string; limit: number },
  ): Promise<UsageEventsPage> {
    const org = await organizations.visible(caller, query.organization_id ?? caller.organization.id);
    const { events, next_cursor } = await page(org.id, pricingViewOf(caller, org), query, query.cursor, query.limit);
    return { events, next_cursor };
  }

  /** A page of the events of an organization within the key's reach and not deleted; 404 otherwise. */
  async function listForKey(
    key: VerifiedKey,
    query: EventFilters & { organization_id: string; cursor?: string; limit: number },
  ): Promise<UsageEventsPage> {
    const org = await db
      .selectFrom('organizations')
      .select(['id', 'parent_org_id'])
      .where('id', '=', query.organization_id)
      .where('deleted_at', 'is', null)
      .where(sql<boolean>`starts_with(path, ${key.organization.path})`)
      .executeTakeFirst();
    if (!org) throw new NotFoundError();
    // A key sees what the people of its organization see.
    const { events, next_cursor } = await page(org.id, pricingViewOf(key, org), query, query.cursor, query.limit);
    return { events, next_cursor };
  }

  /** Every filtered event of an organization the caller may see, a thousand at a time so memory stays flat. */
  async function* exportForCaller(caller: Caller, query: EventFilters & { organization_id?: string }): AsyncGenerator<UsageEventRow> {
    const org = await organizations.visible(caller, query.organization_id ?? caller.organization.id);
    const view = pricingViewOf(caller, org);
    let cursor: string | undefined;
    do {
      const batch = await page(org.id, view, query, cursor, 1000);
      yield* batch.events;
      cursor = batch.next_cursor ?? undefined;
    } while (cursor);
  }

  return { listForCaller, listForKey, exportForCaller };
}
