/**
 * The real server (`main.ts serve`) as a child process on a fresh PostgreSQL database,
 * for the fault-injection suites: they kill it, stop it, and cut its database.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../apps/server/src/db/connection.ts';
import { reconcile } from '../apps/server/src/modules/credits/reconcile.ts';
import { createDatabase as createDatabaseOn, withClient, type FreshDatabase } from '../support/postgres.ts';
import { REPO_ROOT, startServerProcess, type ServerProcess as BaseServerProcess } from '../support/server-process.ts';

export { freePort } from '../support/net.ts';
export { killChildren as killServers } from '../support/server-process.ts';
export { withClient, type FreshDatabase };

export const ADMIN = { email: 'admin@reliability.test', password: 'reliability admin password 1' };
/** One secret for the whole run, so tokens stay valid across a restart. */
const JWT_SECRET = randomBytes(32).toString('hex');

/** The PostgreSQL server to create databases on: DATABASE_URL's, or the local one. */
export function postgresServerUrl(): string {
  return process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
}

/** A new empty database rel_<random>; call drop() in afterAll. */
export function createDatabase(): Promise<FreshDatabase> {
  return createDatabaseOn(postgresServerUrl(), 'rel');
}

export interface ServerProcess extends BaseServerProcess {
  /** Resident memory of the process now, in MiB (from /proc). */
  rssMiB(): number;
}

/**
 * Starts `main.ts serve` on `databaseUrl` (on `port`, to come back where a killed one
 * was; a free port otherwise) and resolves once /api/health answers 200. With
 * `databaseUrl: null` it runs the embedded database in `dataDir`, whatever DATABASE_URL
 * this process has. killServers() in afterAll ends whatever is still running.
 */
export async function startServer(options: {
  databaseUrl: string | null;
  dataDir?: string;
  port?: number;
  env?: NodeJS.ProcessEnv;
}): Promise<ServerProcess> {
  const server = await startServerProcess({
    port: options.port,
    dataDir: options.dataDir,
    env: {
      ...options.env,
      // Empty means unset to the server's configuration.
      DATABASE_URL: options.databaseUrl ?? '',
      JWT_SECRET,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      // The suites sign in far more often than the production limits allow.
      RATE_LIMIT_FACTOR: '100000',
    },
  });
  return {
    ...server,
    rssMiB: () => {
      const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
      return Math.round((kb / 1024) * 10) / 10;
    },
  };
}

export interface ApiResult<T> {
  status: number;
  body: T;
  ms: number;
}

/** One JSON call; a network failure rejects (the suites count those apart from HTTP errors). */
export async function api<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiResult<T>> {
  const started = performance.now();
  const response = await fetch(baseUrl + path, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const body = (type.includes('json') && text ? JSON.parse(text) : text) as T;
  return { status: response.status, body, ms: performance.now() - started };
}

/** A call that must answer 2xx (setup steps). */
export async function must<T = any>(...args: Parameters<typeof api>): Promise<T> {
  const result = await api<T>(...args);
  if (result.status >= 300) throw new Error(`${args[1]} ${args[2]} answered ${result.status}: ${JSON.stringify(result.body)}`);
  return result.body;
}

export async function signIn(baseUrl: string, credentials = ADMIN): Promise<string> {
  const session = await must<{ access_token: string }>(baseUrl, 'POST', '/api/auth/sign-in', { body: credentials });
  return session.access_token;
}

/** The server's own check of the books, run on the database directly. */
export async function reconcileDatabase(url: string) {
  const database = await openDatabase({ databaseUrl: url, dataDir: tmpdir(), purpose: 'reliability', poolSize: 2 });
  try {
    return await reconcile(database.db);
  } finally {
    await database.close();
  }
}

/**
 * The admin's house funded by one adjustment, with `children` super agencies under it
 * (the first given `firstInitialCents` at creation when set), all through the API.
 */
export async function fundedHouse(
  baseUrl: string,
  token: string,
  options: { suite: string; fundsCents: number; children: number; firstInitialCents?: number },
): Promise<{ houseId: string; children: string[] }> {
  const { organization_id: houseId } = await must<{ organization_id: string }>(baseUrl, 'GET', '/api/users/me', { token });
  await must(baseUrl, 'POST', '/api/credits/adjustments', {
    token,
    body: { direction: 'increase', amount: amountOf(options.fundsCents), reason: `${options.suite} suite funding` },
  });
  const children: string[] = [];
  for (let n = 0; n < options.children; n++) {
    const initial = n === 0 && options.firstInitialCents ? { initial_balance: amountOf(options.firstInitialCents) } : {};
    const created = await must<{ organization: { id: string } }>(baseUrl, 'POST', '/api/organizations', {
      token,
      body: { name: `${options.suite} child ${n}`, org_type: 'super_agency', ...initial },
    });
    children.push(created.organization.id);
  }
  return { houseId, children };
}

/** Credits in the system: the sum of all balances, and the sum of all adjustments (in cents). */
export async function creditTotals(url: string): Promise<{ balancesCents: number; adjustmentsCents: number }> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ balances: string; adjustments: string }>(`
      select (select coalesce(sum(credit_balance), 0) * 100 from organization_billing_settings)::bigint::text as balances,
             (select coalesce(sum(amount), 0) * 100 from credit_ledger_entries
               where entry_type in ('adjustment_increase', 'adjustment_decrease'))::bigint::text as adjustments`);
    return { balancesCents: Number(rows[0]!.balances), adjustmentsCents: Number(rows[0]!.adjustments) };
  });
}

/** Allocation groups that are not exactly one allocation_sent and one received (or initial) entry. */
export async function halfWrittenGroups(url: string): Promise<{ transaction_group: string; entries: string }[]> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ transaction_group: string; entries: string }>(`
      select transaction_group, string_agg(entry_type, ',' order by entry_type) as entries
      from credit_ledger_entries
      where entry_type in ('allocation_sent', 'allocation_received', 'initial_balance')
      group by transaction_group
      having count(*) <> 2
          or count(*) filter (where entry_type = 'allocation_sent') <> 1
          or sum(amount) <> 0`);
    return rows;
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The p-th percentile (0-100) of values, nearest rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const round1 = (value: number) => Math.round(value * 10) / 10;

/** An exact amount string from whole cents. */
export const amountOf = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** Writes reliability/results/<suite>.json, for docs. */
export function writeResults(suite: string, figures: unknown): void {
  const dir = join(REPO_ROOT, 'reliability/results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `${suite}.json`),
    `${JSON.stringify({ suite, at: new Date().toISOString(), ...(figures as object) }, null, 2)}\n`,
  );
}

/**
 * Metered usage through the API: the admin's house funded by one adjustment, `children`
 * super agencies each given `childCents` and a live activation of one agent type of price
 * `price`, and an API key of the house that reports usage for them all.
 */
export async function meteredHouse(
  baseUrl: string,
  token: string,
  options: { suite: string; children: number; childCents: number; agent: string; price: string },
): Promise<{ houseId: string; children: string[]; key: string }> {
  const { houseId, children } = await fundedHouse(baseUrl, token, {
    suite: options.suite,
    fundsCents: options.childCents * options.children,
    children: options.children,
  });
  await must(baseUrl, 'PUT', `/api/organizations/${houseId}/agent-limit`, { token, body: { activated_agent_limit: options.children } });
  const { agent_type } = await must<{ agent_type: { id: string } }>(baseUrl, 'POST', '/api/agent-types', {
    token,
    body: { code: options.agent, name: `${options.suite} agent`, kind: 'automation', unit: 'run', price: options.price },
  });
  for (const child of children) {
    await must(baseUrl, 'POST', '/api/credits/allocations', {
      token,
      body: { from_org_id: houseId, to_org_id: child, amount: amountOf(options.childCents) },
    });
    await must(baseUrl, 'PUT', `/api/organizations/${child}/agent-limit`, { token, body: { activated_agent_limit: 1 } });
    await must(baseUrl, 'POST', `/api/organizations/${child}/agents`, { token, body: { agent_type_id: agent_type.id } });
  }
  const created = await must<{ secret: string }>(baseUrl, 'POST', `/api/organizations/${houseId}/api-keys`, {
    token,
    body: { name: `${options.suite} runtime`, scopes: ['usage:write'] },
  });
  return { houseId, children, key: created.secret };
}
