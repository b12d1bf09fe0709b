import { sql } from 'kysely';
import {
  earningFromAboveSentence,
  ledgerRowAsSeen,
  ledgerSentence,
  personName,
  pricingViewOf,
  type LedgerEntry,
  type LedgerPage,
  type LedgerRow,
  type LedgerParams,
  type PricingView,
} from '@console/domain';
import type { Executor } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { BadRequestError } from '../../lib/errors.ts';
import { likeEscape, upperBound } from '../../lib/sql.ts';
import { c, toEntry, type CreditsDeps, type EntryRow } from './queries.ts';

/** The ledger of an organization in scope: a page of it, or every entry for the CSV export. */
export function createLedger({ db, organizations }: Pick<CreditsDeps, 'db' | 'organizations'>) {
  function ledgerQuery(executor: Executor, organizationId: string, view: PricingView, params: LedgerParams) {
    let query = executor.selectFrom('credit_ledger_entries').selectAll().where('organization_id', '=', organizationId);
    // An earning seen from above names no agent (the margins rule), so neither filter finds it by one.
    if (!view.margins && (params.agent_type_id || params.q)) query = query.where('entry_type', '<>', 'earning');
    if (params.entry_type) query = query.where('entry_type', '=', params.entry_type);
    // Served by the partial index of entries that name an agent type.
    if (params.agent_type_id) query = query.where('agent_type_id', '=', params.agent_type_id);
    if (params.from) query = query.where('created_at', '>=', new Date(params.from).toISOString());
    if (params.to) query = query.where('created_at', '<', new Date(upperBound(params.to)).toISOString());
    if (params.amount_min !== undefined) query = query.where('amount', '>=', String(params.amount_min));
    if (params.amount_max !== undefined) query = query.where('amount', '<=', String(params.amount_max));
    if (params.q) {
      const pattern = `%${likeEscape(params.q)}%`;
      // Within the organization's entries (and the other filters): what a person typed in a note,
      // a reason, the other organization's name, the agent's code or the external reference; or
      // exactly the id of a usage event, which finds the consumption entry that charged it.
      query = query.where(
        sql<boolean>`(metadata->>'notes' ilike ${pattern} or metadata->>'reason' ilike ${pattern} or metadata->>'to_org_name' ilike ${pattern}
          or metadata->>'from_org_name' ilike ${pattern} or metadata->>'agent' ilike ${pattern} or external_ref ilike ${pattern}
          or id in (select u.ledger_entry_id from usage_events u where u.organization_id = ${organizationId} and u.client_event_id = ${params.q.trim()}))`,
      );
    }
    return query;
  }

  /** Newest first, keyed by (created_at, seq): a page costs the same at any depth. */
  async function page(
    executor: Executor,
    organizationId: string,
    view: PricingView,
    params: LedgerParams,
    cursor: string | undefined,
    limit: number,
  ) {
    let query = ledgerQuery(executor, organizationId, view, params);
    if (cursor !== undefined) {
      // A cursor is a seq: a bigint, so 19 digits may still overflow it.
      if (!/^\d{1,19}$/.test(cursor) || BigInt(cursor) > 2n ** 63n - 1n) throw new BadRequestError(c.invalidCursor);
      query = query.where(
        sql<boolean>`(created_at, seq) < (select c.created_at, c.seq from credit_ledger_entries c where c.seq = ${cursor}::bigint)`,
      );
    }
    const rows = await query
      .orderBy('created_at', 'desc')
      .orderBy('seq', 'desc')
      .limit(limit + 1)
      .execute();
    const more = rows.length > limit;
    const shown = more ? rows.slice(0, limit) : rows;
    return { rows: shown, nextCursor: more ? String(shown[shown.length - 1]!.seq) : null };
  }

  const readable = (caller: Caller, organizationId: string | undefined) =>
    organizations.visible(caller, organizationId ?? caller.organization.id);

  /**
   * The page's entries as the ledger shows them: the person who moved the credits, the other
   * organization of an allocation (by its name now, and whether the caller may open it) and
   * the sentence naming a consumption's agent from the catalog, and an allocation's reversal.
   * Four reads for the whole page, by primary key or index. Each entry is what `view` allows
   * first (the margins rule), so nothing withheld reaches the sentence.
   */
  async function described(caller: Caller, view: PricingView, shownRows: EntryRow[]): Promise<LedgerEntry[]> {
    const rows = shownRows.map((row) => ledgerRowAsSeen(toEntry(row), view));
    const counterpartyOf = (row: LedgerRow) => {
      const meta = (row.metadata ?? {}) as { to_org_id?: unknown; from_org_id?: unknown };
      const id =
        row.entry_type === 'allocation_sent' || row.entry_type === 'reversal_sent'
          ? meta.to_org_id
          : row.entry_type === 'allocation_received' || row.entry_type === 'initial_balance' || row.entry_type === 'reversal_received'
            ? meta.from_org_id
            : null;
      return typeof id === 'string' ? id : null;
    };
    const userIds = [...new Set(rows.map((row) => row.created_by).filter((id): id is string => !!id))];
    const orgIds = [...new Set(rows.map(counterpartyOf).filter((id): id is string => !!id))];
    const agentIds = [...new Set(rows.map((row) => row.agent_type_id).filter((id): id is string => !!id))];
    const allocations = [
      ...new Set(
        rows
          .filter((row) => row.entry_type === 'allocation_sent' || row.entry_type === 'allocation_received')
          .map((row) => row.transaction_group),
      ),
    ];
    const [people, orgs, agents, reversals] = await Promise.all([
      userIds.length ? db.selectFrom('users').select(['id', 'first_name', 'last_name', 'email']).where('id', 'in', userIds).execute() : [],
      orgIds.length ? db.selectFrom('organizations').select(['id', 'name', 'path', 'deleted_at']).where('id', 'in', orgIds).execute() : [],
      agentIds.length ? db.selectFrom('agent_types').select(['id', 'name', 'unit']).where('id', 'in', agentIds).execute() : [],
      // Served by the unique index of reversed allocations.
      allocations.length
        ? sql<{ reverses: string; transaction_group: string }>`
            select metadata->>'reverses_transaction_id' as reverses, transaction_group from credit_ledger_entries
            where entry_type = 'reversal_sent' and metadata->>'reverses_transaction_id' in (${sql.join(allocations)})`
            .execute(db)
            .then((result) => result.rows)
        : [],
    ]);
    const reversalOf = new Map(reversals.map((reversal) => [reversal.reverses, reversal.transaction_group]));
    const agentById = new Map(agents.map((agent) => [agent.id, agent]));
    const personById = new Map(people.map((person) => [person.id, { id: person.id, name: personName(person), email: person.email }]));
    const orgById = new Map(
      orgs.map((org) => [
        org.id,
        { id: org.id, name: org.name, in_scope: !org.deleted_at && org.path.startsWith(caller.organization.path) },
      ]),
    );
    return rows.map((entry) => {
      const withheld = entry.entry_type === 'earning' && !view.margins;
      const actor = entry.created_by ? (personById.get(entry.created_by) ?? null) : null;
      const otherId = counterpartyOf(entry);
      const meta = entry.metadata as { to_org_name?: unknown; from_org_name?: unknown };
      const storedName =
        typeof (meta.to_org_name ?? meta.from_org_name) === 'string' ? String(meta.to_org_name ?? meta.from_org_name) : null;
      const counterparty = otherId ? (orgById.get(otherId) ?? { id: otherId, name: storedName ?? otherId, in_scope: false }) : null;
      const agent = entry.agent_type_id ? (agentById.get(entry.agent_type_id) ?? null) : null;
      const description = withheld
        ? earningFromAboveSentence(entry.amount)
        : ledgerSentence({ ...entry, actor: actor?.name ?? null, counterparty: counterparty?.name ?? null, agent });
      return { ...entry, actor, counterparty, description, reversed_by: reversalOf.get(entry.transaction_group) ?? null };
    });
  }

  async function ledger(caller: Caller, params: LedgerParams): Promise<LedgerPage> {
    const org = await readable(caller, params.organization_id);
    const view = pricingViewOf(caller, org);
    const { rows, nextCursor } = await page(db, org.id, view, params, params.cursor, params.limit);
    return {
      entries: await described(caller, view, rows),
      next_cursor: nextCursor,
      credit_balance: org.credit_balance,
      low_balance_threshold: org.low_balance_threshold,
    };
  }

  /** Every filtered entry, newest first, fetched a page at a time so memory stays flat. */
  async function* exportRows(caller: Caller, params: LedgerParams): AsyncGenerator<LedgerEntry> {
    const org = await readable(caller, params.organization_id);
    const view = pricingViewOf(caller, org);
    let cursor: string | undefined;
    do {
      const batch = await page(db, org.id, view, params, cursor, 1000);
      for (const entry of await described(caller, view, batch.rows)) yield entry;
      cursor = batch.nextCursor ?? undefined;
    } while (cursor);
  }

  return { ledger, exportRows };
}
