import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { RATE_LIMITS } from '@console/domain';
import { buildApp } from '../app.ts';
import type { ContextOptions } from '../context.ts';
import type { RateLimitSettings } from '../lib/rate-limit-settings.ts';
import { machineLimitSettings, type MachineLimitSettings } from '../lib/machine-limits.ts';
import { loadConfig, type MetricsSettings, type TrustProxy } from '../config.ts';
import { createPGlite, fromPGlite, fromPgPool, type Database } from '../db/connection.ts';
import { ensureFirstHouseAdmin } from '../db/bootstrap.ts';
import { withDatabase } from './global-setup.ts';
import { assertAuditRowsParse } from './audit-rows.ts';
import { PASSWORD, buildWorld } from './fixtures.ts';
import { startServerProcess, type ServerProcess } from '../../../../support/server-process.ts';

/**
 * TEST_SERVER_PROCESSES=2 (PostgreSQL only): each test app is served by two processes on its
 * database, this one and a real `main.ts serve` child with the same signing secret, and the
 * requests alternate between them, so the suites prove that nothing a rule needs lives in one
 * process. Direct database access and `t.app` still reach this process's side only.
 */
const SERVER_PROCESSES = Number(process.env.TEST_SERVER_PROCESSES ?? '1');

/** A fresh, migrated database for one test file: PGlite, or a copy of the PostgreSQL template. */
export async function freshDatabase(): Promise<Database> {
  return (await openFreshDatabase()).database;
}

/** An empty database with no migration applied (the upgrade tests fill it from an earlier release). */
export async function emptyDatabase(): Promise<Database> {
  return (await openFreshDatabase({ empty: true })).database;
}

/** A fresh database, with its URL on PostgreSQL (null on PGlite). */
export async function openFreshDatabase(options: { empty?: boolean } = {}): Promise<{ database: Database; url: string | null }> {
  const serverUrl = inject('pgServerUrl');
  if (!serverUrl) {
    if (options.empty) return { database: auditedOnClose(fromPGlite(await createPGlite())), url: null };
    const template = new Blob([readFileSync(inject('pgliteTemplate'))]);
    return { database: auditedOnClose(fromPGlite(await createPGlite({ loadDataDir: template }))), url: null };
  }
  const name = `${inject('pgTemplate').replace(/_tpl$/, '')}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    if (options.empty) await admin.query(`create database ${name}`);
    // Copying a template fails while another session still touches it (a just-closed
    // pool, or another test file copying it at the same moment): wait and try again.
    for (let attempt = 1; !options.empty; attempt++) {
      try {
        await admin.query(`create database ${name} template ${inject('pgTemplate')}`);
        break;
      } catch (error) {
        if (attempt >= 50 || !String(error).includes('being accessed by other users')) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  } finally {
    await admin.end();
  }
  const url = withDatabase(serverUrl, name);
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const database = fromPgPool(pool);
  return { database: auditedOnClose(database), url };
}

/**
 * The database, whose first close reads its audit log and fails the test file when a row's
 * details do not parse for its action (test/audit-rows.ts); it is closed either way.
 */
function auditedOnClose(database: Database): Database {
  let audited = false;
  return {
    ...database,
    async close() {
      try {
        if (!audited) {
          audited = true;
          await assertAuditRowsParse(database);
        }
      } finally {
        await database.close();
      }
    },
  };
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  /** The refresh cookie the response set, if any. */
  refreshCookie: string | null;
}

export interface RequestOptions {
  token?: string;
  cookie?: string;
  headers?: Record<string, string>;
  /** A raw body sent as is (for malformed JSON). */
  raw?: string;
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  /** The database's URL on PostgreSQL; null on PGlite (an in-memory instance). */
  databaseUrl: string | null;
  baseUrl: string;
  /** The secret the app signs access tokens with, for tests that forge tokens. */
  jwtSecret: string;
  admin: { email: string; password: string };
  request<T = any>(method: string, path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse<T>>;
  signIn(email: string, password: string): Promise<{ token: string; cookie: string; body: any }>;
  close(): Promise<void>;
}

const UNLIMITED = {
  signInPerAddress: 1000,
  signInPerEmail: 1000,
  recoverPerAddress: 1000,
  recoverPerEmail: 1000,
  signInAccountFailures: 10_000,
  invitationsPerInviter: 10_000,
  invitationsPerRecipient: 10_000,
  invitationsPerSuperAgency: 10_000,
  invitationsPerAgency: 10_000,
  invitationsPerTenant: 10_000,
  invitationResendIntervalSeconds: 0,
  webhookActionsPerOrganization: 10_000,
  apiKeyChangesPerOrganization: 10_000,
  apiKeyChangesPerPerson: 10_000,
  sessionWritesPerPerson: 1_000_000,
  webhookRedeliveriesPerOrganization: 100_000,
  secondFactorPerPerson: 10_000,
  secondFactorPerAddress: 10_000,
  scimPerToken: 1_000_000,
  scimPerAddress: 1_000_000,
};

export const ADMIN = { email: 'admin@example.test', password: 'correct horse battery' };

/** The API on a real database, listening on a real port; requests go through HTTP. */
export async function createTestApp(
  options: {
    rateLimits?: Partial<RateLimitSettings>;
    /** The machine API's limits; without them, a thousand times production's. */
    machineLimits?: MachineLimitSettings;
    machineLimitSyncMs?: number;
    appUrl?: string;
    trustProxy?: TrustProxy;
    serveWeb?: boolean;
    database?: Database;
    /** How often the app's own top-up runner looks (default 1 s); a test driving its own runner sets it far off. */
    topUpPollMs?: number;
    /** How often the app's overdue-invoice reminders are looked for (default 5 minutes). */
    reminderPollMs?: number;
    grantExpiryPollMs?: number;
    /** The webhook sender's settings (a short retry schedule, a short timeout). */
    webhooks?: ContextOptions['webhooks'];
    /** How long a proof of a second factor (or password) lets a session move money and secrets (default 10 minutes). */
    stepUpFreshSeconds?: number;
    /** The DNS servers domain claims are verified against (a test's own server on 127.0.0.1). */
    dnsServers?: string[];
    /** Prometheus metrics at /metrics (off by default). */
    metrics?: MetricsSettings;
  } = {},
): Promise<TestApp> {
  const { database, url: databaseUrl } = options.database ? { database: options.database, url: null } : await openFreshDatabase();
  await ensureFirstHouseAdmin(database.db, ADMIN);
  const config = {
    ...loadConfig({ LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', DATA_DIR: '/nonexistent' }),
    appUrl: options.appUrl ?? 'http://console.test',
    trustProxy: options.trustProxy ?? false,
    // The suites' receivers listen on this machine.
    webhookAllowedHosts: ['127.0.0.1', 'localhost'],
    // The suites' identity providers run on this machine too.
    identityAllowedHosts: ['127.0.0.1', 'localhost'],
    dnsServers: options.dnsServers ?? [],
    metrics: options.metrics ?? null,
    host: '127.0.0.1',
    ...(options.stepUpFreshSeconds !== undefined && { stepUpFreshSeconds: options.stepUpFreshSeconds }),
  };
  const jwtSecret = randomBytes(32).toString('hex');
  const app = await buildApp({
    config,
    database,
    jwtSecret,
    logger: false,
    serveWeb: options.serveWeb ?? false,
    checkAnswers: true,
    // Generous limits unless a test is about them: the suites sign in, invite and resend many times.
    rateLimits: { ...RATE_LIMITS, ...UNLIMITED, ...options.rateLimits },
    machineLimits: options.machineLimits ?? machineLimitSettings(1000),
    machineLimitSyncMs: options.machineLimitSyncMs,
    topUpPollMs: options.topUpPollMs,
    reminderPollMs: options.reminderPollMs,
    grantExpiryPollMs: options.grantExpiryPollMs,
    webhooks: options.webhooks,
    // The suites call the export concurrently (the matrix); its own test uses the real bounds.
    exportLimits: { perUser: 1000, perProcess: 1000, retryAfterSeconds: 5 },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const second = SERVER_PROCESSES === 2 ? await secondProcess(databaseUrl, jwtSecret) : null;
  const targets = second ? [baseUrl, second.url] : [baseUrl];
  let sent = 0;

  async function request<T = any>(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.cookie) headers.cookie = opts.cookie;
    let payload: string | undefined = opts.raw;
    if (body !== undefined) {
      payload = JSON.stringify(body);
    }
    if (payload !== undefined) headers['content-type'] ??= 'application/json';
    // Redirects are answers to check (the sign-in callback's), not to follow.
    const response = await fetch(targets[sent++ % targets.length] + path, { method, headers, body: payload, redirect: 'manual' });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('refresh_token='));
    const refreshCookie = setCookie ? setCookie.split(';')[0]! : null;
    return { status: response.status, headers: response.headers, body: parsed as T, refreshCookie };
  }

  return {
    app,
    database,
    databaseUrl,
    baseUrl,
    jwtSecret,
    admin: ADMIN,
    request,
    async signIn(email, password) {
      const response = await request('POST', '/api/auth/sign-in', { email, password });
      if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${JSON.stringify(response.body)}`);
      return { token: response.body.access_token, cookie: response.refreshCookie!, body: response.body };
    },
    async close() {
      await second?.stop();
      await app.close();
      await database.close();
    },
  };
}

/** The second server process of a test app, on the same database and signing secret. */
async function secondProcess(databaseUrl: string | null, jwtSecret: string): Promise<ServerProcess> {
  if (!databaseUrl) throw new Error('TEST_SERVER_PROCESSES=2 needs PostgreSQL (DATABASE_URL): the embedded database admits one process');
  // Sign-in limits as generous as this process's (the suites sign in many times).
  return startServerProcess({
    env: {
      DATABASE_URL: databaseUrl,
      JWT_SECRET: jwtSecret,
      RATE_LIMIT_FACTOR: '1000',
      LOG_LEVEL: 'error',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1,localhost',
    },
  });
}

type WorldOf = Awaited<ReturnType<typeof buildWorld>>;

export interface WorldTest {
  t: TestApp;
  world: WorldOf;
  /** The access token of a fixture user (`H.admin`, `A1.manager`...) or of an e-mail, signed in once. */
  as(who: string): Promise<string>;
  /** The id of a fixture organization. */
  id(key: keyof WorldOf['orgs']): string;
}

/**
 * A test file's app on a fresh database holding the fixture world (fixtures.ts), with
 * cached sign-ins. Call at the top of a file: it registers its own beforeAll and afterAll.
 */
export function useWorld(options: Parameters<typeof createTestApp>[0] = {}): WorldTest {
  const tokens = new Map<string, string>();
  const context = {} as WorldTest;
  beforeAll(async () => {
    const t = await createTestApp(options);
    const world = await buildWorld(t.database.db);
    Object.assign(context, {
      t,
      world,
      async as(who: string) {
        if (!tokens.has(who)) tokens.set(who, (await t.signIn(world.users[who] ?? who, PASSWORD)).token);
        return tokens.get(who)!;
      },
      id: (key: keyof WorldOf['orgs']) => world.orgs[key].id,
    });
  });
  afterAll(async () => {
    await context.t?.close();
  });
  return context;
}
