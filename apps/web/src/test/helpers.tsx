import type { Session, UserProfile } from '@console/domain';
import { render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { vi } from 'vitest';
import { AppProviders } from '@/app/providers';
import { AppRoutes } from '@/app/routes';
import { createQueryClient } from '@/lib/query-client';
import { sessionStore } from '@/lib/session-store';

const ORG_ID = '00000000-0000-4000-8000-000000000001';

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
    app_metadata: { role, org_id: ORG_ID, org_type: orgType, org_name: orgName },
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
    organization_id: ORG_ID,
    preferred_locale: 'en',
    invited_at: null,
    last_login_at: null,
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    deleted_at: null,
    organization: { id: ORG_ID, name: orgName, org_type: orgType, status: 'active' },
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

type Handler = (init: RequestInit & { headers: Record<string, string> }) => Response | Promise<Response>;

/**
 * Replaces fetch with a table of `METHOD /path` handlers; an unexpected call fails the test.
 * Only the network edge is fake: the console's api client runs as in the browser.
 */
export function mockFetch(routes: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const key = `${init.method ?? 'GET'} ${String(input)}`;
    const handler = routes[key];
    if (!handler) throw new Error(`unexpected request ${key}`);
    return handler({ ...init, headers: (init.headers ?? {}) as Record<string, string> });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The JSON bodies sent to one route, in order. */
export function bodiesOf(fetchMock: ReturnType<typeof mockFetch>, key: string): unknown[] {
  return fetchMock.mock.calls
    .filter(([input, init]) => `${init?.method ?? 'GET'} ${String(input)}` === key)
    .map(([, init]) => JSON.parse(String(init?.body)));
}

/** Shows where the router is, so tests can assert navigation. */
function LocationProbe() {
  const location = useLocation();
  return (
    <div data-testid="location">
      {location.pathname}
      {location.search}
    </div>
  );
}

/**
 * Renders the whole console at `path`. `session` undefined leaves the start-up refresh to
 * run; null starts signed out.
 */
export function renderApp(path: string, { session }: { session?: Session | null } = {}) {
  if (session !== undefined) sessionStore.set(session);
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders queryClient={createQueryClient()}>
        <AppRoutes />
        <LocationProbe />
      </AppProviders>
    </MemoryRouter>,
  );
}

export function setViewportWidth(width: number): void {
  window.innerWidth = width;
}
