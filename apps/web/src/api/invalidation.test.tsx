import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { watchViews } from '@/test/query-views';
import { json, mockApi } from '@/test/helpers';
import { makeOrganization } from '@/test/organization-data';
import { makeUser } from '@/test/user-data';
import { useAllocateCredits } from './credits';
import { useDeleteOrganization, useCreateOrganization } from './organizations';
import { useDeactivateUser } from './users';
import { type Change, INVALIDATES, invalidate } from './invalidation';
import {
  accountKeys,
  activityKeys,
  agentKeys,
  apiKeyKeys,
  billingKeys,
  creditKeys,
  dashboardKeys,
  identityKeys,
  invitationKeys,
  invoiceKeys,
  organizationKeys,
  pricingKeys,
  settingsKeys,
  usageEventKeys,
  userKeys,
  webhookKeys,
} from './query-keys';

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
    await result.current.mutateAsync({ input: { from_org_id: PARENT, to_org_id: CHILD, amount: '10.00' }, idempotencyKey: 'k' });
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

const ENDPOINT = '00000000-0000-4000-8000-0000000000e1';

/** One cached view of each kind of data, to hold each row of the table to what it reaches. */
const EVERY_VIEW = {
  dashboard: dashboardKeys.figures(undefined),
  ledger: creditKeys.ledger({ organization_id: PARENT }),
  recent: creditKeys.recent(PARENT),
  usageEvents: usageEventKeys.list({ organization_id: PARENT } as never),
  billing: billingKeys.settings(PARENT),
  capacity: billingKeys.capacity(PARENT),
  alertLines: billingKeys.alertLines(PARENT),
  organization: organizationKeys.detail(PARENT),
  child: organizationKeys.detail(CHILD),
  me: userKeys.me,
  people: userKeys.list({}),
  invitations: invitationKeys.list({} as never),
  account: accountKeys.factors,
  activations: agentKeys.activations(PARENT),
  catalog: agentKeys.types,
  prices: pricingKeys.book(PARENT),
  apiKeys: apiKeyKeys.list(PARENT, null),
  endpoints: webhookKeys.endpoints(PARENT),
  deliveries: webhookKeys.deliveryList(PARENT, ENDPOINT, null),
  identity: identityKeys.view(PARENT),
  pendingClaims: identityKeys.pendingClaims,
  scimTokens: identityKeys.scimTokens(PARENT),
  invoices: invoiceKeys.list(PARENT, {} as never),
  drafts: invoiceKeys.drafts(PARENT),
  receivables: invoiceKeys.receivables(PARENT),
  billingDetails: invoiceKeys.details(PARENT),
  publicSettings: settingsKeys.public,
  activity: activityKeys.list({}),
} as const;

type View = keyof typeof EVERY_VIEW;
const BALANCES: View[] = ['dashboard', 'ledger', 'recent', 'usageEvents', 'billing', 'capacity', 'alertLines', 'organization', 'child'];
const AROUND_ORGANIZATIONS: View[] = ['dashboard', 'capacity', 'ledger', 'recent', 'usageEvents'];
const INVOICE_LISTS: View[] = ['invoices', 'drafts', 'receivables', 'organization', 'child'];

/**
 * The rule of `INVALIDATES`, row by row, in the views each change reaches: a change kind added to
 * the table without a line here fails to compile. The activity log is in no row but the one
 * that refreshes everything (every write anywhere changes it, so it is read afresh instead).
 */
const ROWS: { [C in Change]: { args: Parameters<(typeof INVALIDATES)[C]>; views: View[] } } = {
  creditsMoved: { args: [], views: BALANCES },
  organizationCreated: { args: [], views: ['organization', 'child', ...AROUND_ORGANIZATIONS] },
  organizationUpdated: { args: [], views: ['organization', 'child', 'me', ...AROUND_ORGANIZATIONS] },
  organizationDeleted: { args: [CHILD], views: ['organization', ...AROUND_ORGANIZATIONS] },
  agentLimitSet: { args: [], views: ['capacity', 'organization', 'child', 'dashboard'] },
  lowBalanceThresholdSet: {
    args: [PARENT],
    views: ['ledger', 'recent', 'usageEvents', 'organization', 'child', 'dashboard', 'alertLines'],
  },
  alertLinesChanged: { args: [], views: BALANCES },
  spendControlsSet: { args: [], views: ['billing', 'capacity', 'alertLines', 'organization', 'child', 'dashboard'] },
  activationChanged: { args: [PARENT], views: ['activations', 'billing', 'capacity', 'alertLines', 'organization', 'child', 'dashboard'] },
  activationCapSet: { args: [PARENT], views: ['activations'] },
  agentCatalogChanged: { args: [], views: ['activations', 'catalog'] },
  priceSet: { args: [], views: ['prices', 'activations', 'catalog', 'billing', 'capacity', 'alertLines', 'dashboard'] },
  childPriceSet: { args: [], views: ['prices', 'activations', 'catalog', 'billing', 'capacity', 'alertLines'] },
  apiKeysChanged: { args: [PARENT], views: ['apiKeys'] },
  peopleChanged: { args: [], views: ['me', 'people', 'dashboard'] },
  invitationsChanged: { args: [], views: ['invitations', 'dashboard'] },
  accountChanged: { args: [], views: ['account'] },
  webhookEndpointsChanged: { args: [PARENT], views: ['endpoints'] },
  webhookDeliveriesChanged: { args: [PARENT, ENDPOINT], views: ['endpoints', 'deliveries'] },
  billingDetailsSet: { args: [PARENT], views: ['drafts'] },
  invoicesIssued: { args: [PARENT], views: [...INVOICE_LISTS, 'billingDetails'] },
  invoiceChanged: { args: [], views: INVOICE_LISTS },
  domainClaimsChanged: { args: [], views: ['pendingClaims'] },
  domainVerifyRefused: { args: [PARENT], views: ['identity'] },
  domainApproved: { args: [PARENT], views: ['identity', 'pendingClaims'] },
  scimTokensChanged: { args: [PARENT], views: ['scimTokens'] },
  globalSettingsSaved: { args: [], views: ['publicSettings'] },
  organizationJoined: { args: [], views: Object.keys(EVERY_VIEW) as View[] },
};

describe('the invalidation table: each change kind reaches exactly the views that show it', () => {
  const every = watchViews(EVERY_VIEW);

  it.each(Object.keys(ROWS) as Change[])('%s', async (change) => {
    const client = every.seeded();
    const { args, views } = ROWS[change];
    await invalidate(client, change, ...(args as Parameters<(typeof INVALIDATES)[typeof change]>));
    expect(every.invalidated(client).sort()).toEqual([...views].sort());
  });

  it('names every row of the table', () => {
    expect(Object.keys(ROWS).sort()).toEqual(Object.keys(INVALIDATES).sort());
  });
});
