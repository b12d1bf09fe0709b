/**
 * What the server does with clients that misbehave or race: unique values saved twice at
 * once are 409 (never 500), a client that goes away is not a database outage, a body that
 * trickles in is cut off, and CSV exports are bounded per person and per process.
 *
 * The races are real on PostgreSQL (DATABASE_URL); PGlite runs one statement at a time,
 * so there they only check the answers' arithmetic.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { EXPORT_LIMITS } from '../lib/csv.ts';
import { createTestApp, type TestApp } from '../test/harness.ts';
import { houseId, insertUser } from '../test/fixtures.ts';
import { createLoggedApp, type LoggedApp } from './logged-app.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);
const PASSWORD = 'an infrastructure password';

describe(`unique values saved by concurrent requests${onPostgres ? '' : ' (PGlite: serialized, the answers only)'}`, () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = (await t.signIn(t.admin.email, t.admin.password)).token;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ten identical invitations at once: one 201 and nine 409, no 5xx, one invitation', async () => {
    const body = { email: 'twice@race.test', first_name: 'Ray', last_name: 'Race', role: 'house_user' };
    const responses = await Promise.all(Array.from({ length: 10 }, () => t.request('POST', '/api/invitations', body, { token })));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    for (const response of responses.filter((r) => r.status === 409)) expect(response.body.error.code).toBe('conflict');
    const rows = await t.database.db.selectFrom('invitations').select('id').where('email', '=', 'twice@race.test').execute();
    expect(rows).toHaveLength(1);
  });

  it('one e-mail registered into two organizations at once: one account, the other 409, no 5xx', async () => {
    const child = await t.request('POST', '/api/organizations', { name: 'Race Child', org_type: 'super_agency' }, { token });
    expect(child.status).toBe(201);
    const email = 'double@race.test';
    for (const organization_id of [undefined, child.body.organization.id]) {
      const invited = await t.request(
        'POST',
        '/api/invitations',
        { email, first_name: 'Dee', last_name: 'Double', role: organization_id ? 'super_agency_user' : 'house_user', organization_id },
        { token },
      );
      expect(invited.status).toBe(201);
    }
    const links = await t.database.db.selectFrom('outbox').select('link').where('to_address', '=', email).execute();
    const tokens = links.map((row) => new URL(row.link!).searchParams.get('token'));
    expect(tokens).toHaveLength(2);
    const responses = await Promise.all(
      tokens.map((invitation) => t.request('POST', '/api/invitations/register', { token: invitation, password: PASSWORD })),
    );
    expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
    const accounts = await t.database.db.selectFrom('users').select('id').where(sql`lower(email)`, '=', email).execute();
    expect(accounts).toHaveLength(1);
  });
});

describe('names are one line', () => {
  it('a line break or control character in an organization, person or invitation name is 400, and nothing changes', async () => {
    const t = await createTestApp();
    try {
      const { token } = await t.signIn(t.admin.email, t.admin.password);
      const me = await t.request('GET', '/api/users/me', undefined, { token });
      const count = async () => {
        const [orgs, invitations] = await Promise.all([
          t.database.db.selectFrom('organizations').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
          t.database.db.selectFrom('invitations').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
        ]);
        const user = await t.database.db
          .selectFrom('users')
          .select(['first_name', 'last_name'])
          .where('email', '=', t.admin.email)
          .executeTakeFirstOrThrow();
        return { orgs: orgs.n, invitations: invitations.n, user };
      };
      const before = await count();
      for (const control of ['\r\n', '\n', '\t', '\u0007', '\u001b[31m', '\u2028']) {
        const name = `Evil${control}Name`;
        const calls = [
          t.request('POST', '/api/organizations', { name, org_type: 'super_agency' }, { token }),
          t.request('PATCH', '/api/users/me', { first_name: name }, { token }),
          t.request('PATCH', `/api/users/${me.body.id}`, { last_name: name }, { token }),
          t.request(
            'POST',
            '/api/invitations',
            { email: 'control@names.test', first_name: name, last_name: 'Plain', role: 'house_user' },
            { token },
          ),
        ];
        for (const response of await Promise.all(calls)) {
          expect(response.status, JSON.stringify(control)).toBe(400);
          expect(response.body.error.code).toBe('validation_failed');
        }
      }
      expect(await count()).toEqual(before);
    } finally {
      await t.close();
    }
  });
});

/** Sends the request line and headers, and returns the socket (the body is the caller's). */
function rawRequest(port: number, head: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
    socket.write(head);
  });
}

/** Everything the server sends until it closes the connection, and when that happened. */
function untilClosed(socket: Socket): Promise<{ text: string; at: number }> {
  const chunks: Buffer[] = [];
  return new Promise((resolve) => {
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => resolve({ text: Buffer.concat(chunks).toString('latin1'), at: performance.now() }));
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('clients that trickle or go away', () => {
  let app: LoggedApp;
  const REQUEST_MS = 1500;
  beforeAll(async () => {
    app = await createLoggedApp({ timeouts: { requestMs: REQUEST_MS, headersMs: REQUEST_MS, checkIntervalMs: 250 } });
  });
  afterAll(async () => {
    await app?.close();
  });

  const errors = () => app.log.filter((line) => line.level >= 50);

  it('a body that trickles in a byte at a time is cut off within the request timeout (408)', async () => {
    const started = performance.now();
    const socket = await rawRequest(
      app.port,
      'POST /api/auth/sign-in HTTP/1.1\r\nHost: console.test\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n',
    );
    const closed = untilClosed(socket);
    const trickle = setInterval(() => socket.writable && socket.write(' '), 100);
    try {
      const { text, at } = await closed;
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
      expect(at - started).toBeGreaterThanOrEqual(REQUEST_MS - 50);
      expect(at - started).toBeLessThan(REQUEST_MS + 2000);
    } finally {
      clearInterval(trickle);
    }
    expect(errors()).toEqual([]);
  });

  it('headers that never end are cut off too', async () => {
    const started = performance.now();
    const socket = await rawRequest(app.port, 'GET /api/health HTTP/1.1\r\nHost: console.test\r\n');
    const { at } = await untilClosed(socket);
    expect(at - started).toBeLessThan(REQUEST_MS + 2000);
  });

  it('a client that aborts mid-body is no database outage: nothing logged at error level', async () => {
    const before = app.log.length;
    const socket = await rawRequest(
      app.port,
      'POST /api/auth/sign-in HTTP/1.1\r\nHost: console.test\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":',
    );
    await sleep(100);
    socket.destroy();
    await sleep(300);
    const lines = app.log.slice(before);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
    expect(lines.map((line) => line.msg)).not.toContain('database unavailable');
    // The server is as well as before.
    expect((await fetch(`${app.baseUrl}/api/health`)).status).toBe(200);
  });
});

describe('CSV exports at once', () => {
  let app: LoggedApp;
  const ROWS = 5000;
  beforeAll(async () => {
    // Short request deadlines: a streamed export runs past them, and must not be cut.
    app = await createLoggedApp({ timeouts: { requestMs: 1000, headersMs: 1000, checkIntervalMs: 200 } });
    const house = await houseId(app.database.db);
    // Enough rows (about 10 MB) that a client that stops reading holds its export open.
    await sql`
      insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, balance_after, metadata)
      select ${house}, 1.00, 'adjustment_increase', gen_random_uuid(), g, jsonb_build_object('notes', repeat('n', 2000))
      from generate_series(1, ${ROWS}) g`.execute(app.database.db);
    for (const n of [1, 2, 3]) {
      await insertUser(app.database.db, {
        email: `support${n}@export.test`,
        password: PASSWORD,
        role: 'house_support',
        organizationId: house,
      });
    }
  });
  // Closing the embedded database after 10 MB of rows took past the default 60 s once, on a busy
  // 2-core machine (a CI run beside other test runs): a guard against a hang, not a speed check.
  afterAll(async () => {
    await app?.close();
  }, 180_000);

  /** An export whose client reads the status line and then stops reading. */
  async function stalledExport(token: string) {
    const socket = await rawRequest(
      app.port,
      `GET /api/credits/ledger/export HTTP/1.1\r\nHost: console.test\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
    );
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve) =>
      socket.once('data', (chunk: Buffer) => {
        chunks.push(chunk);
        socket.pause();
        resolve();
      }),
    );
    return {
      status: Number(/^HTTP\/1\.1 (\d+)/.exec(chunks[0]!.toString('latin1'))?.[1]),
      /** Reads the rest: the number of ledger rows the CSV held. */
      finish: () =>
        new Promise<number>((resolve) => {
          socket.on('data', (chunk: Buffer) => chunks.push(chunk));
          socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1').split('adjustment_increase').length - 1));
          socket.resume();
        }),
    };
  }

  const exportNow = (token: string) => fetch(`${app.baseUrl}/api/credits/ledger/export`, { headers: { authorization: `Bearer ${token}` } });

  it(`one person: ${EXPORT_LIMITS.perUser} at once, the next is 429 with Retry-After, and all complete afterwards`, async () => {
    const token = await app.signIn('support1@export.test', PASSWORD);
    const running = [];
    for (let i = 0; i < EXPORT_LIMITS.perUser; i++) running.push(await stalledExport(token));
    expect(running.map((r) => r.status)).toEqual(Array(EXPORT_LIMITS.perUser).fill(200));

    const refused = await exportNow(token);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe(String(EXPORT_LIMITS.retryAfterSeconds));
    expect(await refused.json()).toEqual({ error: { code: 'rate_limited', message: expect.stringContaining('try again') } });

    // Held past the request deadline: a streamed answer is not cut by it.
    await sleep(1500);
    expect(await Promise.all(running.map((r) => r.finish()))).toEqual(Array(EXPORT_LIMITS.perUser).fill(ROWS));
    const after = await exportNow(token);
    expect(after.status).toBe(200);
    expect((await after.text()).split('\r\n').filter(Boolean)).toHaveLength(ROWS + 1);
  });

  it(`many at once by several people, one concurrent burst: never more than ${EXPORT_LIMITS.perProcess} run, the rest are 429`, async () => {
    const tokens = await Promise.all([1, 2, 3].map((n) => app.signIn(`support${n}@export.test`, PASSWORD)));
    const running = [];
    for (const token of tokens.slice(0, 2)) for (let i = 0; i < EXPORT_LIMITS.perUser; i++) running.push(await stalledExport(token));
    expect(running.map((r) => r.status)).toEqual(Array(EXPORT_LIMITS.perProcess).fill(200));
    // A third person, who has no export running, waits for the process's slots.
    const burst = await Promise.all(Array.from({ length: 5 }, () => exportNow(tokens[2]!)));
    expect(burst.map((r) => r.status)).toEqual(Array(5).fill(429));
    await Promise.all(running.map((r) => r.finish()));
    expect((await exportNow(tokens[2]!)).status).toBe(200);
  });

  it(`one person's bound holds across server processes: with ${EXPORT_LIMITS.perUser} running on one, another process answers 429`, async () => {
    const second = await createLoggedApp({ sharing: app });
    try {
      const token = await app.signIn('support2@export.test', PASSWORD);
      const elsewhere = () => fetch(`${second.baseUrl}/api/credits/ledger/export`, { headers: { authorization: `Bearer ${token}` } });
      const running = [];
      for (let i = 0; i < EXPORT_LIMITS.perUser; i++) running.push(await stalledExport(token));
      const refused = await elsewhere();
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe(String(EXPORT_LIMITS.retryAfterSeconds));
      await refused.text();
      await Promise.all(running.map((r) => r.finish()));
      // The slots are freed as their answers end.
      let after = await elsewhere();
      for (let tries = 0; after.status === 429 && tries < 20; tries++) {
        await sleep(100);
        after = await elsewhere();
      }
      expect(after.status).toBe(200);
      await after.text();
    } finally {
      await second.close();
    }
  });

  it('the bounds hold across export routes: with two ledger exports running, an activity export is 429 too', async () => {
    await insertUser(app.database.db, {
      email: 'admin@export.test',
      password: PASSWORD,
      role: 'house_admin',
      organizationId: await houseId(app.database.db),
    });
    const token = await app.signIn('admin@export.test', PASSWORD);
    const running = [];
    for (let i = 0; i < EXPORT_LIMITS.perUser; i++) running.push(await stalledExport(token));
    const activity = () => fetch(`${app.baseUrl}/api/activity/export`, { headers: { authorization: `Bearer ${token}` } });
    expect((await activity()).status).toBe(429);
    await Promise.all(running.map((r) => r.finish()));
    const after = await activity();
    expect(after.status).toBe(200);
    await after.text();
  });

  it('a client that goes away mid-export frees its slot and logs nothing at error level', async () => {
    const token = await app.signIn('support3@export.test', PASSWORD);
    const before = app.log.length;
    for (let round = 0; round < EXPORT_LIMITS.perUser + 1; round++) {
      const response = await exportNow(token);
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      await reader.read();
      await reader.cancel();
    }
    await sleep(300);
    expect((await exportNow(token)).status).toBe(200);
    expect(app.log.slice(before).filter((line) => line.level >= 50)).toEqual([]);
  });
});
