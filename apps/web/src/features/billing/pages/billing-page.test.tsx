import { type OrgType } from '@console/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiError, json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { billingOf, capacityOf, CHILD_IDS, OTHER_ORG_ID, OWN_ORG_ID, organizationOf, spendControlsOf } from '@/test/billing-data';
import { MESSAGES } from '../wording';

const m = MESSAGES.billingPages;

function routesFor(id: string, type: OrgType, billing = billingOf({ id }), capacity = capacityOf({ id })) {
  return {
    [`GET /api/organizations/${id}`]: () => json(200, { organization: organizationOf({ id, type, name: 'Northwind' }) }),
    [`GET /api/organizations/${id}/billing`]: () => json(200, billing),
    [`GET /api/organizations/${id}/capacity`]: () => json(200, capacity),
    [`GET /api/organizations/${id}/spend-controls`]: () => json(200, spendControlsOf({ organization_id: id })),
  };
}

async function tabNames() {
  const list = await screen.findByRole('tablist');
  return within(list)
    .getAllByRole('tab')
    .map((tab) => tab.textContent);
}

// The page is a lazy chunk: load it once before the tests so the first one does not pay for it.
beforeAll(() => Promise.all([import('@/app/shell/app-shell'), import('./billing-page')]), 30_000);

describe('billing page', { timeout: 20_000 }, () => {
  it('an agency admin on the own agency sees all three tabs, Child Organizations first, with the children and capacity left', async () => {
    mockApi(routesFor(OWN_ORG_ID, 'agency', billingOf({ allocate: false }), capacityOf({ limit: 20, childLimits: [10, 4] })));
    renderApp(`/orgs/${OWN_ORG_ID}/billing`, { session: makeSession({ role: 'agency_admin', orgType: 'agency' }) });
    expect(await tabNames()).toEqual([m.tabAgentLimits, m.tabCredits, m.tabChildOrganizations]);
    expect(screen.getByRole('tab', { name: m.tabChildOrganizations })).toHaveAttribute('aria-selected', 'true');
    const list = await screen.findByRole('list', { name: m.childOrganizations });
    expect(within(list).getByRole('link', { name: 'Child 1' })).toHaveAttribute('href', `/orgs/${CHILD_IDS[0]}/billing`);
    expect(within(list).getByText(`10 · ${m.capacityShare(50)}`)).toBeInTheDocument();
    expect(screen.getByTestId('capacity-left')).toHaveTextContent('6');
    expect(screen.getByRole('heading', { level: 1, name: m.billingTitle })).toBeInTheDocument();
    expect(screen.getByText('Northwind · Agency')).toBeInTheDocument();
  });

  it('a tenant user sees only Agent Limits, selected, with no Adjust Limit', async () => {
    mockApi(routesFor(OWN_ORG_ID, 'tenant', billingOf({ limit: 10 })));
    renderApp(`/orgs/${OWN_ORG_ID}/billing`, { session: makeSession({ role: 'tenant_user', orgType: 'tenant' }) });
    expect(await tabNames()).toEqual([m.tabAgentLimits]);
    expect(screen.getByRole('tab', { name: m.tabAgentLimits })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText(m.badgeGood)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: m.adjustLimit })).not.toBeInTheDocument();
  });

  it("a parent admin on a tenant gets Credits (from the server's allocate flag) and Adjust Limit", async () => {
    mockApi(routesFor(OTHER_ORG_ID, 'tenant', billingOf({ id: OTHER_ORG_ID, manage: true, allocate: true, balance: '1234.50' })));
    renderApp(`/orgs/${OTHER_ORG_ID}/billing`, { session: makeSession({ role: 'agency_admin', orgType: 'agency' }) });
    expect(await tabNames()).toEqual([m.tabAgentLimits, m.tabCredits]);
    expect(screen.getByRole('button', { name: m.adjustLimit })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('tab', { name: m.tabCredits }));
    expect(await screen.findByTestId('credit-balance')).toHaveTextContent('1,234.50 credits');
    expect(screen.getByRole('link', { name: m.allocateCredits })).toHaveAttribute('href', `/orgs/${OTHER_ORG_ID}/allocate-credits`);
    // The balance shown is the tenant's; the credits would come from the viewer's own organization.
    expect(screen.getByText(m.allocateToHint)).toBeInTheDocument();
    expect(screen.queryByText(m.allocateHint)).not.toBeInTheDocument();
  });

  it("the Credits tab warns below the organization's own threshold, which only its own admins change", async () => {
    const billing = billingOf({ id: OTHER_ORG_ID, manage: true, allocate: true, balance: '80.00' });
    billing.billing_settings.low_balance_threshold = '90.00';
    mockApi(routesFor(OTHER_ORG_ID, 'tenant', billing));
    renderApp(`/orgs/${OTHER_ORG_ID}/billing`, { session: makeSession({ role: 'agency_admin', orgType: 'agency' }) });
    await userEvent.setup().click(await screen.findByRole('tab', { name: m.tabCredits }));
    expect(await screen.findByText(MESSAGES.credits.lowBalance)).toBeInTheDocument();
    expect(screen.getByTestId('low-balance-threshold')).toHaveTextContent(MESSAGES.thresholdPages.body('90.00 credits'));
    // The parent's admin allocates, but the child's alert threshold is the child's admins' to set.
    expect(screen.queryByRole('button', { name: MESSAGES.thresholdPages.change })).not.toBeInTheDocument();
  });

  it('keeps the /organizations base for a house admin', async () => {
    mockApi(routesFor(OTHER_ORG_ID, 'super_agency', billingOf({ id: OTHER_ORG_ID }), capacityOf({ id: OTHER_ORG_ID, childLimits: [5] })));
    renderApp(`/organizations/${OTHER_ORG_ID}/billing`, { session: makeSession({ role: 'house_admin', orgType: 'house' }) });
    expect(await screen.findByRole('link', { name: 'Child 1' })).toHaveAttribute('href', `/organizations/${CHILD_IDS[0]}/billing`);
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', `/organizations/${OTHER_ORG_ID}`);
  });

  it('shows Access Denied on 403 without retrying', async () => {
    const api = mockApi({
      ...routesFor(OTHER_ORG_ID, 'tenant'),
      [`GET /api/organizations/${OTHER_ORG_ID}/billing`]: () => apiError(403, 'forbidden', MESSAGES.generic.forbidden),
    });
    renderApp(`/orgs/${OTHER_ORG_ID}/billing`, { session: makeSession({ role: 'tenant_admin' }) });
    expect(await screen.findByText(MESSAGES.auth.accessDenied)).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const billingCalls = api.callsTo(`GET /api/organizations/${OTHER_ORG_ID}/billing`);
    expect(billingCalls).toHaveLength(1);
  });

  it('shows Error loading agent limits after the retries of a failing load', async () => {
    const api = mockApi({
      ...routesFor(OWN_ORG_ID, 'tenant'),
      [`GET /api/organizations/${OWN_ORG_ID}/billing`]: () => apiError(500, 'internal', 'Database unavailable'),
    });
    renderApp(`/orgs/${OWN_ORG_ID}/billing`, { session: makeSession() });
    await waitFor(() => expect(api.fetch).toHaveBeenCalled());
    expect(await screen.findByText(MESSAGES.billing.loadFailed('Database unavailable'), undefined, { timeout: 9000 })).toBeInTheDocument();
    expect(api.callsTo(`GET /api/organizations/${OWN_ORG_ID}/billing`)).toHaveLength(4);
  }, 15_000);
});
