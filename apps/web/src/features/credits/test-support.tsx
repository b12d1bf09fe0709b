/** Test-only helpers of the credits feature: a fetch fake routed by method and path, and fixtures. */
import type { LedgerEntry, LedgerPage, Organization, OrganizationDetail } from '@console/domain';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { AppProviders } from '@/app/providers';
import { createQueryClient } from '@/lib/query-client';
import { makeSession } from '@/test/helpers';

export const OWN_ORG_ID = makeSession().user.organization_id!;
export const CHILD_ID = '00000000-0000-4000-8000-0000000000c1';
export const OTHER_CHILD_ID = '00000000-0000-4000-8000-0000000000c2';

export interface ApiCall {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
}
type Handler = (call: ApiCall) => Response | Promise<Response>;

/**
 * Replaces fetch with handlers keyed `METHOD /path` (the query string is free, so tests can
 * assert it on the recorded calls). An unexpected call fails the test.
 */
export function mockApi(routes: Record<string, Handler>) {
  const calls: ApiCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init.method ?? 'GET';
    const call: ApiCall = {
      method,
      url,
      headers: (init.headers ?? {}) as Record<string, string>,
      body: init.body === undefined ? undefined : JSON.parse(String(init.body)),
    };
    calls.push(call);
    const handler = routes[`${method} ${url.pathname}`];
    if (!handler) throw new Error(`unexpected request ${method} ${url.pathname}${url.search}`);
    return handler(call);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    fetchMock,
    /** The calls to one `METHOD /path`, in order. */
    callsTo: (key: string) => calls.filter((call) => `${call.method} ${call.url.pathname}` === key),
  };
}

/** The query parameters of a call as a plain object. */
export function paramsOf(call: ApiCall | undefined): Record<string, string> {
  return Object.fromEntries(call?.url.searchParams ?? []);
}

let seq = 0;
export function entry(overrides: Omit<Partial<LedgerEntry>, 'entry_type'> & { entry_type: string }): LedgerEntry {
  seq += 1;
  return {
    id: `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`,
    organization_id: OWN_ORG_ID,
    amount: '100.00',
    transaction_group: '00000000-0000-4000-9000-000000000001',
    metadata: {},
    balance_after: '1000.00',
    external_ref: null,
    created_by: null,
    created_at: '2024-01-05T15:04:00.000Z',
    ...overrides,
  } as LedgerEntry;
}

export function ledgerPage(entries: LedgerEntry[], overrides: Partial<LedgerPage> = {}): LedgerPage {
  return { entries, next_cursor: null, credit_balance: '1000.00', ...overrides };
}

export function organization(overrides: Partial<OrganizationDetail> = {}): OrganizationDetail {
  const id = overrides.id ?? OWN_ORG_ID;
  const credit = overrides.credit_balance ?? '1000.00';
  return {
    id,
    name: 'House',
    description: null,
    org_type: 'house',
    parent_org_id: null,
    status: 'active',
    disable_parent_invites: false,
    created_at: '2024-01-01T00:00:00.000Z',
    updated_at: '2024-01-01T00:00:00.000Z',
    deleted_at: null,
    credit_balance: credit,
    activated_agent_limit: 10,
    organization_billing_settings: { organization_id: id, credit_balance: credit, activated_agent_limit: 10 },
    active_agent_count: 0,
    child_count: 0,
    ...overrides,
  };
}

export function orgList(parent: Organization, organizations: Organization[]) {
  return { organization: parent, organizations, total: organizations.length, page: 1, page_size: 100, total_pages: 1 };
}

/** Renders a component with the console's providers and a router. */
export function renderWithProviders(ui: ReactNode, path = '/settings') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <AppProviders queryClient={createQueryClient()}>{ui}</AppProviders>
    </MemoryRouter>,
  );
}
