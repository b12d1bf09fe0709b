import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { useWorld } from '../test/harness.ts';
import { insertAgentType } from '../test/usage-rows.ts';

/**
 * The database's own guards on money and limits, independent of the services' checks: each
 * statement below is valid but for one CHECK constraint, written straight to the database,
 * and is refused with check_violation (23514) naming that constraint. Were the constraint
 * dropped, the statement would succeed and the test would fail.
 */
const w = useWorld();
const db = () => w.t.database.db;

async function violation(run: () => Promise<unknown>): Promise<{ code?: string; constraint?: string }> {
  try {
    await run();
  } catch (error) {
    const e = error as { code?: string; constraint?: string };
    return { code: e.code, constraint: e.constraint };
  }
  return { code: 'none: the statement succeeded' };
}

let agentTypeId = '';
let house = '';

beforeAll(async () => {
  house = w.id('H');
  agentTypeId = (await insertAgentType(db(), 'constrained', '1.0000')).id;
});

/** A ledger entry of the house, valid unless `override` breaks it. */
const entry = (override: Record<string, unknown>) => {
  const row = {
    amount: '1.00',
    entry_type: 'adjustment_increase',
    balance_after: '1.00',
    refund_of: null,
    agent_type_id: null,
    units: null,
    ...override,
  };
  return () =>
    sql`insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, balance_after, refund_of, agent_type_id, units)
        values (${house}, ${row.amount}, ${row.entry_type}, gen_random_uuid(), ${row.balance_after}, ${row.refund_of}, ${row.agent_type_id}, ${row.units})`.execute(
      db(),
    );
};

describe('credit ledger entries', () => {
  it('the valid entry these tests start from is accepted (in a transaction rolled back)', async () => {
    const outcome = await violation(() =>
      db()
        .transaction()
        .execute(async (trx) => {
          await sql`insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, balance_after)
                  values (${house}, 1, 'adjustment_increase', gen_random_uuid(), 1)`.execute(trx);
          throw Object.assign(new Error('rollback'), { code: 'rolled back' });
        }),
    );
    expect(outcome.code).toBe('rolled back');
  });

  it.each([
    ['a negative balance_after', { balance_after: '-0.01' }, 'credit_ledger_entries_balance_after_check'],
    ['a zero amount', { amount: '0' }, 'credit_ledger_entries_amount_check'],
    ['an increase with a negative amount', { amount: '-1.00' }, 'credit_ledger_entries_check'],
    ['a consumption with a positive amount', { entry_type: 'consumption', amount: '1.00' }, 'credit_ledger_entries_check'],
    ['a refund_of on an entry that is not a refund', { refund_of: 'x' }, 'credit_ledger_refund_of_check'],
    ['an agent type on an entry that is not a consumption', { agent_type_id: 'AGENT', units: '1' }, 'credit_ledger_agent_check'],
    ['units without an agent type', { entry_type: 'consumption', amount: '-1.00', units: '1' }, 'credit_ledger_agent_check'],
  ])('%s is refused', async (_name, override, constraint) => {
    const row = { ...override } as Record<string, unknown>;
    if (row.agent_type_id === 'AGENT') row.agent_type_id = agentTypeId;
    expect(await violation(entry(row))).toEqual({ code: '23514', constraint });
  });
});

describe('balances and limits', () => {
  it.each([
    ['a negative credit balance', sql`credit_balance = -0.01`, 'organization_billing_settings_credit_balance_check'],
    ['a negative activated agent limit', sql`activated_agent_limit = -1`, 'organization_billing_settings_activated_agent_limit_check'],
    ['a negative low-balance threshold', sql`low_balance_threshold = -1`, 'organization_billing_settings_low_balance_threshold_check'],
  ])('%s is refused', async (_name, assignment, constraint) => {
    expect(
      await violation(() => sql`update organization_billing_settings set ${assignment} where organization_id = ${house}`.execute(db())),
    ).toEqual({ code: '23514', constraint });
  });

  it.each([
    ['a negative carry', '-0.00000001'],
    ['a carry of a whole cent', '0.01'],
  ])('%s is refused', async (_name, carry) => {
    expect(
      await violation(() =>
        sql`insert into usage_carry (organization_id, agent_type_id, carry) values (${house}, ${agentTypeId}, ${carry})`.execute(db()),
      ),
    ).toEqual({ code: '23514', constraint: 'usage_carry_carry_check' });
  });

  it('a negative price is refused', async () => {
    expect(
      await violation(() =>
        sql`insert into agent_prices (agent_type_id, effective_from, price) values (${agentTypeId}, now(), -1)`.execute(db()),
      ),
    ).toEqual({ code: '23514', constraint: 'agent_prices_price_check' });
  });

  it('a negative subtree count is refused', async () => {
    expect(await violation(() => sql`update organization_subtree_counts set n = -1 where ancestor_id = ${house}`.execute(db()))).toEqual({
      code: '23514',
      constraint: 'organization_subtree_counts_n_check',
    });
  });
});

describe('usage events', () => {
  const event = (units: string, charged: string) => () =>
    sql`insert into usage_events (organization_id, client_event_id, source, agent_type_id, units, price, cost, charged, occurred_at)
        values (${house}, ${`constraint-${units}-${charged}`}, 'key', ${agentTypeId}, ${units}, 1, 0, ${charged}, now())`.execute(db());

  it('zero units are refused', async () => {
    expect(await violation(event('0', '0'))).toEqual({ code: '23514', constraint: 'usage_events_units_check' });
  });

  it('a charge without its consumption entry is refused', async () => {
    expect(await violation(event('1', '1.00'))).toEqual({ code: '23514', constraint: 'usage_events_check' });
  });
});

describe('uniqueness the usage engine relies on', () => {
  const usageEventId = (org: string, source: string, clientEventId: string) =>
    sql`insert into usage_event_ids (organization_id, source, client_event_id, event_id, occurred_at, charged)
        values (${org}, ${source}, ${clientEventId}, gen_random_uuid(), now(), 0)`.execute(db());

  it("a second id of the same organization and reporter is refused; another organization's, or the other reporter's, is another event", async () => {
    expect(await violation(() => usageEventId(house, 'key', 'unique-replayed'))).toEqual({ code: 'none: the statement succeeded' });
    expect(await violation(() => usageEventId(house, 'key', 'unique-replayed'))).toEqual({
      code: '23505',
      constraint: 'usage_event_ids_pkey',
    });
    expect(await violation(() => usageEventId(w.id('H2'), 'key', 'unique-replayed'))).toEqual({ code: 'none: the statement succeeded' });
    expect(await violation(() => usageEventId(house, 'import', 'unique-replayed'))).toEqual({ code: 'none: the statement succeeded' });
    expect(await violation(() => usageEventId(house, 'other', 'unique-other'))).toEqual({
      code: '23514',
      constraint: 'usage_event_ids_source_check',
    });
  });

  it('a second live activation of the same agent type in one organization is refused; after a deactivation one more is allowed', async () => {
    const org = w.id('SA2');
    const activation = (deactivated: boolean) => () =>
      sql`insert into agent_activations (organization_id, agent_type_id, status, deactivated_at)
          values (${org}, ${agentTypeId}, 'active', ${deactivated ? sql`now()` : sql`null`})`.execute(db());
    expect(await violation(activation(false))).toEqual({ code: 'none: the statement succeeded' });
    expect(await violation(activation(false))).toEqual({ code: '23505', constraint: 'agent_activations_live_key' });
    // Ended activations do not count: any number of them beside the live one.
    expect(await violation(activation(true))).toEqual({ code: 'none: the statement succeeded' });
    expect(await violation(activation(true))).toEqual({ code: 'none: the statement succeeded' });
    const live = await sql<{ n: number }>`
      select count(*)::int as n from agent_activations where organization_id = ${org} and agent_type_id = ${agentTypeId} and deactivated_at is null`.execute(
      db(),
    );
    expect(live.rows[0]!.n).toBe(1);
  });
});

describe('API key scopes', () => {
  const key = (scopes: string[]) => () =>
    sql`insert into api_keys (organization_id, name, prefix, secret_hash, scopes)
        values (${house}, 'scoped', ${`ck_scope_${scopes.join('_')}_${scopes.length}`}, 'hash', ${scopes}::text[])`.execute(db());

  it('a key with known scopes is accepted', async () => {
    expect(await violation(key(['usage:write', 'entitlements:read']))).toEqual({ code: 'none: the statement succeeded' });
  });

  it.each([
    ['an unknown scope', ['usage:write', 'admin:all']],
    ['only an unknown scope', ['credits:write']],
    ['no scope at all', []],
  ])('a key with %s is refused', async (_name, scopes) => {
    expect(await violation(key(scopes))).toEqual({ code: '23514', constraint: 'api_keys_scopes_check' });
  });

  it.each([
    ['an unknown scope', ['agents:report', 'usage:delete']],
    ['no scope at all', []],
  ])("a key's scopes changed to %s are refused", async (_name, scopes) => {
    // The key the first test of this block accepted: the update names one row.
    expect(
      await violation(() =>
        sql`update api_keys set scopes = ${scopes}::text[] where organization_id = ${house} and name = 'scoped'`.execute(db()),
      ),
    ).toEqual({ code: '23514', constraint: 'api_keys_scopes_check' });
  });
});
