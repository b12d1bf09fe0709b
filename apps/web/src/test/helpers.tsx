import { ERROR_CODES, type Session, type UserProfile } from '@console/domain';
import type { QueryClient } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState, type ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation, useNavigate } from 'react-router';
import { vi } from 'vitest';
import { AppProviders } from '@/app/providers';
import { AppRoutes } from '@/app/routes';
import { createQueryClient } from '@/lib/query-client';
import { sessionStore } from '@/lib/session-store';
import { contractProblemOf, recordContractProblem } from './contract-check';

/** The organization of every session `makeSession` builds. */
export const OWN_ORG_ID = '00000000-0000-4000-8000-000000000001';

function base64Url(value: unknown): string {
  return btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export interface SessionOptions {
  role?: string;
  orgType?: 'house' | 'super_agency' | 'agency' | 'tenant';
  orgName?: string;
  firstName?: string | null;
  email?: string;
  /** Distinguishes the tokens of successive sessions. */
  tokenId?: string;
}

/** A session as the server returns it, with a structurally real (unsigned) JWT. */
export function makeSession({
  role = 'tenant_admin',
  orgType = 'tenant',
  orgName = 'Acme Corporation',
  firstName = 'Alice',
  email = 'alice@example.test',
  tokenId = 'first',
}: SessionOptions = {}): Session {
  const exp = Math.floor(Date.now() / 1000) + 900;
  const payload = {
    sub: '00000000-0000-4000-8000-0000000000aa',
    email,
    role: 'authenticated',
    app_metadata: { role, org_id: OWN_ORG_ID, org_type: orgType, org_name: orgName },
    exp,
    jti: tokenId,
  };
  const user: UserProfile = {
    id: payload.sub,
    email,
    first_name: firstName,
    last_name: null,
    avatar_url: null,
    role,
    status: 'active',
    organization_id: OWN_ORG_ID,
    preferred_locale: 'en',
    invited_at: null,
    last_login_at: null,
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    deleted_at: null,
    organization: { id: OWN_ORG_ID, name: orgName, org_type: orgType, status: 'active' },
  };
  return {
    access_token: `${base64Url({ alg: 'HS256', typ: 'JWT' })}.${base64Url(payload)}.signature`,
    token_type: 'bearer',
    expires_in: 900,
    expires_at: exp,
    user,
  };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export function apiError(status: number, code: string, message: string): Response {
  return json(status, { error: { code, message } });
}

/** One request the console sent, as a handler and a test read it. */
export interface ApiCall {
  method: string;
  /** The path without the query string. */
  path: string;
  url: URL;
  /** The query string's values. */
  query: Record<string, string>;
  headers: Headers;
  /** The JSON body sent, or undefined. */
  body: unknown;
}

type Answer = Response | Promise<Response>;
export type ApiRoutes = Record<string, (call: ApiCall) => Answer>;

/**
 * The console's one fetch mock: only the network edge is fake, the api client runs as in the
 * browser. `routes` answers `METHOD /path` (the query string is free: tests read it from the
 * recorded calls), and a request no route answers fails; or one function answers every
 * request, undefined meaning 404. Every request is recorded.
 * Each request is first checked against the contract as the server checks it: one the server
 * would refuse (no endpoint at that method and path: 404; params, query, body or headers its
 * schema refuses: 400) gets the server's answer, not the route's, and fails the test
 * (`assertNoContractProblems` after each test), so a mock never answers what the server would not.
 */
export function mockApi(routes: ApiRoutes | ((call: ApiCall) => Answer | undefined)) {
  const calls: ApiCall[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://console.test');
    const call: ApiCall = {
      method: init.method ?? 'GET',
      path: url.pathname,
      url,
      query: Object.fromEntries(url.searchParams),
      headers: new Headers(init.headers),
      body: init.body === undefined ? undefined : JSON.parse(String(init.body)),
    };
    calls.push(call);
    const key = `${call.method} ${call.path}`;
    const problem = contractProblemOf({ ...call, target: `${url.pathname}${url.search}` });
    if (problem) {
      recordContractProblem(problem.message);
      return problem.status === 404
        ? apiError(404, ERROR_CODES.notFound, 'Not found')
        : apiError(400, ERROR_CODES.validation, problem.message);
    }
    if (typeof routes === 'function') return (await routes(call)) ?? apiError(404, 'not_found', 'Not found');
    const handler = routes[key];
    if (!handler) throw new Error(`unexpected request ${key}${url.search}`);
    return handler(call);
  });
  vi.stubGlobal('fetch', fetch);
  const callsTo = (key: string) => calls.filter((call) => `${call.method} ${call.path}` === key);
  return {
    fetch,
    calls,
    /** The requests to one `METHOD /path`, in order. */
    callsTo,
    /** The JSON bodies sent to one `METHOD /path`, in order. */
    bodiesOf: (key: string) => callsTo(key).map((call) => call.body),
    /** The query strings sent to one `METHOD /path`, in order, as plain objects. */
    queriesOf: (key: string) => callsTo(key).map((call) => call.query),
  };
}

/** Shows where the router is, so tests can assert navigation, and steps back in its history as the browser's Back does. */
function LocationProbe() {
  const location = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <div data-testid="location">
        {location.pathname}
        {location.search}
      </div>
      <button type="button" data-testid="history-back" hidden onClick={() => void navigate(-1)} />
    </>
  );
}

/**
 * Renders the whole console at `path`. `session` undefined leaves the start-up refresh to
 * run; null starts signed out. `queryClient` replaces the application's (e.g. without retries).
 * `before` are the entries of the history behind `path`, oldest first, for Back.
 */
export function renderApp(
  path: string,
  { session, queryClient, before = [] }: { session?: Session | null; queryClient?: QueryClient; before?: string[] } = {},
) {
  if (session !== undefined) sessionStore.set(session);
  return render(
    <InMemoryRouter entries={[...before, path]}>
      <AppProviders queryClient={queryClient ?? createQueryClient()}>
        <AppRoutes />
        <LocationProbe />
      </AppProviders>
    </InMemoryRouter>,
  );
}

/** A data router in memory around `children`, as main.tsx has one in the browser, at the last of `entries`. */
function InMemoryRouter({ entries, children }: { entries: string[]; children: ReactNode }) {
  // Made once: a router made again on a re-render would start over at its first entry.
  const [router] = useState(() => createMemoryRouter([{ path: '*', element: children }], { initialEntries: entries }));
  return <RouterProvider router={router} />;
}

/** The application's query client without load retries, for tests of what a failed load shows. */
export function queryClientWithoutRetries(): QueryClient {
  const client = createQueryClient();
  client.setDefaultOptions({ ...client.getDefaultOptions(), queries: { ...client.getDefaultOptions().queries, retry: false } });
  return client;
}

/** Renders one component with the console's providers and a router at `path`. */
export function renderWithProviders(ui: ReactNode, path = '/') {
  return render(
    <InMemoryRouter entries={[path]}>
      <AppProviders queryClient={createQueryClient()}>{ui}</AppProviders>
    </InMemoryRouter>,
  );
}

/** The browser's Back, in an application rendered with renderApp. */
export function goBack(): void {
  fireEvent.click(screen.getByTestId('history-back'));
}

/** The text of each crumb of a breadcrumb trail, top first. */
export function crumbsOf(trail: HTMLElement): (string | null)[] {
  return within(trail)
    .getAllByRole('listitem')
    .map((item) => item.textContent);
}

export function setViewportWidth(width: number): void {
  window.innerWidth = width;
}
