import { STATEMENT_GROUP_KINDS, fromCents, pricingViewOf, toCents, type Statement, type StatementGroup } from '@console/domain';
import type { Caller } from '../../lib/caller.ts';
import { periodOf } from './period.ts';
import { readBounds, readGroups, type GroupRow, type StatementsDeps } from './queries.ts';

const ORDER = new Map(STATEMENT_GROUP_KINDS.map((kind, index) => [kind, index]));

function toGroup(row: GroupRow): StatementGroup {
  return {
    kind: row.kind,
    counterparty: row.counterparty_id ? { id: row.counterparty_id, name: row.counterparty_name ?? row.counterparty_id } : null,
    agent: row.agent_id ? { id: row.agent_id, name: row.agent_name ?? row.agent_id } : null,
    units: row.units,
    unit_price: row.unit_price,
    entries: row.entries,
    amount: row.amount,
  };
}

/** By kind in the statement's order, then by the other organization's or the agent's name (an unnamed group last), then id. */
function byKindThenName(a: StatementGroup, b: StatementGroup): number {
  const kind = ORDER.get(a.kind)! - ORDER.get(b.kind)!;
  if (kind !== 0) return kind;
  const nameOf = (g: StatementGroup) => g.counterparty?.name ?? g.agent?.name ?? null;
  const [x, y] = [nameOf(a), nameOf(b)];
  if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
  const name = x.localeCompare(y, 'en');
  if (name !== 0) return name;
  const idOf = (g: StatementGroup) => g.counterparty?.id ?? g.agent?.id ?? '';
  return idOf(a) < idOf(b) ? -1 : idOf(a) > idOf(b) ? 1 : 0;
}

/**
 * An organization's statement of a month. Its readers are those of its ledger: its own people
 * and those above it holding billing.view (the route checks the permission, `visible` the
 * reach, 404 beyond it). What a viewer from above may not see of the organization's margins
 * and prices is withheld as on its ledger: its earnings are one group without the child they
 * came through, and the price per unit of its consumption is left out where the ledger hides it.
 */
export function createStatement({ db, organizations }: StatementsDeps) {
  async function statement(caller: Caller, organizationId: string, month: string): Promise<Statement> {
    const period = periodOf(month);
    const org = await organizations.visible(caller, organizationId);
    const view = pricingViewOf(caller, org);
    // One snapshot and one now() for both reads, so the groups are exactly the entries between the two balances.
    const { bounds, rows } = await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const bounds = await readBounds(trx, org.id, period);
        return { bounds, rows: await readGroups(trx, org.id, period, view) };
      });
    const groups = rows.map(toGroup).sort(byKindThenName);

    let credited = 0n;
    let debited = 0n;
    for (const group of groups) {
      const cents = toCents(group.amount);
      if (cents > 0n) credited += cents;
      else debited += cents;
    }
    // The groups are read from the same entries as the balances: a difference means the ledger's
    // balance_after no longer follows its amounts, which only a change outside the one ledger
    // writer can do (reconciliation names where). The statement says so rather than hiding it.
    const closes = toCents(bounds.opening) + credited + debited === toCents(bounds.closing);
    return {
      organization: { id: org.id, name: org.name, org_type: org.org_type },
      month,
      period_start: period.start,
      period_end: period.end,
      partial: bounds.partial,
      opening_balance: bounds.opening,
      closing_balance: bounds.closing,
      credits_in: fromCents(credited),
      credits_out: fromCents(debited),
      groups,
      entries: groups.reduce((sum, group) => sum + group.entries, 0),
      verification_code: bounds.code,
      closes,
    };
  }

  return { statement };
}
