/**
 * Crash: allocations from many concurrent clients, the server SIGKILLed mid-load a few
 * times, restarted on the same database. No acknowledged allocation may be lost, none
 * may be half-written, credits are conserved, and a retry with the same
 * Idempotency-Key after the restart moves credits exactly once.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  amountOf,
  api,
  createDatabase,
  creditTotals,
  freePort,
  fundedHouse,
  halfWrittenGroups,
  killServers,
  must,
  reconcileDatabase,
  signIn,
  sleep,
  startServer,
  withClient,
  writeResults,
  type FreshDatabase,
  type ServerProcess,
} from './harness.ts';

const CLIENTS = 20;
const CHILDREN = 5;
const KILLS = 3;
/** Each round runs at least this long and acknowledges at least MIN_ACKED before the kill. */
const MIN_LOAD_MS = 1500;
const MIN_ACKED = 50;
const FUNDS_CENTS = 100_000_000;
const INITIAL_BALANCE_CENTS = 10_000;

interface Attempt {
  key: string;
  round: number;
  body: { from_org_id: string; to_org_id: string; amount: string; notes: string };
  cents: number;
  state: 'in_flight' | 'acknowledged' | 'failed' | 'refused';
  transactionId?: string;
}

let database: FreshDatabase;
let port: number;

beforeAll(async () => {
  database = await createDatabase();
  port = await freePort();
});

afterAll(async () => {
  await killServers();
  await database?.drop();
});

/** CLIENTS loops posting allocations until stop() is called; every attempt is recorded. */
function allocationLoad(server: ServerProcess, token: string, houseId: string, children: string[], round: number, attempts: Attempt[]) {
  let stopped = false;
  let counter = 0;
  const inFlight = new Set<Attempt>();
  const client = async (id: number) => {
    while (!stopped) {
      const cents = 1 + Math.floor(Math.random() * 1000);
      const attempt: Attempt = {
        key: `crash-${round}-${id}-${counter++}`,
        round,
        body: { from_org_id: houseId, to_org_id: children[counter % children.length]!, amount: amountOf(cents), notes: `crash round ${round}` },
        cents,
        state: 'in_flight',
      };
      attempts.push(attempt);
      inFlight.add(attempt);
      try {
        const result = await api<{ transaction_id: string }>(server.url, 'POST', '/api/credits/allocations', {
          token,
          body: attempt.body,
          headers: { 'idempotency-key': attempt.key },
        });
        attempt.state = result.status === 200 ? 'acknowledged' : 'refused';
        attempt.transactionId = result.body.transaction_id;
      } catch {
        attempt.state = 'failed';
      } finally {
        inFlight.delete(attempt);
      }
    }
  };
  const clients = Promise.all(Array.from({ length: CLIENTS }, (_, id) => client(id)));
  return {
    acknowledged: () => attempts.filter((a) => a.round === round && a.state === 'acknowledged').length,
    /** Stops sending; returns how many were in flight at that instant. */
    stop: () => {
      stopped = true;
      return inFlight.size;
    },
    done: clients,
  };
}

test(`${KILLS} SIGKILLs under ${CLIENTS} concurrent allocation clients lose nothing acknowledged`, async () => {
  let server = await startServer({ databaseUrl: database.url, port });
  const token = await signIn(server.url);
  const { houseId, children } = await fundedHouse(server.url, token, {
    suite: 'Crash',
    fundsCents: FUNDS_CENTS,
    children: CHILDREN,
    firstInitialCents: INITIAL_BALANCE_CENTS,
  });

  const attempts: Attempt[] = [];
  const rounds = [];
  for (let round = 1; round <= KILLS; round++) {
    if (round > 1) server = await startServer({ databaseUrl: database.url, port });
    const load = allocationLoad(server, token, houseId, children, round, attempts);
    const started = Date.now();
    while (Date.now() - started < MIN_LOAD_MS || load.acknowledged() < MIN_ACKED) await sleep(50);
    await sleep(Math.random() * 500);
    const inFlightAtKill = load.stop();
    server.signal('SIGKILL');
    await load.done;
    const exit = await server.exited;
    expect(exit.signal).toBe('SIGKILL');
    const mine = attempts.filter((a) => a.round === round);
    rounds.push({
      round,
      loadMs: Date.now() - started,
      sent: mine.length,
      acknowledged: mine.filter((a) => a.state === 'acknowledged').length,
      inFlightAtKill,
      failed: mine.filter((a) => a.state === 'failed').length,
      refused: mine.filter((a) => a.state === 'refused').length,
    });
  }

  server = await startServer({ databaseUrl: database.url, port });
  const afterRestart = await reconcileDatabase(database.url);
  const totalsAfterRestart = await creditTotals(database.url);
  const halfWritten = await halfWrittenGroups(database.url);
  // What the ledger holds for each Idempotency-Key: the committed answer, with its group's entries.
  const committed = await withClient(database.url, async (client) => {
    const { rows } = await client.query<{ key: string; transaction_id: string; entries: number }>(`
      select k.key, k.response->>'transaction_id' as transaction_id,
             (select count(*)::int from credit_ledger_entries e where e.transaction_group = (k.response->>'transaction_id')::uuid) as entries
      from idempotency_keys k where k.key like 'crash-%'`);
    return new Map(rows.map((r) => [r.key, r]));
  });

  const acknowledged = attempts.filter((a) => a.state === 'acknowledged');
  const lost = acknowledged.filter((a) => committed.get(a.key)?.transaction_id !== a.transactionId || committed.get(a.key)?.entries !== 2);
  const unacknowledged = attempts.filter((a) => a.state !== 'acknowledged');
  const committedUnacknowledged = unacknowledged.filter((a) => committed.has(a.key));

  // Retry every unacknowledged request twice with its key: the first retry commits it (or
  // returns what had committed), the second returns the same answer and moves nothing.
  let retriedMismatch = 0;
  for (const attempt of unacknowledged) {
    const options = { token, body: attempt.body, headers: { 'idempotency-key': attempt.key } };
    const first = await must<{ transaction_id: string }>(server.url, 'POST', '/api/credits/allocations', options);
    const second = await must<{ transaction_id: string }>(server.url, 'POST', '/api/credits/allocations', options);
    const before = committed.get(attempt.key)?.transaction_id;
    if (second.transaction_id !== first.transaction_id || (before && before !== first.transaction_id)) retriedMismatch++;
  }

  const final = await reconcileDatabase(database.url);
  const totals = await creditTotals(database.url);
  const books = await withClient(database.url, async (client) => {
    const { rows } = await client.query<{ organization_id: string; cents: string }>(
      `select organization_id, (credit_balance * 100)::bigint::text as cents from organization_billing_settings`,
    );
    const { rows: groups } = await client.query<{ n: number }>(
      `select count(*)::int as n from credit_ledger_entries where entry_type = 'allocation_received'`,
    );
    return { balances: new Map(rows.map((r) => [r.organization_id, Number(r.cents)])), allocations: groups[0]!.n };
  });
  // Every request sent now applied exactly once: each child holds exactly what was sent to it.
  const expected = new Map(children.map((id, n) => [id, n === 0 ? INITIAL_BALANCE_CENTS : 0]));
  for (const a of attempts) expected.set(a.body.to_org_id, expected.get(a.body.to_org_id)! + a.cents);
  const wrongBalances = children.filter((id) => books.balances.get(id) !== expected.get(id));

  const figures = {
    faultsInjected: KILLS,
    clients: CLIENTS,
    rounds,
    requestsSent: attempts.length,
    acknowledged: acknowledged.length,
    inFlightAtKill: rounds.reduce((sum, r) => sum + r.inFlightAtKill, 0),
    unacknowledged: unacknowledged.length,
    committedButUnacknowledged: committedUnacknowledged.length,
    acknowledgedFoundAfterRestart: acknowledged.length - lost.length,
    lost: lost.length,
    halfWrittenGroups: halfWritten.length,
    reconcileAfterRestart: afterRestart.ok,
    creditsConservedAfterRestart: totalsAfterRestart.balancesCents === FUNDS_CENTS && totalsAfterRestart.adjustmentsCents === FUNDS_CENTS,
    retried: unacknowledged.length * 2,
    retriedMismatch,
    allocationsInLedger: books.allocations,
    reconcileFinal: final.ok,
    childBalancesWrong: wrongBalances.length,
  };
  console.log('crash figures', JSON.stringify(figures, null, 2));
  writeResults('crash', figures);

  expect(afterRestart.ok, JSON.stringify(afterRestart).slice(0, 1000)).toBe(true);
  expect(totalsAfterRestart).toEqual({ balancesCents: FUNDS_CENTS, adjustmentsCents: FUNDS_CENTS });
  expect(halfWritten).toEqual([]);
  expect(lost.map((a) => a.key)).toEqual([]);
  expect(attempts.filter((a) => a.state === 'refused')).toEqual([]);
  expect(retriedMismatch).toBe(0);
  expect(books.allocations).toBe(attempts.length);
  expect(wrongBalances).toEqual([]);
  expect(final.ok).toBe(true);
  expect(totals).toEqual({ balancesCents: FUNDS_CENTS, adjustmentsCents: FUNDS_CENTS });
  expect(rounds.every((r) => r.inFlightAtKill > 0)).toBe(true);
});
