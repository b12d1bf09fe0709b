/**
 * Mail and its secrets: no reset or invitation link reaches the log; the outbox never
 * hands anyone a working password-reset link of another account; with SMTP, a message is
 * queued and sent after the request, so a failing mail server neither fails nor repeats
 * the request, and the message is retried until it goes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HIDDEN_LINK } from '../modules/debug/debug.service.ts';
import { houseId, insertUser } from '../test/fixtures.ts';
import { createLoggedApp, type LoggedApp } from './logged-app.ts';

const PASSWORD = 'a mail test password';

async function api(app: LoggedApp, method: string, path: string, body?: unknown, token?: string) {
  const response = await fetch(app.baseUrl + path, {
    method,
    headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...(token && { authorization: `Bearer ${token}` }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** Waits until `check` holds (background work: recovery mail, the queue's sender). */
async function eventually<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits for the mail queue to be empty; fails with the rows left when it is not within the time. */
async function queueEmptied(app: LoggedApp): Promise<void> {
  let left: unknown[] = [];
  try {
    await eventually(async () => {
      left = await app.database.db.selectFrom('mail_queue').selectAll().execute();
      return left.length === 0;
    }, 5_000);
  } catch {
    expect(left).toEqual([]);
  }
}

/** The long random values a link carries (its token), and the link itself. */
function secretsOf(link: string): string[] {
  const url = new URL(link);
  const values = [...url.searchParams.values(), ...new URLSearchParams(url.hash.slice(1)).values()].filter((v) => v.length >= 16);
  expect(values.length).toBeGreaterThan(0);
  return [link, ...values];
}

describe('without SMTP (the outbox)', () => {
  let app: LoggedApp;
  let adminToken: string;
  let peerToken: string;
  const PEER = 'peer-admin@mail.test';
  beforeAll(async () => {
    app = await createLoggedApp();
    await insertUser(app.database.db, {
      email: PEER,
      password: PASSWORD,
      role: 'house_admin',
      organizationId: await houseId(app.database.db),
    });
    adminToken = await app.signIn('admin@example.test', 'correct horse battery');
    peerToken = await app.signIn(PEER, PASSWORD);
  });
  afterAll(async () => {
    await app?.close();
  });

  const outboxLink = (to: string) =>
    app.database.db
      .selectFrom('outbox')
      .select(['link', 'body_text'])
      .where('to_address', '=', to)
      .orderBy('id', 'desc')
      .executeTakeFirst();

  it('warns at start that this is a development mode, naming the risk', () => {
    const warning = app.log.find((line) => line.level === 40 && line.msg.startsWith('SMTP_URL is not set'));
    expect(warning?.msg).toMatch(/live password-reset and invitation links.*development mode: set SMTP_URL in production/);
  });

  it('no reset or invitation link, nor its token, reaches the log at any level', async () => {
    expect((await api(app, 'POST', '/api/auth/recover', { email: PEER })).status).toBe(200);
    const reset = await eventually(() => outboxLink(PEER));
    const invited = await api(
      app,
      'POST',
      '/api/invitations',
      { email: 'invitee@mail.test', first_name: 'Ina', last_name: 'Invitee', role: 'house_user' },
      adminToken,
    );
    expect(invited.status).toBe(201);
    const invitation = await outboxLink('invitee@mail.test');
    const resent = await api(app, 'POST', `/api/invitations/${invited.body.invitation.id}/resend`, undefined, adminToken);
    expect(resent.status).toBe(200);
    const again = await outboxLink('invitee@mail.test');
    const secrets = [reset!.link!, invitation!.link!, again!.link!].flatMap(secretsOf);
    expect(app.log.some((line) => line.msg === 'mail stored in outbox')).toBe(true);
    const text = app.logText();
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it("a house admin reading the outbox sees a peer's reset message without its link or token; the peer sees it whole", async () => {
    expect((await api(app, 'POST', '/api/auth/recover', { email: PEER })).status).toBe(200);
    const stored = await eventually(async () => {
      const rows = await app.database.db
        .selectFrom('outbox')
        .select(['id', 'link'])
        .where('to_address', '=', PEER)
        .orderBy('id', 'desc')
        .execute();
      return rows.length >= 2 ? rows[0] : null;
    });
    const [link, ...tokens] = secretsOf(stored.link!);

    const asAdmin = await api(app, 'GET', '/api/debug/outbox', undefined, adminToken);
    expect(asAdmin.status).toBe(200);
    const seenByAdmin = asAdmin.body.messages.find((m: { id: string }) => m.id === String(stored.id));
    expect(seenByAdmin).toMatchObject({ to: PEER, link: null });
    expect(seenByAdmin.text).toContain(HIDDEN_LINK);
    expect(JSON.stringify(asAdmin.body)).not.toContain(link);
    for (const token of tokens) expect(JSON.stringify(asAdmin.body)).not.toContain(token);

    const asPeer = await api(app, 'GET', '/api/debug/outbox', undefined, peerToken);
    const seenByPeer = asPeer.body.messages.find((m: { id: string }) => m.id === String(stored.id));
    expect(seenByPeer).toMatchObject({ to: PEER, link });
    expect(seenByPeer.text).toContain(link);
  });

  it("the reader's own reset link and every invitation link stay readable (the journeys use them)", async () => {
    expect((await api(app, 'POST', '/api/auth/recover', { email: 'admin@example.test' })).status).toBe(200);
    await eventually(() => outboxLink('admin@example.test'));
    const outbox = await api(app, 'GET', '/api/debug/outbox', undefined, adminToken);
    const own = outbox.body.messages.find((m: { to: string }) => m.to === 'admin@example.test');
    expect(own.link).toMatch(/\/update-password#access_token=.+&type=recovery$/);
    for (const reader of [adminToken, peerToken]) {
      const seen = await api(app, 'GET', '/api/debug/outbox', undefined, reader);
      const invitation = seen.body.messages.find((m: { to: string }) => m.to === 'invitee@mail.test');
      expect(invitation.link).toMatch(/\/invitation\?token=.+/);
    }
  });
});

describe('with SMTP (the queue)', () => {
  /** A mail server that refuses the first `failures` messages, then takes them. */
  function flakyServer(failures: number) {
    const delivered: { to: string; subject: string; text: string }[] = [];
    let attempts = 0;
    return {
      delivered,
      attempts: () => attempts,
      async sendMail(mail: { to: string; subject: string; text: string }) {
        attempts++;
        if (attempts <= failures) throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ECONNREFUSED' });
        delivered.push(mail);
      },
    };
  }

  it('a failing mail server: the invitation answers 201, the message is retried with backoff until sent, nothing secret is logged', async () => {
    const server = flakyServer(2);
    const app = await createLoggedApp({ mailTransport: server, mailRetry: { baseDelayMs: 100, pollMs: 50 } });
    try {
      const token = await app.signIn('admin@example.test', 'correct horse battery');
      const invited = await api(
        app,
        'POST',
        '/api/invitations',
        { email: 'queued@mail.test', first_name: 'Quinn', last_name: 'Queued', role: 'house_user' },
        token,
      );
      expect(invited.status).toBe(201);
      const mail = await eventually(async () => server.delivered.find((m) => m.to === 'queued@mail.test'));
      expect(server.attempts()).toBe(3);
      expect(mail.subject).toMatch(/invited/i);
      const link = /https?:\/\/\S+/.exec(mail.text)![0];
      // The row goes once the send (or the last attempt) is over: its deletion commits just after.
      await queueEmptied(app);
      const retries = app.log.filter((line) => line.msg === 'mail not sent; will retry');
      expect(retries.map((line) => line.retryInSeconds)).toHaveLength(2);
      for (const secret of secretsOf(link)) expect(app.logText()).not.toContain(secret);
      // The invitation exists once: nobody had to send it again.
      const rows = await app.database.db.selectFrom('invitations').select('id').where('email', '=', 'queued@mail.test').execute();
      expect(rows).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it('a mail server that never answers: the send times out and the message is sent on a later attempt', async () => {
    const delivered: string[] = [];
    let attempts = 0;
    const server = {
      sendMail: (mail: { to: string }) => (++attempts === 1 ? new Promise<never>(() => {}) : Promise.resolve(void delivered.push(mail.to))),
    };
    const app = await createLoggedApp({ mailTransport: server, mailRetry: { baseDelayMs: 50, pollMs: 50, sendTimeoutMs: 300 } });
    try {
      const token = await app.signIn('admin@example.test', 'correct horse battery');
      const invited = await api(
        app,
        'POST',
        '/api/invitations',
        { email: 'silent@mail.test', first_name: 'Sil', last_name: 'Silent', role: 'house_user' },
        token,
      );
      expect(invited.status).toBe(201);
      await eventually(async () => delivered.includes('silent@mail.test'));
      expect(attempts).toBe(2);
      expect(app.log.find((line) => line.msg === 'mail not sent; will retry')).toMatchObject({ error: { code: 'ETIMEDOUT' } });
    } finally {
      await app.close();
    }
  });

  it('a message that never goes is given up after the last attempt and removed from the queue', async () => {
    const server = flakyServer(Infinity);
    const app = await createLoggedApp({ mailTransport: server, mailRetry: { baseDelayMs: 20, pollMs: 20, maxAttempts: 3 } });
    try {
      const token = await app.signIn('admin@example.test', 'correct horse battery');
      const invited = await api(
        app,
        'POST',
        '/api/invitations',
        { email: 'never@mail.test', first_name: 'Nev', last_name: 'Never', role: 'house_user' },
        token,
      );
      expect(invited.status).toBe(201);
      await eventually(async () => app.log.find((line) => line.msg === 'mail given up after the last attempt'));
      expect(server.attempts()).toBe(3);
      // The row goes once the send (or the last attempt) is over: its deletion commits just after.
      await queueEmptied(app);
    } finally {
      await app.close();
    }
  });
});
