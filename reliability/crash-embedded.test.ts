/**
 * Crash on the embedded database (PGlite in DATA_DIR/pgdata, the default): the real server
 * process SIGKILLed KILLS times under mixed concurrent load (allocations with an
 * Idempotency-Key, usage batches through the machine API, agent activations and
 * deactivations, agent-limit changes) and restarted each time on the same data folder,
 * where the dead process left its lock file.
 *
 * After each kill, before the restart, the data folder is copied as the dead process left
 * it, and the copy is opened in this process (PGlite's own recovery, as the server runs
 * it) and checked: nothing acknowledged is lost, nothing half-written or applied twice, the
 * books reconcile, credits are conserved, and every agent limit and activation is what was
 * acknowledged, or what the one unanswered request on it asked. The restarted server then
 * gets every unanswered request again (same Idempotency-Key, same event ids), and each
 * answer must agree with the copy: what had committed is answered as done, the rest is
 * applied now, so each request is applied exactly once. At the end the server is stopped
 * and the folder itself is checked against everything sent, then `main.ts reconcile` runs
 * on it. DATABASE_URL is ignored: this suite is about the embedded database.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDatabase } from '../apps/server/src/db/connection.ts';
import { reconcile } from '../apps/server/src/modules/credits/reconcile.ts';
import { REPO_ROOT, supervise } from '../support/server-process.ts';
import {
  amountOf,
  api,
  freePort,
  killServers,
  must,
  percentile,
  signIn,
  sleep,
  startServer,
  writeResults,
  type ServerProcess,
} from './harness.ts';

const KILLS = Number(process.env.CRASH_EMBEDDED_KILLS ?? 20);
const CHILDREN = 4;
const TOGGLE_TYPES = 2;
const ALLOCATION_CLIENTS = 6;
const USAGE_CLIENTS = 2;
/** Small batches: PGlite runs one statement at a time, and a long one holds every other request back. */
const USAGE_BATCH = 25;
const USAGE_PRICE = '0.0137';
/** Limits move within these bounds: never below the 1 + TOGGLE_TYPES activations a child may hold, and their sum within the house's. */
const LIMIT_MIN = 1 + TOGGLE_TYPES;
const LIMIT_MAX = 40;
const INITIAL_LIMIT = 10;
const FUNDS_CENTS = 1_000_000_000;
const CHILD_INITIAL_CENTS = 10_000_000;
/** Each round loads at least this long and until MIN_ACKED requests were acknowledged, then a random moment more. */
const MIN_LOAD_MS = 1000;
const MIN_ACKED = 40;
/** A round that has not reached that by then is killed anyway. */
const MAX_LOAD_MS = 20_000;

type State = 'in_flight' | 'acknowledged' | 'failed' | 'refused';

interface Allocation {
  key: string;
  round: number;
  body: { from_org_id: string; to_org_id: string; amount: string; notes: string };
  cents: number;
  state: State;
  transactionId?: string;
}

interface Batch {
  n: number;
  round: number;
  events: { id: string; organization_id: string; agent: string; units: string; occurred_at: string }[];
  state: State;
}

/** One (organization, agent type) pair, toggled by one client alone. */
interface Slot {
  organizationId: string;
  agentTypeId: string;
  /** The live activation as last acknowledged. */
  liveId: string | null;
  activated: string[];
  deactivated: string[];
  /** The unanswered request on this slot: at most one, the client's last. */
  pending: { op: 'activate' } | { op: 'deactivate'; id: string } | null;
}

/** One organization whose agent limit one client alone changes. */
interface Limit {
  organizationId: string;
  acknowledged: number;
  /** Limit changes that took effect (each writes an audit row). */
  changes: number;
  pending: number | null;
}

interface Round {
  round: number;
  loadMs: number;
  sent: number;
  acknowledged: number;
  inFlightAtKill: number;
  committedButUnanswered: number;
  restartMs: number;
  checkMs: number;
}

/** What a data folder holds, read after the crash. */
interface Found {
  allocations: Map<string, { transactionId: string; entries: number }>;
  allocationsReceived: number;
  halfWrittenGroups: number;
  eventsPerBatch: Map<number, number>;
  eventsHeldTwice: number;
  activations: { id: string; organization_id: string; agent_type_id: string; live: boolean; deactivate_audits: number }[];
  limits: Map<string, number>;
  limitAudits: Map<string, number>;
  balancesCents: Map<string, number>;
  chargedCents: Map<string, number>;
  adjustmentsCents: number;
  reconcile: Awaited<ReturnType<typeof reconcile>>;
}

const cents = (value: string | null | undefined) => Math.round(Number(value ?? 0) * 100);

/** Opens the embedded database in `dataDir` (recovering it as the server would), reads what the checks need, and closes it. */
async function inspect(dataDir: string): Promise<Found> {
  const database = await openDatabase({ databaseUrl: null, dataDir, purpose: 'crash-embedded check' });
  try {
    const db = database.db;
    const keys = await sql<{ key: string; transaction_id: string; entries: number }>`
      select k.key, k.response->>'transaction_id' as transaction_id,
             (select count(*)::int from credit_ledger_entries e where e.transaction_group = (k.response->>'transaction_id')::uuid) as entries
      from idempotency_keys k where k.key like 'emb-%'`.execute(db);
    const received = await sql<{
      n: number;
    }>`select count(*)::int as n from credit_ledger_entries where entry_type = 'allocation_received'`.execute(db);
    const halfWritten = await sql<{ n: number }>`
      select count(*)::int as n from (
        select transaction_group from credit_ledger_entries
        where entry_type in ('allocation_sent', 'allocation_received', 'initial_balance')
        group by transaction_group
        having count(*) <> 2 or count(*) filter (where entry_type = 'allocation_sent') <> 1 or sum(amount) <> 0) x`.execute(db);
    const batches = await sql<{ batch: string; n: number }>`
      select split_part(client_event_id, '-', 3) as batch, count(*)::int as n from usage_events
      where client_event_id like 'emb-usage-%' group by 1`.execute(db);
    const twice = await sql<{ n: number }>`
      select count(*)::int as n from (select client_event_id from usage_events group by client_event_id having count(*) > 1) x`.execute(db);
    const activations = await sql<Found['activations'][number]>`
      select a.id, a.organization_id, a.agent_type_id, a.deactivated_at is null as live,
             (select count(*)::int from audit_log l where l.action = 'agent.deactivate' and l.target_id = a.id::text) as deactivate_audits
      from agent_activations a`.execute(db);
    const billing = await sql<{ organization_id: string; activated_agent_limit: number; credit_balance: string }>`
      select organization_id, activated_agent_limit, credit_balance::text from organization_billing_settings`.execute(db);
    const limitAudits = await sql<{ organization_id: string; n: number }>`
      select organization_id, count(*)::int as n from audit_log where action = 'billing.agent_limit' group by 1`.execute(db);
    const charged = await sql<{ organization_id: string; charged: string }>`
      select organization_id, sum(charged)::text as charged from usage_events group by 1`.execute(db);
    const adjustments = await sql<{ total: string | null }>`
      select sum(amount)::text as total from credit_ledger_entries where entry_type in ('adjustment_increase', 'adjustment_decrease')`.execute(
      db,
    );
    return {
      allocations: new Map(keys.rows.map((r) => [r.key, { transactionId: r.transaction_id, entries: r.entries }])),
      allocationsReceived: received.rows[0]!.n,
      halfWrittenGroups: halfWritten.rows[0]!.n,
      eventsPerBatch: new Map(batches.rows.map((r) => [Number(r.batch), r.n])),
      eventsHeldTwice: twice.rows[0]!.n,
      activations: activations.rows,
      limits: new Map(billing.rows.map((r) => [r.organization_id, r.activated_agent_limit])),
      limitAudits: new Map(limitAudits.rows.map((r) => [r.organization_id, r.n])),
      balancesCents: new Map(billing.rows.map((r) => [r.organization_id, cents(r.credit_balance)])),
      chargedCents: new Map(charged.rows.map((r) => [r.organization_id, cents(r.charged)])),
      adjustmentsCents: cents(adjustments.rows[0]!.total),
      reconcile: await reconcile(db),
    };
  } finally {
    await database.close();
  }
}

let dataDir: string;
let port: number;

beforeAll(async () => {
  // A private folder (mkdtemp makes it 0700), as the server requires.
  dataDir = mkdtempSync(join(tmpdir(), 'crash-embedded-'));
  port = await freePort();
});

afterAll(async () => {
  await killServers();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test(`${KILLS} SIGKILLs of the server on the embedded database under mixed load: nothing acknowledged lost, every request applied exactly once`, {
  timeout: 600_000,
}, async () => {
  const wallStarted = Date.now();
  let server: ServerProcess = await startServer({ databaseUrl: null, dataDir, port });
  const firstStartMs = Date.now() - wallStarted;
  const token = await signIn(server.url);

  // The tree, through the API: a funded house, children with credits and limits, a priced
  // usage agent live in each child, toggle agent types, and an API key of the house.
  const { organization_id: houseId } = await must<{ organization_id: string }>(server.url, 'GET', '/api/users/me', { token });
  await must(server.url, 'POST', '/api/credits/adjustments', {
    token,
    body: { direction: 'increase', amount: amountOf(FUNDS_CENTS), reason: 'embedded crash suite funding' },
  });
  await must(server.url, 'PUT', `/api/organizations/${houseId}/agent-limit`, {
    token,
    body: { activated_agent_limit: CHILDREN * LIMIT_MAX },
  });
  const typeOf = async (code: string, price: string) =>
    (
      await must<{ agent_type: { id: string } }>(server.url, 'POST', '/api/agent-types', {
        token,
        body: { code, name: `Embedded ${code}`, kind: 'automation', unit: 'run', price },
      })
    ).agent_type.id;
  const usageType = await typeOf('emb-usage', USAGE_PRICE);
  const toggleTypes: string[] = [];
  for (let n = 0; n < TOGGLE_TYPES; n++) toggleTypes.push(await typeOf(`emb-toggle-${n}`, '0.5'));
  const children: string[] = [];
  const limits: Limit[] = [];
  const slots: Slot[] = [];
  for (let n = 0; n < CHILDREN; n++) {
    const created = await must<{ organization: { id: string } }>(server.url, 'POST', '/api/organizations', {
      token,
      body: { name: `Embedded child ${n}`, org_type: 'super_agency', initial_balance: amountOf(CHILD_INITIAL_CENTS) },
    });
    const id = created.organization.id;
    children.push(id);
    await must(server.url, 'PUT', `/api/organizations/${id}/agent-limit`, { token, body: { activated_agent_limit: INITIAL_LIMIT } });
    await must(server.url, 'POST', `/api/organizations/${id}/agents`, { token, body: { agent_type_id: usageType } });
    limits.push({ organizationId: id, acknowledged: INITIAL_LIMIT, changes: 1, pending: null });
    for (const agentTypeId of toggleTypes)
      slots.push({ organizationId: id, agentTypeId, liveId: null, activated: [], deactivated: [], pending: null });
  }
  const { secret: apiKey } = await must<{ secret: string }>(server.url, 'POST', `/api/organizations/${houseId}/api-keys`, {
    token,
    body: { name: 'embedded crash runtime', scopes: ['usage:write'] },
  });
  const seededMs = Date.now() - wallStarted - firstStartMs;

  const allocations: Allocation[] = [];
  const batches: Batch[] = [];
  const toggles = { sent: 0, acknowledged: 0, retried: 0, committedButUnanswered: 0 };
  const limitChanges = { sent: 0, acknowledged: 0, retried: 0, committedButUnanswered: 0 };
  /** Unanswered allocations and usage batches sent again after a restart (each allocation twice). */
  const retries = { allocations: 0, batches: 0, allocationsCommittedButUnanswered: 0, batchesCommittedButUnanswered: 0 };
  /** Answers other than the expected 2xx during the load, and network failures before the kill: both must stay empty. */
  const unexpected: string[] = [];
  const rounds: Round[] = [];
  let allocationCounter = 0;
  let batchCounter = 0;

  for (let round = 1; round <= KILLS; round++) {
    let stopped = false;
    let inFlight = 0;
    const acked = { allocations: 0, batches: 0, toggles: 0, limits: 0 };
    /** Sends one request, counting it in flight; undefined when the connection failed (the kill). */
    const send = async <T>(method: string, path: string, options: Parameters<typeof api>[3]) => {
      inFlight++;
      try {
        return await api<T>(server.url, method, path, options);
      } catch (error) {
        if (!stopped) unexpected.push(`round ${round}: ${method} ${path} failed before the kill: ${String(error)}`);
        return undefined;
      } finally {
        inFlight--;
      }
    };
    const refused = (what: string, result: { status: number; body: unknown }) =>
      unexpected.push(`round ${round}: ${what} answered ${result.status}: ${JSON.stringify(result.body).slice(0, 300)}`);

    const allocationClient = async (client: number) => {
      while (!stopped) {
        const amount = 1 + Math.floor(Math.random() * 1000);
        const n = allocationCounter++;
        const attempt: Allocation = {
          key: `emb-${round}-${client}-${n}`,
          round,
          body: {
            from_org_id: houseId,
            to_org_id: children[n % CHILDREN]!,
            amount: amountOf(amount),
            notes: `embedded crash round ${round}`,
          },
          cents: amount,
          state: 'in_flight',
        };
        allocations.push(attempt);
        const result = await send<{ transaction_id: string }>('POST', '/api/credits/allocations', {
          token,
          body: attempt.body,
          headers: { 'idempotency-key': attempt.key },
        });
        if (!result) {
          attempt.state = 'failed';
          return;
        }
        if (result.status === 200) {
          attempt.state = 'acknowledged';
          attempt.transactionId = result.body.transaction_id;
          acked.allocations++;
        } else {
          attempt.state = 'refused';
          refused(`allocation ${attempt.key}`, result);
        }
      }
    };
    const usageClient = async () => {
      while (!stopped) {
        const n = batchCounter++;
        const batch: Batch = {
          n,
          round,
          state: 'in_flight',
          events: Array.from({ length: USAGE_BATCH }, (_, i) => ({
            id: `emb-usage-${n}-${i}`,
            organization_id: children[(n + i) % CHILDREN]!,
            agent: 'emb-usage',
            // Four decimals, so most charges leave something in the carry.
            units: `${Math.floor(Math.random() * 10)}.${String(1 + Math.floor(Math.random() * 9999)).padStart(4, '0')}`,
            occurred_at: new Date().toISOString(),
          })),
        };
        batches.push(batch);
        const result = await send<{ accepted: number }>('POST', '/api/v1/usage-events', {
          body: { events: batch.events },
          headers: { authorization: `Bearer ${apiKey}` },
        });
        if (!result) {
          batch.state = 'failed';
          return;
        }
        if (result.status === 200 && result.body.accepted === USAGE_BATCH) {
          batch.state = 'acknowledged';
          acked.batches++;
        } else {
          batch.state = 'refused';
          refused(`usage batch ${n}`, result);
        }
      }
    };
    const toggleClient = async (slot: Slot) => {
      while (!stopped) {
        toggles.sent++;
        if (slot.liveId) {
          const id = slot.liveId;
          const result = await send<{ activation: { status: string } }>(
            'DELETE',
            `/api/organizations/${slot.organizationId}/agents/${id}`,
            { token },
          );
          if (!result) {
            slot.pending = { op: 'deactivate', id };
            return;
          }
          if (result.status !== 200 || result.body.activation.status !== 'inactive') refused(`deactivation of ${id}`, result);
          else {
            slot.liveId = null;
            slot.deactivated.push(id);
            acked.toggles++;
          }
        } else {
          const result = await send<{ activation: { id: string } }>('POST', `/api/organizations/${slot.organizationId}/agents`, {
            token,
            body: { agent_type_id: slot.agentTypeId },
          });
          if (!result) {
            slot.pending = { op: 'activate' };
            return;
          }
          if (result.status !== 201) refused(`activation in ${slot.organizationId}`, result);
          else {
            slot.liveId = result.body.activation.id;
            slot.activated.push(slot.liveId);
            acked.toggles++;
          }
        }
        // A refusal would repeat at once: stop this client (the refusal fails the test).
        if (unexpected.length > 0) return;
      }
    };
    const limitClient = async (limit: Limit) => {
      while (!stopped) {
        let value = limit.acknowledged;
        while (value === limit.acknowledged) value = LIMIT_MIN + Math.floor(Math.random() * (LIMIT_MAX - LIMIT_MIN + 1));
        limitChanges.sent++;
        const result = await send('PUT', `/api/organizations/${limit.organizationId}/agent-limit`, {
          token,
          body: { activated_agent_limit: value },
        });
        if (!result) {
          limit.pending = value;
          return;
        }
        if (result.status !== 200) {
          refused(`agent limit ${value} of ${limit.organizationId}`, result);
          return;
        }
        limit.acknowledged = value;
        limit.changes++;
        acked.limits++;
      }
    };

    const started = Date.now();
    const sentBefore = allocations.length + batches.length + toggles.sent + limitChanges.sent;
    const clients = Promise.all([
      ...Array.from({ length: ALLOCATION_CLIENTS }, (_, n) => allocationClient(n)),
      ...Array.from({ length: USAGE_CLIENTS }, () => usageClient()),
      ...slots.map((slot) => toggleClient(slot)),
      ...limits.map((limit) => limitClient(limit)),
    ]);
    const roundAcked = () => acked.allocations + acked.batches + acked.toggles + acked.limits;
    while ((Date.now() - started < MIN_LOAD_MS || roundAcked() < MIN_ACKED) && Date.now() - started < MAX_LOAD_MS) await sleep(50);
    await sleep(Math.random() * 700);
    // The clients send nothing more; what is in flight now meets the kill.
    stopped = true;
    const inFlightAtKill = inFlight;
    server.signal('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
    await clients;
    // The dead process's lock is still there, naming it: the restart must take it over.
    expect(JSON.parse(readFileSync(join(dataDir, 'console.lock'), 'utf8')).pid).toBe(server.pid);
    const loadMs = Date.now() - started;

    // What the dead process left, copied before anything opens it again; the server
    // restarts on the folder itself (its stale lock, its own recovery) meanwhile.
    const copy = mkdtempSync(join(tmpdir(), 'crash-embedded-check-'));
    cpSync(dataDir, copy, { recursive: true });
    const restartStarted = Date.now();
    const restarted = startServer({ databaseUrl: null, dataDir, port }).then((s) => ({ server: s, ms: Date.now() - restartStarted }));
    const checkStarted = Date.now();
    const found = await inspect(copy).finally(() => rmSync(copy, { recursive: true, force: true }));
    const checkMs = Date.now() - checkStarted;
    const restart = await restarted;
    server = restart.server;

    const problems = checkFound(found, { allocations, batches, slots, limits, children });
    expect(problems, `round ${round}, after the kill`).toEqual([]);
    expect(unexpected).toEqual([]);

    // Every unanswered request again, to the restarted server: it must agree with the copy.
    let committedButUnanswered = 0;
    for (const attempt of allocations.filter((a) => a.state === 'failed')) {
      const options = { token, body: attempt.body, headers: { 'idempotency-key': attempt.key } };
      const first = await must<{ transaction_id: string }>(server.url, 'POST', '/api/credits/allocations', options);
      const second = await must<{ transaction_id: string }>(server.url, 'POST', '/api/credits/allocations', options);
      const before = found.allocations.get(attempt.key)?.transactionId;
      retries.allocations++;
      if (before) {
        committedButUnanswered++;
        retries.allocationsCommittedButUnanswered++;
      }
      expect(second.transaction_id, `retry of ${attempt.key}`).toBe(first.transaction_id);
      if (before) expect(first.transaction_id, `retry of committed ${attempt.key}`).toBe(before);
      attempt.state = 'acknowledged';
      attempt.transactionId = first.transaction_id;
    }
    for (const batch of batches.filter((b) => b.state === 'failed')) {
      const held = found.eventsPerBatch.get(batch.n) ?? 0;
      retries.batches++;
      if (held > 0) {
        committedButUnanswered++;
        retries.batchesCommittedButUnanswered++;
      }
      const again = await must<{ accepted: number; duplicates: number; rejected: number }>(server.url, 'POST', '/api/v1/usage-events', {
        body: { events: batch.events },
        headers: { authorization: `Bearer ${apiKey}` },
      });
      expect(again, `retry of usage batch ${batch.n}`).toMatchObject({ accepted: USAGE_BATCH - held, duplicates: held, rejected: 0 });
      batch.state = 'acknowledged';
    }
    for (const slot of slots.filter((s) => s.pending)) {
      const pending = slot.pending!;
      toggles.retried++;
      if (pending.op === 'activate') {
        const known = new Set(slot.activated);
        const applied = found.activations.find(
          (a) => a.organization_id === slot.organizationId && a.agent_type_id === slot.agentTypeId && !known.has(a.id),
        );
        const result = await api<{ activation: { id: string } }>(server.url, 'POST', `/api/organizations/${slot.organizationId}/agents`, {
          token,
          body: { agent_type_id: slot.agentTypeId },
        });
        // Committed before the kill: the retry is refused as already active, and that activation is the live one.
        expect(result.status, `retried activation in ${slot.organizationId}: ${JSON.stringify(result.body)}`).toBe(applied ? 409 : 201);
        slot.liveId = applied ? applied.id : result.body.activation.id;
        if (applied) {
          committedButUnanswered++;
          toggles.committedButUnanswered++;
        }
        slot.activated.push(slot.liveId);
      } else {
        if (!found.activations.find((a) => a.id === pending.id)!.live) {
          committedButUnanswered++;
          toggles.committedButUnanswered++;
        }
        const result = await must<{ activation: { status: string } }>(
          server.url,
          'DELETE',
          `/api/organizations/${slot.organizationId}/agents/${pending.id}`,
          { token },
        );
        expect(result.activation.status).toBe('inactive');
        slot.liveId = null;
        slot.deactivated.push(pending.id);
      }
      slot.pending = null;
    }
    for (const limit of limits.filter((l) => l.pending !== null)) {
      limitChanges.retried++;
      // The audit row commits with the change: one more than acknowledged means it took effect.
      if ((found.limitAudits.get(limit.organizationId) ?? 0) > limit.changes) {
        committedButUnanswered++;
        limitChanges.committedButUnanswered++;
        limit.changes++;
      }
      const result = await must<{ billing_settings: { activated_agent_limit: number } }>(
        server.url,
        'PUT',
        `/api/organizations/${limit.organizationId}/agent-limit`,
        {
          token,
          body: { activated_agent_limit: limit.pending },
        },
      );
      expect(result.billing_settings.activated_agent_limit).toBe(limit.pending);
      limit.acknowledged = limit.pending!;
      limit.changes++;
      limit.pending = null;
    }

    rounds.push({
      round,
      loadMs,
      sent: allocations.length + batches.length + toggles.sent + limitChanges.sent - sentBefore,
      acknowledged: roundAcked(),
      inFlightAtKill,
      committedButUnanswered,
      restartMs: restart.ms,
      checkMs,
    });
    toggles.acknowledged += acked.toggles;
    limitChanges.acknowledged += acked.limits;
  }

  // Stopped cleanly, the folder itself must hold every request exactly once.
  const stopped = await server.stop();
  expect(stopped.code).toBe(0);
  const final = await inspect(dataDir);
  const finalProblems = checkFound(final, { allocations, batches, slots, limits, children });
  const expectedBalances = new Map(children.map((id) => [id, CHILD_INITIAL_CENTS]));
  for (const a of allocations) expectedBalances.set(a.body.to_org_id, expectedBalances.get(a.body.to_org_id)! + a.cents);
  const wrongBalances = children.filter(
    (id) => final.balancesCents.get(id) !== expectedBalances.get(id)! - (final.chargedCents.get(id) ?? 0),
  );
  const eventsHeld = [...final.eventsPerBatch.values()].reduce((sum, n) => sum + n, 0);

  // The command an operator runs, on the folder the server used.
  const reconcileRun = await runReconcile(dataDir);
  // After 21 starts and 20 kills, everything in the folder is still its owner's alone.
  const notPrivate = openToOthers(dataDir);

  const sum = (pick: (r: Round) => number) => rounds.reduce((total, r) => total + pick(r), 0);
  const figures = {
    database: 'embedded (PGlite)',
    faultsInjected: KILLS,
    clients: { allocations: ALLOCATION_CLIENTS, usage: USAGE_CLIENTS, toggles: slots.length, limits: limits.length },
    firstStartMs,
    seedMs: seededMs,
    requestsSent: sum((r) => r.sent),
    acknowledgedUnderLoad: sum((r) => r.acknowledged),
    inFlightAtKill: sum((r) => r.inFlightAtKill),
    retried: retries.allocations + retries.batches + toggles.retried + limitChanges.retried,
    committedButUnanswered: sum((r) => r.committedButUnanswered),
    allocations: {
      sent: allocations.length,
      acknowledgedUnderLoad: allocations.length - retries.allocations,
      retried: retries.allocations,
      committedButUnanswered: retries.allocationsCommittedButUnanswered,
      inLedger: final.allocationsReceived,
    },
    usage: {
      batches: batches.length,
      acknowledgedUnderLoad: batches.length - retries.batches,
      retried: retries.batches,
      committedButUnanswered: retries.batchesCommittedButUnanswered,
      eventsSent: batches.length * USAGE_BATCH,
      eventsHeld,
      eventsHeldTwice: final.eventsHeldTwice,
    },
    toggles: { ...toggles, activationsHeld: final.activations.filter((a) => a.agent_type_id !== usageType).length },
    limitChanges,
    lost: 0,
    appliedTwice: 0,
    childBalancesWrong: wrongBalances.length,
    reconcileAfterEveryKill: true,
    reconcileFinal: final.reconcile.ok,
    reconcileCommandExit: reconcileRun.code,
    pathsNotPrivate: notPrivate.length,
    restartMs: {
      p50: percentile(
        rounds.map((r) => r.restartMs),
        50,
      ),
      max: Math.max(...rounds.map((r) => r.restartMs)),
    },
    checkMs: {
      p50: percentile(
        rounds.map((r) => r.checkMs),
        50,
      ),
      max: Math.max(...rounds.map((r) => r.checkMs)),
    },
    wallSeconds: Math.round((Date.now() - wallStarted) / 100) / 10,
    rounds,
  };
  console.log('crash embedded figures', JSON.stringify({ ...figures, rounds: undefined }, null, 2));
  writeResults('crash-embedded', figures);

  expect(finalProblems, 'after the last retries').toEqual([]);
  expect(final.allocations.size).toBe(allocations.length);
  expect(final.allocationsReceived).toBe(allocations.length);
  expect(eventsHeld).toBe(batches.length * USAGE_BATCH);
  expect(wrongBalances).toEqual([]);
  expect(reconcileRun, reconcileRun.output).toMatchObject({ code: 0 });
  expect(notPrivate).toEqual([]);
  expect(unexpected).toEqual([]);
  expect(
    rounds.every((r) => r.inFlightAtKill > 0),
    JSON.stringify(rounds),
  ).toBe(true);
  // Every kind of request was acknowledged under load, not only on retry.
  expect(
    [figures.allocations.acknowledgedUnderLoad, figures.usage.acknowledgedUnderLoad, toggles.acknowledged, limitChanges.acknowledged].every(
      (n) => n > 0,
    ),
  ).toBe(true);
});

/** Paths under `dir` that are not folders 0700 or files 0600. */
function openToOthers(dir: string): string[] {
  const mode = (path: string) => statSync(path).mode & 0o777;
  const wrong = mode(dir) === 0o700 ? [] : [dir];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isDirectory() ? mode(path) !== 0o700 : entry.isFile() && mode(path) !== 0o600)
      wrong.push(`${path} ${mode(path).toString(8)}`);
  }
  return wrong;
}

/** `main.ts reconcile` on the embedded database in `dir`: its exit code and what it wrote. */
async function runReconcile(dir: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts', 'reconcile'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exit = await supervise(child).exited;
  return { code: exit.code, output };
}

/**
 * Compares what a folder holds with what was sent: each acknowledged request is there
 * whole; an unanswered one is there whole or not at all; nothing more is there; the books
 * reconcile and credits are conserved. Returns the differences, each in a sentence.
 */
function checkFound(
  found: Found,
  sent: { allocations: Allocation[]; batches: Batch[]; slots: Slot[]; limits: Limit[]; children: string[] },
): string[] {
  const problems: string[] = [];
  // Allocations: each acknowledged key holds its answer and both entries; nothing beyond the keys sent.
  let committed = 0;
  for (const a of sent.allocations) {
    const held = found.allocations.get(a.key);
    if (a.state === 'acknowledged' && (held?.transactionId !== a.transactionId || held?.entries !== 2)) {
      problems.push(`acknowledged allocation ${a.key} lost: held ${JSON.stringify(held)}`);
    }
    if (held) {
      committed++;
      if (held.entries !== 2) problems.push(`allocation ${a.key} half-written: ${held.entries} entries`);
    }
  }
  if (found.allocations.size !== committed) problems.push(`${found.allocations.size} keys held, ${committed} of them sent`);
  if (found.allocationsReceived !== committed)
    problems.push(`${found.allocationsReceived} allocations in the ledger for ${committed} committed keys`);
  if (found.halfWrittenGroups !== 0) problems.push(`${found.halfWrittenGroups} half-written allocation groups`);

  // Usage: each batch whole or not at all, acknowledged ones whole, no event twice.
  for (const b of sent.batches) {
    const held = found.eventsPerBatch.get(b.n) ?? 0;
    if (held !== 0 && held !== USAGE_BATCH) problems.push(`usage batch ${b.n} half-written: ${held} of ${USAGE_BATCH} events`);
    if (b.state === 'acknowledged' && held !== USAGE_BATCH) problems.push(`acknowledged usage batch ${b.n} lost: ${held} events held`);
  }
  const batchNumbers = new Set(sent.batches.map((b) => b.n));
  for (const n of found.eventsPerBatch.keys()) if (!batchNumbers.has(n)) problems.push(`usage batch ${n} held but never sent`);
  if (found.eventsHeldTwice !== 0) problems.push(`${found.eventsHeldTwice} events held twice`);

  // Activations: per slot, the acknowledged ones are there as acknowledged, at most one more
  // (the unanswered activation), and the live one is what was acknowledged or asked.
  for (const slot of sent.slots) {
    const rows = found.activations.filter((a) => a.organization_id === slot.organizationId && a.agent_type_id === slot.agentTypeId);
    const known = new Set(slot.activated);
    const where = `slot ${slot.organizationId}/${slot.agentTypeId}`;
    for (const id of slot.activated) if (!rows.some((r) => r.id === id)) problems.push(`${where}: acknowledged activation ${id} lost`);
    for (const id of slot.deactivated)
      if (rows.find((r) => r.id === id)?.live !== false) problems.push(`${where}: acknowledged deactivation of ${id} lost`);
    const unknown = rows.filter((r) => !known.has(r.id));
    if (unknown.length > (slot.pending?.op === 'activate' ? 1 : 0))
      problems.push(`${where}: ${unknown.length} activations never acknowledged`);
    const live = rows.filter((r) => r.live).map((r) => r.id);
    const allowed: string[][] =
      slot.pending?.op === 'activate'
        ? [[], unknown.map((r) => r.id)]
        : slot.pending?.op === 'deactivate'
          ? [[slot.pending.id], []]
          : [slot.liveId ? [slot.liveId] : []];
    if (!allowed.some((ids) => ids.length === live.length && ids.every((id) => live.includes(id)))) {
      problems.push(`${where}: live ${JSON.stringify(live)}, expected one of ${JSON.stringify(allowed)}`);
    }
    for (const r of rows) {
      if (r.deactivate_audits !== (r.live ? 0 : 1))
        problems.push(`${where}: activation ${r.id} (live ${r.live}) has ${r.deactivate_audits} deactivation audit rows`);
    }
  }

  // Agent limits: the acknowledged value, or the unanswered one when its audit row committed.
  for (const limit of sent.limits) {
    const audits = found.limitAudits.get(limit.organizationId) ?? 0;
    const value = found.limits.get(limit.organizationId);
    const where = `limit of ${limit.organizationId}`;
    if (limit.pending === null) {
      if (audits !== limit.changes || value !== limit.acknowledged)
        problems.push(`${where}: ${value} with ${audits} changes, acknowledged ${limit.acknowledged} with ${limit.changes}`);
    } else if (audits === limit.changes + 1) {
      if (value !== limit.pending)
        problems.push(`${where}: the unanswered change to ${limit.pending} committed its audit row but the limit is ${value}`);
    } else if (audits !== limit.changes || value !== limit.acknowledged) {
      problems.push(
        `${where}: ${value} with ${audits} changes, acknowledged ${limit.acknowledged} with ${limit.changes}, unanswered ${limit.pending}`,
      );
    }
  }

  // The books: the server's own reconciliation, and credits conserved (what left the system is what usage charged).
  if (!found.reconcile.ok) problems.push(`reconciliation failed: ${JSON.stringify(found.reconcile).slice(0, 1000)}`);
  const balances = [...found.balancesCents.values()].reduce((sum, n) => sum + n, 0);
  const charged = [...found.chargedCents.values()].reduce((sum, n) => sum + n, 0);
  if (balances !== found.adjustmentsCents - charged)
    problems.push(`credits not conserved: balances ${balances}, adjustments ${found.adjustmentsCents}, charged ${charged}`);
  if (found.adjustmentsCents !== FUNDS_CENTS) problems.push(`adjustments ${found.adjustmentsCents}, funded ${FUNDS_CENTS}`);
  return problems;
}
