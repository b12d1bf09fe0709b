/**
 * Webhooks under faults, on PostgreSQL with the real server process: a SIGKILL while
 * deliveries are in flight loses no event and sends again at most the ones that were in
 * flight; and a receiver answering 10 MB bodies leaves the server's memory flat (only the
 * start of each answer is read).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { openDatabase } from '../apps/server/src/db/connection.ts';
import { createDatabase, killServers, must, signIn, sleep, startServer, writeResults, type FreshDatabase } from './harness.ts';

const EVENTS = 300;
/** Each answer waits this long, so deliveries are always in flight when the server is killed. */
const ANSWER_DELAY_MS = 200;

let database: FreshDatabase;
const received: { id: string; at: number }[] = [];
/** Deliveries received whose answer was not yet sent. */
const inFlight = new Set<string>();
/** When each delivery's answer was sent. */
const answeredAt = new Map<string, number>();
/**
 * A delivery answered this shortly before the kill may not have had its outcome recorded yet
 * (the dispatcher records the outcomes that came while its previous record was written in one
 * statement; on a busy machine a record can wait several hundred ms for the database): from the
 * sender's side it was still in flight.
 */
const RECORD_WINDOW_MS = 1_000;
let mode: 'slow' | 'huge' = 'slow';
/** Of each 10 MB answer, how many bytes went out before the server closed the connection. */
const hugeWritten: number[] = [];
const receiver = createServer((request, response: ServerResponse) => {
  const id = String(request.headers['webhook-id'] ?? '');
  request.resume();
  request.on('end', () => {
    received.push({ id, at: Date.now() });
    if (mode === 'huge') {
      response.writeHead(200);
      const chunk = Buffer.alloc(256 * 1024, 120);
      let sent = 0;
      const more = () => {
        while (sent < 10 * 1024 * 1024) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', more);
        }
        response.end();
      };
      response.on('error', () => {});
      response.on('close', () => hugeWritten.push(response.writableFinished ? sent : sent - response.writableLength));
      return more();
    }
    inFlight.add(id);
    setTimeout(() => {
      inFlight.delete(id);
      answeredAt.set(id, Date.now());
      response.end('ok');
    }, ANSWER_DELAY_MS);
  });
});

beforeAll(async () => {
  database = await createDatabase();
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await killServers();
  receiver.closeAllConnections();
  receiver.close();
  await database?.drop();
});

test('a SIGKILL mid-delivery loses no event and repeats only those in flight; 10 MB answers leave memory flat', async () => {
  const env = { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' };
  const first = await startServer({ databaseUrl: database.url, env });
  const token = await signIn(first.url);
  const me = await must<{ organization_id: string }>(first.url, 'GET', '/api/users/me', { token });
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const made = await must<{ endpoint: { id: string } }>(first.url, 'POST', `/api/organizations/${me.organization_id}/webhooks`, {
    token,
    body: { url, event_types: ['credits.adjusted'], include_subtree: true },
  });
  const opened = await openDatabase({ databaseUrl: database.url, dataDir: '/nonexistent', purpose: 'webhooks check' });
  const db = opened.db;
  try {
    // The burst, as the changes would write it: the trigger makes one delivery each.
    await sql`insert into webhook_events (type, organization_id, data)
      select 'credits.adjusted', ${me.organization_id}::uuid, jsonb_build_object('amount', n || '.00', 'balance_after', '0.00', 'notes', null)
      from generate_series(1, ${EVENTS}) n`.execute(db);
    const ids = (await sql<{ id: string }>`select id from webhook_events where type = 'credits.adjusted'`.execute(db)).rows.map(
      (r) => r.id,
    );
    expect(ids).toHaveLength(EVENTS);
    while (received.length < 60) await sleep(20);
    const killedAt = Date.now();
    first.signal('SIGKILL');
    const flying = new Set([...inFlight, ...[...answeredAt].filter(([, at]) => at > killedAt - RECORD_WINDOW_MS).map(([id]) => id)]);
    await first.exited;
    const second = await startServer({ databaseUrl: database.url, env });
    // The killed process's leases expire (twice the 10 s timeout and 5 s), then everything is sent.
    const deadline = Date.now() + 120_000;
    for (;;) {
      const { rows } = await sql<{ n: number }>`select count(*)::integer as n from webhook_deliveries where state = 'delivered'`.execute(
        db,
      );
      if (rows[0]!.n === EVENTS) break;
      if (Date.now() > deadline) throw new Error(`only ${rows[0]!.n} of ${EVENTS} delivered`);
      await sleep(250);
    }
    const counts = new Map<string, number>();
    for (const r of received) counts.set(r.id, (counts.get(r.id) ?? 0) + 1);
    const lost = ids.filter((id) => !counts.has(id));
    const twice = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
    expect(lost).toEqual([]);
    expect(
      twice.every((id) => flying.has(id)),
      `sent twice: ${twice.length}, in flight at the kill: ${flying.size}`,
    ).toBe(true);

    // Memory: 200 deliveries answered with 10 MB each.
    mode = 'huge';
    const before = second.rssMiB();
    await sql`insert into webhook_events (type, organization_id, data)
      select 'credits.adjusted', ${me.organization_id}::uuid, jsonb_build_object('amount', n || '.00', 'balance_after', '0.00', 'notes', null)
      from generate_series(1, 200) n`.execute(db);
    const end = Date.now() + 120_000;
    let peak = before;
    for (;;) {
      peak = Math.max(peak, second.rssMiB());
      const { rows } = await sql<{ n: number }>`select count(*)::integer as n from webhook_deliveries where state = 'delivered'`.execute(
        db,
      );
      if (rows[0]!.n === EVENTS + 200) break;
      if (Date.now() > end) throw new Error(`only ${rows[0]!.n - EVENTS} of 200 huge answers delivered`);
      await sleep(100);
    }
    const kept = await sql<{ longest: number }>`select max(length(response_body))::integer as longest from webhook_attempts`.execute(db);
    expect(kept.rows[0]!.longest).toBeLessThanOrEqual(500);
    // The server reads the start of an answer and closes the connection: of 10 MB, the receiver got out only what
    // the sockets' buffers held before the close (a few MB on loopback), never the whole; and 200 such answers
    // (2 GB) leave the memory flat.
    const written = hugeWritten.slice(-200);
    expect(written).toHaveLength(200);
    expect(written.filter((bytes) => bytes >= 10 * 1024 * 1024)).toEqual([]);
    expect(peak - before).toBeLessThan(100);
    writeResults('webhooks', {
      events: EVENTS,
      inFlightAtKill: flying.size,
      sentTwice: twice.length,
      lost: lost.length,
      hugeAnswers: {
        count: 200,
        rssBeforeMiB: before,
        rssPeakMiB: peak,
        mostWrittenMiB: Math.round(Math.max(...written) / 10485.76) / 100,
      },
    });
    await db.selectFrom('webhook_endpoints').select('id').where('id', '=', made.endpoint.id).executeTakeFirstOrThrow();
  } finally {
    await opened.close();
  }
});
