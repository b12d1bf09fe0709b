import type { Invitation, UserProfile } from '@console/domain';
import { vi } from 'vitest';
import { json, makeSession } from '@/test/helpers';

export const OWN_ORG = '00000000-0000-4000-8000-000000000001';
export const CHILD_ORG = '00000000-0000-4000-8000-000000000002';
export const SELF_ID = '00000000-0000-4000-8000-0000000000aa';

let counter = 0;
const nextId = () => `00000000-0000-4000-9000-${String(++counter).padStart(12, '0')}`;

export function makeUser(overrides: Partial<UserProfile> = {}): UserProfile {
  const base = makeSession().user;
  return { ...base, id: nextId(), email: `user${counter}@example.test`, first_name: 'Bob', last_name: `Person${counter}`, role: 'tenant_user', ...overrides };
}

export function makeInvitation(overrides: Partial<Invitation> = {}): Invitation {
  const id = nextId();
  return {
    id,
    email: `invitee${counter}@example.test`,
    first_name: 'Ivy',
    last_name: `Invitee${counter}`,
    role: 'tenant_user',
    organization_id: OWN_ORG,
    organization_name: 'Acme Corporation',
    status: 'pending',
    invited_by: SELF_ID,
    created_at: '2025-01-01T00:00:00Z',
    expires_at: new Date(Date.now() + 5 * 24 * 3600 * 1000).toISOString(),
    accepted_at: null,
    ...overrides,
  };
}

export function page<T>(key: 'users' | 'invitations', items: T[], { page = 1, pageSize = 10, total = items.length } = {}) {
  return json(200, {
    [key]: items,
    pagination: { page, page_size: pageSize, total, total_pages: Math.ceil(total / pageSize) },
  });
}

type Handler = (request: { url: URL; body: unknown; headers: Record<string, string> }) => Response | Promise<Response>;

/**
 * Replaces fetch with `METHOD /path` handlers matched without the query string, which the
 * handler reads from `url`; an unexpected call fails the test.
 */
export function mockApi(routes: Record<string, Handler>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://console.test');
    const key = `${init.method ?? 'GET'} ${url.pathname}`;
    const handler = routes[key];
    if (!handler) throw new Error(`unexpected request ${key}${url.search}`);
    return handler({
      url,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
      headers: (init.headers ?? {}) as Record<string, string>,
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The URLs of the calls to one `METHOD /path`, in order. */
export function callsTo(fetchMock: ReturnType<typeof mockApi>, key: string): URL[] {
  return fetchMock.mock.calls
    .map(([input, init]) => ({ url: new URL(String(input), 'http://console.test'), method: init?.method ?? 'GET' }))
    .filter(({ url, method }) => `${method} ${url.pathname}` === key)
    .map(({ url }) => url);
}
