import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { billingOf, OTHER_ORG_ID, organizationOf } from '@/test/billing-data';
import { MESSAGES } from '../wording';

const m = MESSAGES.billingPages;

function mockOrganization() {
  mockApi({
    [`GET /api/organizations/${OTHER_ORG_ID}`]: () => json(200, { organization: organizationOf({ id: OTHER_ORG_ID, type: 'tenant' }) }),
    [`GET /api/organizations/${OTHER_ORG_ID}/billing`]: () =>
      json(200, billingOf({ id: OTHER_ORG_ID, limit: 10, manage: true, allocate: true, balance: '80.00' })),
  });
}

const session = () => makeSession({ role: 'agency_admin', orgType: 'agency' });

// The page is a lazy chunk: load it once before the tests so the first one does not pay for it.
beforeAll(() => Promise.all([import('@/app/shell/app-shell'), import('./billing-management-page')]), 30_000);

describe('billing management page', { timeout: 20_000 }, () => {
  it('opens Credit Allocation by default, with the balance and the allocation link', async () => {
    mockOrganization();
    renderApp(`/orgs/${OTHER_ORG_ID}/billing-management`, { session: session() });
    expect(await screen.findByRole('tab', { name: m.tabCreditAllocation })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('credit-balance')).toHaveTextContent('80.00 credits');
    expect(screen.getByRole('link', { name: m.allocateCredits })).toHaveAttribute('href', `/orgs/${OTHER_ORG_ID}/allocate-credits`);
  });

  it("says of a direct child's balance that it is the child's, and that credits come from the own organization", async () => {
    mockOrganization();
    renderApp(`/orgs/${OTHER_ORG_ID}/billing-management`, { session: session() });
    expect(await screen.findByText(m.allocateToHint)).toBeInTheDocument();
    expect(screen.queryByText(m.allocateHint)).not.toBeInTheDocument();
  });

  it.each(['agency_manager', 'agency_support'])('offers %s no Allocate Credits, which the server would refuse', async (role) => {
    mockOrganization();
    renderApp(`/orgs/${OTHER_ORG_ID}/billing-management`, { session: makeSession({ role, orgType: 'agency' }) });
    expect(await screen.findByTestId('credit-balance')).toHaveTextContent('80.00 credits');
    expect(screen.queryByRole('link', { name: m.allocateCredits })).not.toBeInTheDocument();
  });

  it('opens Agent Limits with ?tab=limits, and writes the chosen tab back to the query', async () => {
    mockOrganization();
    renderApp(`/orgs/${OTHER_ORG_ID}/billing-management?tab=limits`, { session: session() });
    expect(await screen.findByRole('tab', { name: m.tabAgentLimits })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText(m.agentLimitStatus)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: m.adjustLimit })).toBeInTheDocument();

    await userEvent.setup().click(screen.getByRole('tab', { name: m.tabCreditAllocation }));
    expect(screen.getByTestId('location')).toHaveTextContent(`/orgs/${OTHER_ORG_ID}/billing-management?tab=credits`);
    expect(await screen.findByTestId('credit-balance')).toBeInTheDocument();
  });

  it('falls back to Credit Allocation for an unknown tab', async () => {
    mockOrganization();
    renderApp(`/orgs/${OTHER_ORG_ID}/billing-management?tab=other`, { session: session() });
    expect(await screen.findByRole('tab', { name: m.tabCreditAllocation })).toHaveAttribute('aria-selected', 'true');
  });
});
