import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import type { OrganizationDetail } from '@console/domain';
import { openDatabase } from '../apps/server/src/db/connection.ts';
import { createDatabase, withClient } from '../support/postgres.ts';
import { REPO_ROOT, startServerProcess } from '../support/server-process.ts';
import { MESSAGES } from './wording.ts';

export { REPO_ROOT };
export const WEB_DIST_INDEX = join(REPO_ROOT, 'apps/web/dist/index.html');

export const ADMIN = { email: 'admin@example.test', password: 'e2e admin password 1' };

export interface TestServer {
  baseUrl: string;
  /** The password every demo person signs in with, when the server was started with `demo: true`. */
  demoPassword: string | null;
  url(path: string): string;
  /** Calls the API with an optional bearer token and returns the status and JSON body. */
  api<T = unknown>(path: string, init?: { method?: string; body?: unknown; token?: string }): Promise<{ status: number; body: T }>;
  /** Signs in through the API (not the browser) and returns the access token. */
  signIn(email: string, password: string): Promise<string>;
  /**
   * Runs one SQL statement against the server's database and returns its rows: on PostgreSQL
   * over a connection of its own; on the embedded database, which only one process may open,
   * the server is stopped, the statement run on its data folder, and the server started again
   * on the same address and folder (its sessions stay valid: the signing secret is there).
   */
  sql<T = Record<string, unknown>>(text: string): Promise<T[]>;
  stop(): Promise<void>;
}

/**
 * Starts the real server (`main.ts serve`) on a free port with a fresh data folder and,
 * when DATABASE_URL is set, a fresh PostgreSQL database; resolves once /api/health answers.
 */
export async function startServer(
  options: { demo?: boolean; env?: Record<string, string>; localhost?: boolean } = {},
): Promise<TestServer> {
  if (!existsSync(WEB_DIST_INDEX)) {
    throw new Error('apps/web/dist is missing: run `npm run build -w @console/web` (the e2e global setup does).');
  }
  // A copy of the migrated template made by the global setup, so a journey does not migrate.
  const template = inject('e2eTemplate');
  const database = process.env.DATABASE_URL ? await createDatabase(process.env.DATABASE_URL, 'e2e', template) : null;
  const env = {
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    // The journeys sign in more often than the production limits allow in one window.
    RATE_LIMIT_FACTOR: '100',
    // The webhook journey's receiver listens on this machine.
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    ...(database ? { DATABASE_URL: database.url } : {}),
    // A journey's own settings (a short step-up window).
    ...options.env,
  };
  // The demo is seeded as an operator seeds it (`seed --demo`, before serving), into the
  // data folder or database the server then opens.
  const dataDir = mkdtempSync(join(tmpdir(), 'console-e2e-'));
  if (!database) cpSync(template, dataDir, { recursive: true });
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  let demoPassword: string | null = null;
  let server = await (async () => {
    if (options.demo) demoPassword = await seedDemo({ ...env, DATA_DIR: dataDir });
    return startServerProcess({ env, dataDir, healthTimeoutMs: 120_000, ...(options.localhost && { hostname: 'localhost' as const }) });
  })().catch(async (error: unknown) => {
    removeDataDir();
    await database?.drop();
    throw error;
  });
  const baseUrl = server.url;

  async function api<T>(path: string, init: { method?: string; body?: unknown; token?: string } = {}) {
    const headers: Record<string, string> = {};
    if (init.body !== undefined) headers['Content-Type'] = 'application/json';
    if (init.token) headers.Authorization = `Bearer ${init.token}`;
    const response = await fetch(`${baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    return { status: response.status, body: (await response.json()) as T };
  }

  return {
    baseUrl,
    demoPassword,
    url: (path) => `${baseUrl}${path}`,
    api,
    async signIn(email, password) {
      const { status, body } = await api<{ access_token: string }>('/api/auth/sign-in', {
        method: 'POST',
        body: { email, password },
      });
      if (status !== 200) throw new Error(`API sign-in as ${email} answered ${status}`);
      return body.access_token;
    },
    async sql<T>(text: string) {
      if (database) return withClient(database.url, async (client) => (await client.query(text)).rows as T[]);
      await server.stop();
      const embedded = await openDatabase({ databaseUrl: null, dataDir, purpose: 'a journey running SQL' });
      try {
        return (await embedded.pglite!.query(text)).rows as T[];
      } finally {
        await embedded.close();
        server = await startServerProcess({
          env,
          dataDir,
          port: Number(new URL(baseUrl).port),
          healthTimeoutMs: 120_000,
          ...(options.localhost && { hostname: 'localhost' as const }),
        });
      }
    },
    async stop() {
      await server.stop();
      removeDataDir();
      await database?.drop();
    },
  };
}

/** Runs `main.ts seed --demo` and returns the password it prints for every demo person. */
async function seedDemo(env: NodeJS.ProcessEnv): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts', 'seed', '--demo'], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    maxBuffer: 10 * 1024 * 1024,
  });
  const password = /signs in with the password: (\S+)/.exec(stdout)?.[1];
  if (!password) throw new Error(`seed --demo printed no password:\n${stdout}`);
  return password;
}

/** The demo's sign-in of a role (one person of every role, in the first organization of its type). */
export function demoEmail(role: string): string {
  return `${role.replaceAll('_', '.')}@demo.example.com`;
}

export interface Viewport {
  width: number;
  height: number;
}

export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

const CHROMIUM = {
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

/** Debian's Chromium, for journeys that open many contexts (people, themes) in one browser. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch(CHROMIUM);
}

/** Debian's Chromium with a fresh profile (never a downloaded browser). */
export async function openBrowser(viewport: Viewport = { width: 1280, height: 800 }): Promise<TestBrowser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'console-e2e-profile-'));
  const context = await chromium.launchPersistentContext(userDataDir, { ...CHROMIUM, viewport });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

export interface Journey {
  /** The server of this file's journeys, started in beforeAll. */
  readonly server: TestServer;
  /** The browser opened last. */
  readonly browser: TestBrowser;
  /** Closes the journey's browsers and opens a fresh one (a new profile: no cookies); returns its page. */
  freshPage(viewport?: Viewport): Promise<Page>;
  /** Opens another browser beside the ones already open (two people at once). */
  openBrowser(viewport?: Viewport): Promise<TestBrowser>;
}

/**
 * The fixture of a journey file: starts the server in beforeAll (and opens a browser
 * there too with `{ browser: true }`), and closes the browsers, then stops the server,
 * in afterAll.
 */
export function useJourney(
  options: { browser?: boolean; demo?: boolean; env?: Record<string, string>; localhost?: boolean } = {},
): Journey {
  let server: TestServer | undefined;
  const browsers: TestBrowser[] = [];
  const closeBrowsers = async () => {
    for (const browser of browsers.splice(0)) await browser.close();
  };
  const journey: Journey = {
    get server() {
      if (!server) throw new Error('the server starts in beforeAll');
      return server;
    },
    get browser() {
      const browser = browsers.at(-1);
      if (!browser) throw new Error('no browser is open: call freshPage() first');
      return browser;
    },
    async freshPage(viewport) {
      await closeBrowsers();
      return (await journey.openBrowser(viewport)).page;
    },
    async openBrowser(viewport) {
      const browser = await openBrowser(viewport);
      browsers.push(browser);
      return browser;
    },
  };
  // Seeding the demo (30 days of usage) comes before the server starts.
  beforeAll(
    async () => {
      server = await startServer({ demo: options.demo, env: options.env, localhost: options.localhost });
      if (options.browser) await journey.openBrowser();
    },
    options.demo ? 240_000 : undefined,
  );
  afterAll(async () => {
    await closeBrowsers();
    await server?.stop();
  });
  return journey;
}

/** Signs in through the login form and waits for the dashboard. */
export async function signInWithForm(page: Page, server: TestServer, email: string, password: string): Promise<void> {
  await page.goto(server.url('/login'));
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByRole('button', { name: MESSAGES.auth.continue, exact: true }).click();
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/dashboard');
}

/** Creates a direct child of the caller's organization through the API. */
export async function createChild(server: TestServer, token: string, name: string, orgType: string): Promise<OrganizationDetail> {
  const { status, body } = await server.api<{ organization: OrganizationDetail }>('/api/organizations', {
    method: 'POST',
    token,
    body: { name, org_type: orgType },
  });
  if (status !== 201) throw new Error(`creating ${name}: ${status} ${JSON.stringify(body)}`);
  return body.organization;
}

/**
 * Funds the house with two adjustments at the step-up threshold (1,000.00 each, which ask
 * nothing however old the proof), creates a super agency, and allocates `amount` to it on the
 * house's allocate page as `page`'s person, confirming only once `staleFrom` (Unix ms) has
 * passed: an amount above the threshold then asks for a step-up. Answers the child and the
 * step-up dialog the confirmation opened.
 */
export async function allocateAskingStepUp(
  page: Page,
  server: TestServer,
  options: { houseToken: string; houseId: string; childName: string; amount: string; staleFrom: number },
) {
  const p = MESSAGES.creditPages;
  for (let i = 0; i < 2; i++) {
    const funded = await server.api('/api/credits/adjustments', {
      method: 'POST',
      token: options.houseToken,
      body: { direction: 'increase', amount: '1000.00', reason: 'Step-up journey' },
    });
    if (funded.status !== 200) throw new Error(`funding the house: ${funded.status} ${JSON.stringify(funded.body)}`);
  }
  const child = await createChild(server, options.houseToken, options.childName, 'super_agency');
  await page.goto(server.url(`/orgs/${options.houseId}/allocate-credits`));
  await page.getByLabel('Child organization').selectOption(child.id);
  await page.getByLabel('Amount').fill(options.amount);
  await page.getByRole('button', { name: p.allocateCredits }).click();
  const review = page.getByRole('region', { name: p.reviewTitle });
  await review.getByRole('button', { name: p.confirmAllocation }).waitFor();
  if (Date.now() < options.staleFrom) await page.waitForTimeout(options.staleFrom - Date.now());
  await review.getByRole('button', { name: p.confirmAllocation }).click();
  return { child, dialog: page.getByRole('dialog', { name: MESSAGES.stepUp.title }) };
}

/**
 * The newest mailed link to an address, read from the outbox as a house admin (newest
 * first): an invitation link, or a reset link mailed to that admin's own account (the outbox
 * shows no one else's). Mail may be stored just after the answer, so this waits a little.
 */
export async function mailedLink(server: TestServer, houseToken: string, email: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const outbox = await server.api<{ messages: { to: string; link: string | null }[] }>('/api/debug/outbox', { token: houseToken });
    const link = outbox.body.messages?.find((message) => message.to === email && message.link)?.link;
    if (link) return link;
    if (Date.now() > deadline) throw new Error(`no mailed link for ${email} (outbox answered ${outbox.status})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Invites someone into an organization, registers them through the mailed link, and signs them in. */
export async function inviteAndRegister(
  server: TestServer,
  invite: { inviterToken: string; houseToken: string; organizationId: string; role: string; email: string; password: string },
): Promise<string> {
  const invited = await server.api('/api/invitations', {
    method: 'POST',
    token: invite.inviterToken,
    body: { email: invite.email, role: invite.role, first_name: 'Journey', last_name: 'Admin', organization_id: invite.organizationId },
  });
  if (invited.status >= 300) throw new Error(`inviting ${invite.email}: ${invited.status} ${JSON.stringify(invited.body)}`);
  const token = new URL(await mailedLink(server, invite.houseToken, invite.email)).searchParams.get('token');
  const registered = await server.api('/api/invitations/register', { method: 'POST', body: { token, password: invite.password } });
  if (registered.status !== 200) throw new Error(`registering ${invite.email}: ${registered.status} ${JSON.stringify(registered.body)}`);
  return server.signIn(invite.email, invite.password);
}

/**
 * The tree most journeys start from, made through the API as the house's admin: a super agency
 * under the house with 500 credits, and under it an agency with 300, each with its agent limit
 * and an admin invited and registered. Answers both organizations and their admins' tokens.
 */
export async function superAgencyAndAgency(
  server: TestServer,
  house: { token: string; id: string },
  tree: { names: [string, string]; emails: [string, string]; agentLimits: [number, number]; password: string },
): Promise<{ superAgency: OrganizationDetail; superToken: string; agency: OrganizationDetail; agencyToken: string }> {
  const call = async (path: string, token: string, body: unknown, method = 'POST') => {
    const { status, body: answer } = await server.api(path, { method, token, body });
    if (status >= 300) throw new Error(`${method} ${path}: ${status} ${JSON.stringify(answer)}`);
  };
  const superAgency = await createChild(server, house.token, tree.names[0], 'super_agency');
  await call(`/api/organizations/${superAgency.id}/agent-limit`, house.token, { activated_agent_limit: tree.agentLimits[0] }, 'PUT');
  await call('/api/credits/allocations', house.token, { from_org_id: house.id, to_org_id: superAgency.id, amount: '500' });
  const superToken = await inviteAndRegister(server, {
    inviterToken: house.token,
    houseToken: house.token,
    organizationId: superAgency.id,
    role: 'super_agency_admin',
    email: tree.emails[0],
    password: tree.password,
  });
  const agency = await createChild(server, superToken, tree.names[1], 'agency');
  await call(`/api/organizations/${agency.id}/agent-limit`, superToken, { activated_agent_limit: tree.agentLimits[1] }, 'PUT');
  await call('/api/credits/allocations', superToken, { from_org_id: superAgency.id, to_org_id: agency.id, amount: '300' });
  const agencyToken = await inviteAndRegister(server, {
    inviterToken: superToken,
    houseToken: house.token,
    organizationId: agency.id,
    role: 'agency_admin',
    email: tree.emails[1],
    password: tree.password,
  });
  return { superAgency, superToken, agency, agencyToken };
}

export interface WidthReport {
  scrollWidth: number;
  innerWidth: number;
  /** The innermost elements reaching past the window's right edge (up to five), to name what widened the page. */
  wide: string[];
}

/** How wide the page is against the window, and what widens it when it is wider. */
export function widthReport(page: Page): Promise<WidthReport> {
  return page.evaluate(() => {
    // An element inside a scrolling or clipping box does not widen the page.
    const clipped = (element: Element) => {
      for (let box = element.parentElement; box && box !== document.body; box = box.parentElement) {
        if (getComputedStyle(box).overflowX !== 'visible' && box.getBoundingClientRect().right <= window.innerWidth + 1) return true;
      }
      return false;
    };
    // Its box or its content (text overflowing the box) past the right edge.
    const overflows = (element: Element) =>
      Math.max(
        element.getBoundingClientRect().right,
        getComputedStyle(element).overflowX === 'visible' ? element.getBoundingClientRect().left + element.scrollWidth : 0,
      ) >
        window.innerWidth + 1 && !clipped(element);
    const wide = [...document.querySelectorAll('body *')]
      .filter((element) => overflows(element) && ![...element.children].some(overflows))
      .slice(0, 5)
      .map(
        (element) =>
          `<${element.tagName.toLowerCase()} class="${element.getAttribute('class') ?? ''}">${(element.textContent ?? '').slice(0, 40)}`,
      );
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, wide };
  });
}

/** The tables that scroll sideways inside their box, each named with how much it is too wide. */
export function tablesScrollingSideways(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('main table')].flatMap((table) => {
      const box = table.parentElement;
      if (!box || box.scrollWidth <= box.clientWidth + 1) return [];
      return [
        `${table.getAttribute('aria-label') ?? table.querySelector('th')?.textContent ?? 'a table'}: ${box.scrollWidth} px in ${box.clientWidth} px`,
      ];
    }),
  );
}
