/**
 * Accounts, through HTTP on a real database: recovery that tells no account apart (by its
 * answer, its timing or a mail failure), the current password for a signed-in change,
 * deactivation ending every session, reset links voided by a new password, and nobody
 * acting on a person of a higher rank.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { pino } from 'pino';
import type { FastifyInstance } from 'fastify';
import { MESSAGES, RATE_LIMITS } from '@console/domain';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { ensureFirstHouseAdmin } from '../db/bootstrap.ts';
import type { Mailer, MailMessage } from '../lib/mail.ts';
import { ADMIN, createTestApp, freshDatabase, useWorld } from '../test/harness.ts';
import { PASSWORD, houseId, insertUser } from '../test/fixtures.ts';

const w = useWorld();
let checks = 0;
afterEach(() => {
  checks += expect.getState().assertionCalls;
});
afterAll(() => {
  console.log(`accounts.test.ts: ${checks} checks`);
});

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The API with a mailer of the test's own and a logger whose lines the test reads. */
async function appWithMailer(mailer: Mailer) {
  const database = await freshDatabase();
  await ensureFirstHouseAdmin(database.db, ADMIN);
  const logLines: string[] = [];
  const app: FastifyInstance = await buildApp({
    config: { ...loadConfig({ LOG_LEVEL: 'info', DATA_DIR: '/nonexistent' }), appUrl: 'http://console.test' },
    database,
    jwtSecret: randomBytes(32).toString('hex'),
    logger: pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) }),
    serveWeb: false,
    rateLimits: { ...RATE_LIMITS, signInPerAddress: 1000, signInPerEmail: 1000, recoverPerAddress: 1000, recoverPerEmail: 1000 },
    mailer,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    database,
    logLines,
    async recover(email: string) {
      const started = performance.now();
      const response = await fetch(`${baseUrl}/api/auth/recover`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });
      return { status: response.status, body: (await response.json()) as { message?: string }, ms: performance.now() - started };
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
}

async function addUser(db: Parameters<typeof houseId>[0], email: string) {
  return insertUser(db, { email, password: PASSWORD, role: 'house_user', organizationId: await houseId(db) });
}

describe('password recovery tells no account apart', () => {
  it('answers before any per-account work: a mailer that never finishes still gets an immediate 200', async () => {
    const sent: MailMessage[] = [];
    let release = () => {};
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const api = await appWithMailer({
      kind: 'smtp',
      async send(message) {
        sent.push(message);
        await blocked;
      },
    });
    try {
      await addUser(api.database.db, 'stuck@accounts.test');
      const known = await api.recover('stuck@accounts.test');
      const unknown = await api.recover('nobody@accounts.test');
      expect(known.status).toBe(200);
      expect(unknown.status).toBe(200);
      expect(known.body).toEqual(unknown.body);
      // Awaiting the mailer would never answer; the answer came back at once.
      expect(known.ms).toBeLessThan(2000);
      // The link was made and handed to the mailer after the answer, which it still holds.
      await expect.poll(() => sent.length, { timeout: 10_000 }).toBe(1);
      expect(sent[0]!.to).toBe('stuck@accounts.test');
    } finally {
      release();
      await api.close();
    }
  });

  it('takes the same time for a known and an unknown e-mail, even with a slow mail server', async () => {
    const MAIL_MS = 300;
    const api = await appWithMailer({ kind: 'smtp', send: () => new Promise((resolve) => setTimeout(resolve, MAIL_MS)) });
    try {
      await addUser(api.database.db, 'slow-mail@accounts.test');
      const times = { known: [] as number[], unknown: [] as number[] };
      for (let i = 0; i < 23; i++) {
        for (const kind of ['known', 'unknown'] as const) {
          const result = await api.recover(kind === 'known' ? 'slow-mail@accounts.test' : `ghost${i}@accounts.test`);
          expect(result.status).toBe(200);
          // The first three of each are a warm-up.
          if (i >= 3) times[kind].push(result.ms);
        }
      }
      const known = median(times.known);
      const unknown = median(times.unknown);
      console.log(
        `recovery timing over 20 requests each, mail taking ${MAIL_MS} ms: known e-mail median ${known.toFixed(1)} ms, unknown ${unknown.toFixed(1)} ms`,
      );
      // Waiting for the mail would put the known e-mail at 300 ms or more.
      expect(known).toBeLessThan(MAIL_MS / 2);
      expect(Math.abs(known - unknown)).toBeLessThan(50);
    } finally {
      await api.close();
    }
  });

  it('a failing mail server gives the same 200 for both, and the failure is logged without the link', async () => {
    const links: string[] = [];
    const api = await appWithMailer({
      kind: 'smtp',
      async send(message) {
        links.push(message.link!);
        // A mail server's refusal may quote what it was sent.
        throw Object.assign(new Error(`550 rejected message with ${message.link}`), { code: 'EENVELOPE' });
      },
    });
    try {
      await addUser(api.database.db, 'no-mail@accounts.test');
      const known = await api.recover('no-mail@accounts.test');
      const unknown = await api.recover('nobody@accounts.test');
      expect([known.status, unknown.status]).toEqual([200, 200]);
      expect(known.body).toEqual(unknown.body);
      expect(known.body.message).toBe(MESSAGES.auth.resetSent);
      await expect
        .poll(() => api.logLines.filter((line) => line.includes('password recovery mail failed')).length, { timeout: 10_000 })
        .toBe(1);
      const token = new URL(links[0]!).hash.match(/access_token=([^&]+)/)![1]!;
      const failure = JSON.parse(api.logLines.find((line) => line.includes('password recovery mail failed'))!);
      expect(failure.error).toMatchObject({ code: 'EENVELOPE', message: expect.stringContaining('[redacted]') });
      expect(api.logLines.join('\n')).not.toContain(token);
    } finally {
      await api.close();
    }
  });

  it('mails the address stored for the account, not the spelling typed', async () => {
    const sent: MailMessage[] = [];
    const api = await appWithMailer({ kind: 'smtp', send: async (message) => void sent.push(message) });
    try {
      await addUser(api.database.db, 'Mixed.Case@Accounts.test');
      expect((await api.recover('  mixed.case@ACCOUNTS.TEST ')).status).toBe(200);
      await expect.poll(() => sent.length, { timeout: 10_000 }).toBe(1);
      expect(sent[0]!.to).toBe('Mixed.Case@Accounts.test');
    } finally {
      await api.close();
    }
  });
});

// With the fixture world: sessions, reset links and people, as the console's callers meet them.

const me = (token: string) => w.t.request('GET', '/api/users/me', undefined, { token });
const refresh = (cookie: string) => w.t.request('POST', '/api/auth/refresh', undefined, { cookie });
const changePassword = (token: string, body: Record<string, unknown>) => w.t.request('POST', '/api/auth/password', body, { token });
const signInStatus = async (email: string, password: string) =>
  (await w.t.request('POST', '/api/auth/sign-in', { email, password })).status;

let people = 0;
/** A fresh person of tenant T1, so one test's revocations touch no other test. */
async function newPerson(role = 'tenant_user') {
  const email = `person${++people}@accounts.test`;
  const { id } = await insertUser(w.t.database.db, { email, password: PASSWORD, role, organizationId: w.id('T1') });
  return { id, email };
}

/** Asks for a reset link and waits for the mail (sent after the answer), then gives its token. */
async function resetLink(email: string): Promise<string> {
  const mails = () =>
    w.t.database.db
      .selectFrom('outbox')
      .select('id')
      .where('to_address', '=', email)
      .execute()
      .then((rows) => rows.length);
  const before = await mails();
  expect((await w.t.request('POST', '/api/auth/recover', { email })).status).toBe(200);
  await expect.poll(mails, { timeout: 10_000 }).toBe(before + 1);
  const { link } = await w.t.database.db
    .selectFrom('outbox')
    .select('link')
    .where('to_address', '=', email)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  return new URL(link!).hash.match(/access_token=([^&]+)/)![1]!;
}

const reset = (token: string, password: string) => w.t.request('POST', '/api/auth/password', { token, password });

describe('changing the password while signed in', () => {
  it('requires the current password: missing or wrong is a 400 on that field and changes nothing', async () => {
    const person = await newPerson();
    const { token } = await w.t.signIn(person.email, PASSWORD);
    const missing = await changePassword(token, { password: 'taken-over-1' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.fields).toEqual({ current_password: MESSAGES.auth.currentPasswordRequired });
    const wrong = await changePassword(token, { password: 'taken-over-1', current_password: 'a-guess-123' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({
      message: MESSAGES.auth.currentPasswordWrong,
      fields: { current_password: MESSAGES.auth.currentPasswordWrong },
    });
    expect(await signInStatus(person.email, 'taken-over-1')).toBe(401);
    expect(await signInStatus(person.email, PASSWORD)).toBe(200);

    expect((await changePassword(token, { password: 'my-new-password', current_password: PASSWORD })).status).toBe(200);
    expect(await signInStatus(person.email, 'my-new-password')).toBe(200);
    expect((await me(token)).status).toBe(200);
  });

  it('counts every try against the account: after the allowance even the right password waits', async () => {
    const limited = await createTestApp({ rateLimits: { signInPerEmail: 3 } });
    try {
      const db = limited.database.db;
      await insertUser(db, { email: 'guessed@accounts.test', password: PASSWORD, role: 'house_user', organizationId: await houseId(db) });
      await insertUser(db, { email: 'bystander@accounts.test', password: PASSWORD, role: 'house_user', organizationId: await houseId(db) });
      const { token } = await limited.signIn('guessed@accounts.test', PASSWORD);
      const change = (bearer: string, current: string) =>
        limited.request('POST', '/api/auth/password', { password: 'new-password-9', current_password: current }, { token: bearer });
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await change(token, `guess-${i}-abc`)).status);
      expect(statuses).toEqual([400, 400, 400]);
      const limitedAnswer = await change(token, PASSWORD);
      expect(limitedAnswer.status).toBe(429);
      expect(limitedAnswer.body.error.code).toBe('rate_limited');
      expect(
        (await limited.request('POST', '/api/auth/sign-in', { email: 'guessed@accounts.test', password: 'new-password-9' })).status,
      ).toBe(401);
      // The count is the account's: another person from the same address changes theirs.
      const other = await limited.signIn('bystander@accounts.test', PASSWORD);
      expect((await change(other.token, PASSWORD)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('reset links', () => {
  it('a reset voids every older link of the account that is still unused', async () => {
    const person = await newPerson();
    const older = await resetLink(person.email);
    const newer = await resetLink(person.email);
    expect((await reset(newer, 'reset-password-1')).status).toBe(200);
    const stale = await reset(older, 'reset-password-2');
    expect(stale.status).toBe(400);
    expect(stale.body.error.message).toBe(MESSAGES.auth.invalidResetLink);
    expect(await signInStatus(person.email, 'reset-password-2')).toBe(401);
    expect(await signInStatus(person.email, 'reset-password-1')).toBe(200);
  });

  it('a signed-in change voids every pending link', async () => {
    const person = await newPerson();
    const pending = await resetLink(person.email);
    const { token } = await w.t.signIn(person.email, PASSWORD);
    expect((await changePassword(token, { password: 'changed-password-1', current_password: PASSWORD })).status).toBe(200);
    expect((await reset(pending, 'from-old-link-1')).status).toBe(400);
    expect(await signInStatus(person.email, 'changed-password-1')).toBe(200);
  });
});

describe('deactivation', () => {
  it('ends every session and voids reset links, so reactivation revives nothing', async () => {
    const person = await newPerson();
    const sessions = [await w.t.signIn(person.email, PASSWORD), await w.t.signIn(person.email, PASSWORD)];
    const link = await resetLink(person.email);
    const admin = await w.as('A1.admin');
    expect((await w.t.request('DELETE', `/api/users/${person.id}`, undefined, { token: admin })).status).toBe(200);
    const reactivated = await w.t.request('PATCH', `/api/users/${person.id}`, { status: 'active' }, { token: admin });
    expect(reactivated.status).toBe(200);
    expect(reactivated.body.user.status).toBe('active');

    for (const session of sessions) {
      expect((await me(session.token)).status).toBe(401);
      expect((await refresh(session.cookie)).status).toBe(401);
    }
    expect((await reset(link, 'revived-password-1')).status).toBe(400);
    const reasons = await w.t.database.db
      .selectFrom('refresh_sessions')
      .select('revoked_reason')
      .where('user_id', '=', person.id)
      .execute();
    expect(reasons.map((r) => r.revoked_reason)).toEqual(['deactivated', 'deactivated']);
    // The person signs in afresh with the password they have.
    expect(await signInStatus(person.email, PASSWORD)).toBe(200);
  });

  it('a status change through the edit form ends the sessions too', async () => {
    const person = await newPerson();
    const session = await w.t.signIn(person.email, PASSWORD);
    const admin = await w.as('T1.admin');
    expect((await w.t.request('PATCH', `/api/users/${person.id}`, { status: 'inactive' }, { token: admin })).status).toBe(200);
    expect((await w.t.request('PATCH', `/api/users/${person.id}`, { status: 'active' }, { token: admin })).status).toBe(200);
    expect((await me(session.token)).status).toBe(401);
    expect((await refresh(session.cookie)).status).toBe(401);
  });
});

describe('rank', () => {
  async function usersDigest() {
    const { rows } = await sql<{
      s: string;
    }>`select md5(string_agg(id || role || status || coalesce(first_name, '') || coalesce(last_name, ''), ',' order by id)) as s from users`.execute(
      w.t.database.db,
    );
    return rows[0]!.s;
  }
  const idOf = async (who: string) =>
    (await w.t.database.db.selectFrom('users').select('id').where('email', '=', w.world.users[who]!).executeTakeFirstOrThrow()).id;

  const refused: [string, string, Record<string, string>][] = [
    ['A1.manager', 'A1.admin', { first_name: 'Demoted' }],
    ['A1.manager', 'T1.admin', { first_name: 'Demoted' }],
    ['SA1.manager', 'A1.admin', { first_name: 'Demoted' }],
    ['A1.manager', 'A1.admin', { status: 'inactive' }],
  ];
  it.each(refused)('%s may not edit %s, who ranks above (403, nothing changes): %j', async (who, target, body) => {
    const before = await usersDigest();
    const response = await w.t.request('PATCH', `/api/users/${await idOf(target)}`, body, { token: await w.as(who) });
    expect(response.status).toBe(403);
    if (!('status' in body)) expect(response.body.error.message).toBe(MESSAGES.users.higherRank);
    expect(await usersDigest()).toBe(before);
  });

  it.each([
    ['A1.manager', 'T1.manager'],
    ['A1.manager', 'A1.support'],
    ['A1.admin', 'T1.admin'],
  ] as const)('%s edits %s, of an equal or lower rank', async (who, target) => {
    const response = await w.t.request(
      'PATCH',
      `/api/users/${await idOf(target)}`,
      { last_name: `Edited by ${who}` },
      { token: await w.as(who) },
    );
    expect(response.status).toBe(200);
    expect(response.body.user.last_name).toBe(`Edited by ${who}`);
  });
});
