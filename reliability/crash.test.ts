/**
 * Crash: allocations from many concurrent clients, the server SIGKILLed mid-load a few
 * times, restarted on the same database; then the same with two server processes on one
 * database behind a round-robin balancer, one of them killed in each round while the
 * other keeps serving. No acknowledged allocation may be lost, none
 * may be half-written, credits are conserved, and a retry with the same
 * Idempotency-Key after the restart moves credits exactly once. Then the same for usage
 * batches from concurrent agent runtimes: every event is recorded whole (with its charge,
 * entry, balance and carry) or not at all, and sending every batch again with the same
 * event ids charges each event exactly once. Half the usage comes from agencies below
 * super agencies that mark the price up, so each batch also posts its sellers' earnings, and
 * one agency is topped up automatically by its parent whenever it crosses its line: the
 * books reconcile with the earnings, and every top-up made is one whole allocation.
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
  meteredHouse,
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
import { startBalancer, type Balancer } from './balancer.ts';

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
function allocationLoad(server: { url: string }, token: string, houseId: string, children: string[], round: number, attempts: Attempt[]) {
  let stopped = false;
  let counter = 0;
  const inFlight = new Set<Attempt>();
  const client = async (id: number) => {
    while (!stopped) {
      const cents = 1 + Math.floor(Math.random() * 1000);
      const attempt: Attempt = {
        key: `crash-${round}-${id}-${counter++}`,
        round,
        body: {
          from_org_id: houseId,
          to_org_id: children[counter % children.length]!,
          amount: amountOf(cents),
          notes: `crash round ${round}`,
        },
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
    inFlight: () => inFlight.size,
    /** Stops sending; returns how many were in flight at that instant. */
    stop: () => {
      stopped = true;
      return inFlight.size;
    },
    done: clients,
  };
}

/**
 * One server process, or two on one database behind a round-robin balancer: the clients
 * send to `url`; `kill(round)` SIGKILLs the process of that round (the one, or each of the
 * two in turn) and `restart()` starts it again on its port.
 */
interface Deployment {
  url: string;
  kill(round: number): Promise<void>;
  /** Brings back whatever is down. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  balancer?: Balancer;
}

async function deploy(databaseUrl: string, processes: 1 | 2, ports: number[]): Promise<Deployment> {
  const servers: (ServerProcess | null)[] = await Promise.all(ports.slice(0, processes).map((p) => startServer({ databaseUrl, port: p })));
  const balancer = processes === 2 ? await startBalancer(ports.slice(0, 2).map((p) => ({ host: '127.0.0.1', port: p }))) : undefined;
  const restart = async () => {
    for (const [n, server] of servers.entries()) if (!server) servers[n] = await startServer({ databaseUrl, port: ports[n] });
  };
  return {
    url: balancer?.url ?? servers[0]!.url,
    balancer,
    restart,
    async kill(round) {
      const n = (round - 1) % processes;
      const server = servers[n]!;
      server.signal('SIGKILL');
      const exit = await server.exited;
      expect(exit.signal).toBe('SIGKILL');
      servers[n] = null;
    },
    async stop() {
      await balancer?.close();
      for (const server of servers) await server?.stop();
    },
  };
}

for (const processes of [1, 2] as const) {
  test(`${KILLS} SIGKILLs under ${CLIENTS} concurrent allocation clients lose nothing acknowledged (${processes} server process${processes === 2 ? 'es behind a balancer' : ''})`, async () => {
    await crashAllocations(processes);
  });
}

async function crashAllocations(processes: 1 | 2) {
  const db = processes === 1 ? database : await createDatabase();
  try {
    await crashAllocationsOn(db, processes);
  } finally {
    if (db !== database) {
      await killServers();
      await db.drop();
    }
  }
}

async function crashAllocationsOn(database: FreshDatabase, processes: 1 | 2) {
  const ports = processes === 1 ? [port] : [await freePort(), await freePort()];
  const deployment = await deploy(database.url, processes, ports);
  const server = { url: deployment.url };
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
    if (round > 1) await deployment.restart();
    const load = allocationLoad(server, token, houseId, children, round, attempts);
    const started = Date.now();
    while (Date.now() - started < MIN_LOAD_MS || load.acknowledged() < MIN_ACKED) await sleep(50);
    await sleep(Math.random() * 500);
    // With two processes the survivor keeps serving: the clients stop a moment after the kill.
    const inFlightAtKill = processes === 1 ? load.stop() : load.inFlight();
    await deployment.kill(round);
    if (processes === 2) {
      await sleep(300);
      load.stop();
    }
    await load.done;
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

  await deployment.restart();
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
  // The next suite comes back on the same port.
  const balanced = deployment.balancer?.connections();
  await deployment.stop();
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
    processes,
    ...(balanced && { connectionsPerProcess: balanced }),
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
  writeResults(processes === 1 ? 'crash' : 'crash-two-processes', figures);

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
  if (balanced)
    expect(
      balanced.every((n) => n > 0),
      `connections per process: ${balanced}`,
    ).toBe(true);
}

/** Usage batches from concurrent runtimes while the server is SIGKILLed. */
const USAGE_CLIENTS = 8;
const USAGE_BATCH = 200;
const USAGE_CHILDREN = 4;
const USAGE_PRICE = '0.0137';

interface BatchAttempt {
  round: number;
  events: { id: string; organization_id: string; agent: string; units: string; occurred_at: string }[];
  state: 'in_flight' | 'acknowledged' | 'failed' | 'refused';
}

test(`${KILLS} SIGKILLs under ${USAGE_CLIENTS} concurrent usage runtimes: each event recorded whole or not at all, and once`, async () => {
  const usageDatabase = await createDatabase();
  try {
    let server = await startServer({ databaseUrl: usageDatabase.url, port });
    const token = await signIn(server.url);
    const { children, key } = await meteredHouse(server.url, token, {
      suite: 'Crash usage',
      children: USAGE_CHILDREN,
      childCents: 100_000_000,
      agent: 'crash-bot',
      price: USAGE_PRICE,
    });

    // An agency below each super agency, which marks the price up by a quarter; the first
    // agency is refilled automatically from its parent below 900.00, 50.00 at a time.
    const agencies = await withClient(usageDatabase.url, async (client) => {
      const { rows } = await client.query<{ id: string }>(
        `insert into organizations (name, org_type, parent_org_id, parent_org_type)
         select 'Crash agency ' || n, 'agency', c, 'super_agency' from unnest($1::uuid[]) with ordinality as x(c, n)
         returning id`,
        [children],
      );
      const ids = rows.map((r) => r.id);
      await client.query(
        `insert into organization_billing_settings (organization_id, activated_agent_limit) select unnest($1::uuid[]), 1`,
        [ids],
      );
      await client.query(
        `insert into agent_activations (organization_id, agent_type_id) select a, t.id from unnest($1::uuid[]) a, agent_types t where t.code = 'crash-bot'`,
        [ids],
      );
      await client.query(
        `insert into organization_prices (organization_id, agent_type_id, price, effective_from)
         select c, t.id, 0.0171, now() - interval '1 minute' from unnest($1::uuid[]) c, agent_types t where t.code = 'crash-bot'`,
        [children],
      );
      for (const [n, id] of ids.entries()) {
        await client.query(
          `select 1 from ledger_post(gen_random_uuid(), null, true, array[$1, $2]::uuid[], array[-1000.00, 1000.00]::numeric[],
             array['allocation_sent', 'allocation_received'], array['{"notes":"crash funding"}'::jsonb, '{"notes":"crash funding"}'::jsonb])`,
          [children[n], id],
        );
      }
      await client.query(
        `update organization_billing_settings set top_up_below = 900.00, top_up_amount = 50.00, top_up_monthly_max = 1000000.00
         where organization_id = $1`,
        [ids[0]],
      );
      return ids;
    });
    const payers = [...children, ...agencies];

    const attempts: BatchAttempt[] = [];
    const rounds = [];
    let counter = 0;
    for (let round = 1; round <= KILLS; round++) {
      if (round > 1) server = await startServer({ databaseUrl: usageDatabase.url, port });
      let stopped = false;
      const inFlight = new Set<BatchAttempt>();
      const runtime = async () => {
        while (!stopped) {
          const batch = counter++;
          const attempt: BatchAttempt = {
            round,
            state: 'in_flight',
            events: Array.from({ length: USAGE_BATCH }, (_, i) => ({
              id: `crash-usage-${batch}-${i}`,
              organization_id: payers[(batch + i) % payers.length]!,
              agent: 'crash-bot',
              // Four decimals, so most charges leave something in the carry.
              units: `${Math.floor(Math.random() * 10)}.${String(1 + Math.floor(Math.random() * 9999)).padStart(4, '0')}`,
              occurred_at: new Date().toISOString(),
            })),
          };
          attempts.push(attempt);
          inFlight.add(attempt);
          try {
            const result = await api<{ accepted: number }>(server.url, 'POST', '/api/v1/usage-events', {
              body: { events: attempt.events },
              headers: { authorization: `Bearer ${key}` },
            });
            attempt.state = result.status === 200 && result.body.accepted === USAGE_BATCH ? 'acknowledged' : 'refused';
          } catch {
            attempt.state = 'failed';
          } finally {
            inFlight.delete(attempt);
          }
        }
      };
      const clients = Promise.all(Array.from({ length: USAGE_CLIENTS }, runtime));
      const started = Date.now();
      const acknowledged = () => attempts.filter((a) => a.round === round && a.state === 'acknowledged').length;
      while (Date.now() - started < MIN_LOAD_MS || acknowledged() < 10) await sleep(50);
      await sleep(Math.random() * 500);
      stopped = true;
      const inFlightAtKill = inFlight.size;
      server.signal('SIGKILL');
      await clients;
      expect((await server.exited).signal).toBe('SIGKILL');
      const mine = attempts.filter((a) => a.round === round);
      rounds.push({ round, loadMs: Date.now() - started, batches: mine.length, acknowledged: acknowledged(), inFlightAtKill });
    }

    server = await startServer({ databaseUrl: usageDatabase.url, port });
    const afterRestart = await reconcileDatabase(usageDatabase.url);
    /** Per batch, how many of its events the database holds; and events held more than once. */
    const held = async () =>
      withClient(usageDatabase.url, async (client) => {
        const { rows } = await client.query<{ batch: string; n: number }>(
          `select split_part(client_event_id, '-', 3) as batch, count(*)::int as n from usage_events group by 1`,
        );
        const { rows: twice } = await client.query<{ n: number }>(
          `select count(*)::int as n from (select client_event_id from usage_events group by client_event_id having count(*) > 1) x`,
        );
        return { perBatch: new Map(rows.map((r) => [Number(r.batch), r.n])), twice: twice[0]!.n };
      });
    const before = await held();
    const batchOf = (a: BatchAttempt) => Number(a.events[0]!.id.split('-')[2]);
    const halfWritten = attempts.filter((a) => ![0, USAGE_BATCH].includes(before.perBatch.get(batchOf(a)) ?? 0));
    const acknowledged = attempts.filter((a) => a.state === 'acknowledged');
    const lost = acknowledged.filter((a) => before.perBatch.get(batchOf(a)) !== USAGE_BATCH);
    const unacknowledged = attempts.filter((a) => a.state !== 'acknowledged');
    const committedUnacknowledged = unacknowledged.filter((a) => before.perBatch.get(batchOf(a)) === USAGE_BATCH);

    // Every batch sent again with the same event ids: what was recorded is a duplicate, the rest is recorded now.
    let acceptedOnRetry = 0;
    let duplicatesOnRetry = 0;
    for (const attempt of attempts) {
      const again = await must<{ accepted: number; duplicates: number; rejected: number }>(server.url, 'POST', '/api/v1/usage-events', {
        body: { events: attempt.events },
        headers: { authorization: `Bearer ${key}` },
      });
      expect(again.rejected).toBe(0);
      acceptedOnRetry += again.accepted;
      duplicatesOnRetry += again.duplicates;
    }
    const after = await held();
    const final = await reconcileDatabase(usageDatabase.url);
    // Each payer's balance is what came in (allocations, earnings) less exactly what its events charged.
    const books = await withClient(usageDatabase.url, async (client) => {
      const { rows } = await client.query<{ organization_id: string; drop: string; charged: string }>(
        `select b.organization_id,
                ((select coalesce(sum(e.amount), 0) from credit_ledger_entries e
                   where e.organization_id = b.organization_id and e.entry_type <> 'consumption') - b.credit_balance)::text as drop,
                (select coalesce(sum(u.charged), 0) from usage_events u where u.organization_id = b.organization_id)::text as charged
         from organization_billing_settings b where b.organization_id = any($1::uuid[])`,
        [payers],
      );
      return rows;
    });
    // Every top-up the runner marked made is one allocation of 50.00 into the agency, and no other.
    const topUps = await withClient(usageDatabase.url, async (client) => {
      const { rows } = await client.query<{ made: number; allocations: number; earnings: number }>(
        `select (select count(*)::int from top_up_requests where outcome = 'topped_up') as made,
                (select count(*)::int from credit_ledger_entries
                  where organization_id = $1 and entry_type = 'allocation_received' and metadata->>'automatic' = 'true' and amount = 50.00) as allocations,
                (select count(*)::int from credit_ledger_entries where entry_type = 'earning') as earnings`,
        [agencies[0]],
      );
      return rows[0]!;
    });
    const eventsSent = attempts.length * USAGE_BATCH;
    const recordedBefore = [...before.perBatch.values()].reduce((sum, n) => sum + n, 0);
    const figures = {
      faultsInjected: KILLS,
      runtimes: USAGE_CLIENTS,
      eventsPerBatch: USAGE_BATCH,
      rounds,
      batchesSent: attempts.length,
      eventsSent,
      acknowledgedBatches: acknowledged.length,
      inFlightAtKill: rounds.reduce((sum, r) => sum + r.inFlightAtKill, 0),
      committedButUnacknowledged: committedUnacknowledged.length,
      eventsRecordedAfterRestart: recordedBefore,
      halfWrittenBatches: halfWritten.length,
      lostAcknowledgedBatches: lost.length,
      reconcileAfterRestart: afterRestart.ok,
      retriedBatches: attempts.length,
      acceptedOnRetry,
      duplicatesOnRetry,
      eventsRecordedTwice: after.twice,
      eventsRecordedFinal: [...after.perBatch.values()].reduce((sum, n) => sum + n, 0),
      balanceDropsEqualCharges: books.every((b) => b.drop === b.charged),
      earningEntries: topUps.earnings,
      topUpsMade: topUps.made,
      automaticAllocations: topUps.allocations,
      reconcileFinal: final.ok,
    };
    console.log('crash usage figures', JSON.stringify(figures, null, 2));
    writeResults('crash-usage', figures);

    expect(afterRestart.ok, JSON.stringify(afterRestart).slice(0, 1000)).toBe(true);
    expect(halfWritten.map(batchOf)).toEqual([]);
    expect(lost.map(batchOf)).toEqual([]);
    expect(attempts.filter((a) => a.state === 'refused')).toEqual([]);
    expect(acceptedOnRetry).toBe(eventsSent - recordedBefore);
    expect(duplicatesOnRetry).toBe(recordedBefore);
    expect(after.twice).toBe(0);
    expect(figures.eventsRecordedFinal).toBe(eventsSent);
    expect(books.map((b) => b.drop)).toEqual(books.map((b) => b.charged));
    expect(topUps.earnings).toBeGreaterThan(0);
    expect(topUps.made).toBeGreaterThan(0);
    expect(topUps.allocations).toBe(topUps.made);
    expect(final.ok, JSON.stringify(final).slice(0, 1000)).toBe(true);
    expect(rounds.every((r) => r.inFlightAtKill > 0)).toBe(true);
  } finally {
    await killServers();
    await usageDatabase.drop();
  }
});
