import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { watchViews } from '@/test/query-views';
import { json, mockApi } from '@/test/helpers';
import { makeOrganization } from '@/test/organization-data';
import { makeUser } from '@/test/user-data';
import { useAllocateCredits } from './credits';
import { dashboardKeys } from './dashboard';
import { useDeleteOrganization, useCreateOrganization } from './organizations';
import { useDeactivateUser, userKeys } from './users';
import { billingKeys, creditKeys, organizationKeys } from './query-keys';

const PARENT = '00000000-0000-4000-8000-000000000001';
const CHILD = '00000000-0000-4000-8000-0000000000c1';

/** Every view a change may reach, as cached answers nobody is watching. */
const VIEWS = {
  dashboard: dashboardKeys.figures(undefined),
  ledger: creditKeys.ledger({ organization_id: PARENT }),
  recent: creditKeys.recent(PARENT),
  capacity: billingKeys.capacity(PARENT),
  organization: organizationKeys.detail(PARENT),
  people: userKeys.list({}),
} as const;

const { seeded, wrapper, invalidated } = watchViews(VIEWS);

describe('a change made in the console is asked again on every page that shows it', () => {
  it('creating an organization: the dashboard (counts, balance), the ledgers, the capacity and the organizations', async () => {
    const created = makeOrganization({ id: CHILD, parent_org_id: PARENT });
    mockApi({ 'POST /api/organizations': () => json(201, { organization: created }) });
    const client = seeded();
    const { result } = renderHook(() => useCreateOrganization(), { wrapper: wrapper(client) });
    await result.current.mutateAsync({ name: 'Harbor', org_type: 'tenant' } as never);
    expect(invalidated(client)).toEqual(['dashboard', 'ledger', 'recent', 'capacity', 'organization']);
  });

  it('deleting an organization: the dashboard, the capacity and the organizations', async () => {
    mockApi({ [`DELETE /api/organizations/${CHILD}`]: () => new Response(null, { status: 204 }) });
    const client = seeded();
    const { result } = renderHook(() => useDeleteOrganization(), { wrapper: wrapper(client) });
    await result.current.mutateAsync(CHILD);
    expect(invalidated(client)).toEqual(expect.arrayContaining(['dashboard', 'capacity', 'organization']));
  });

  it('moving credits: the dashboard, both ledgers, billing and the organizations', async () => {
    mockApi({
      'POST /api/credits/allocations': () =>
        json(200, { transaction_id: '00000000-0000-4000-9000-0000000000f1', from_balance: '749.50', to_balance: '250.50' }),
    });
    const client = seeded();
    const { result } = renderHook(() => useAllocateCredits(), { wrapper: wrapper(client) });
    await result.current.mutateAsync({ input: { to_organization_id: CHILD, amount: '10.00' } as never, idempotencyKey: 'k' });
    expect(invalidated(client)).toEqual(['dashboard', 'ledger', 'recent', 'capacity', 'organization']);
  });

  it("changing a person: the people and the dashboard's team counts", async () => {
    const user = makeUser({ id: CHILD, status: 'inactive' });
    mockApi({ [`DELETE /api/users/${CHILD}`]: () => json(200, { user }) });
    const client = seeded();
    const { result } = renderHook(() => useDeactivateUser(), { wrapper: wrapper(client) });
    await result.current.mutateAsync(CHILD);
    expect(invalidated(client)).toEqual(['dashboard', 'people']);
  });
});
