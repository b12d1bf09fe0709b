import { MESSAGES } from '@console/domain';
import { screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { billingOf, OWN_ORG_ID } from '@/test/billing-data';
import { apiError, json, makeSession, mockApi, queryClientWithoutRetries, renderApp, type SessionOptions } from '@/test/helpers';

const m = MESSAGES.billingPages;
const LEDGER = 'GET /api/credits/ledger';

beforeAll(() => Promise.all([import('@/app/shell/AppShell'), import('./SettingsPage')]), 30_000);

function loaded(options: SessionOptions = {}, billing = billingOf({ limit: 10, balance: '42.00' })) {
  const session = makeSession(options);
  const api = mockApi({
    'GET /api/users/me': () => json(200, session.user),
    [`GET /api/organizations/${OWN_ORG_ID}/billing`]: () => json(200, billing),
    [LEDGER]: () => json(200, { entries: [], next_cursor: null, credit_balance: '42.00' }),
  });
  renderApp('/settings', { session });
  return { session, api };
}

describe('settings page', { timeout: 20_000 }, () => {
  it('shows a loading state while the profile loads', async () => {
    const api = mockApi({ 'GET /api/users/me': () => new Promise<Response>(() => {}) });
    renderApp('/settings', { session: makeSession() });
    await waitFor(() => expect(api.fetch).toHaveBeenCalled());
    expect(screen.getByRole('heading', { level: 1, name: m.settingsTitle })).toBeInTheDocument();
    expect(screen.getByRole('status')).toBeInTheDocument();
  });

  it('shows Failed to load settings information when the profile cannot be loaded', async () => {
    mockApi({ 'GET /api/users/me': () => apiError(500, 'internal', 'Database unavailable') });
    renderApp('/settings', { session: makeSession(), queryClient: queryClientWithoutRetries() });
    expect(await screen.findByText(m.settingsLoadFailed, undefined, { timeout: 8000 })).toBeInTheDocument();
    expect(screen.getByText('Database unavailable')).toBeInTheDocument();
  }, 15_000);

  it('shows the load failure when the profile comes without its organization, which the contract requires', async () => {
    const session = makeSession();
    mockApi({ 'GET /api/users/me': () => json(200, { ...session.user, organization: null }) });
    renderApp('/settings', { session, queryClient: queryClientWithoutRetries() });
    expect(await screen.findByText(m.settingsLoadFailed)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.generic.unexpected)).toBeInTheDocument();
  });

  it('a tenant admin sees the account, metrics, recent transactions, profile and honest placeholders', async () => {
    const { session, api } = loaded({ role: 'tenant_admin', orgType: 'tenant' });
    expect(await screen.findByRole('link', { name: m.manageBilling })).toHaveAttribute('href', `/orgs/${OWN_ORG_ID}/billing`);
    expect(screen.getByRole('link', { name: m.viewResources })).toHaveAttribute('href', '/resources');
    expect(await screen.findByTestId('credit-balance')).toHaveTextContent('42.00 credits');
    expect(screen.getByTestId('agent-usage')).toHaveTextContent(m.agentsUsed(0, 10));
    expect(screen.getByText(m.badgeGood)).toBeInTheDocument();
    // The tenant's own limit is set by the parent: no Adjust Limit here.
    expect(screen.queryByRole('button', { name: m.adjustLimit })).not.toBeInTheDocument();
    expect(await screen.findByText(MESSAGES.credits.emptyTitle)).toBeInTheDocument();
    expect(api.queriesOf(LEDGER)).toEqual([{ organization_id: OWN_ORG_ID, limit: '5' }]);
    expect(screen.getByRole('link', { name: MESSAGES.creditPages.viewFullLedger })).toHaveAttribute('href', '/credit-ledger');
    expect(screen.getByRole('link', { name: m.editProfile })).toHaveAttribute('href', `/users/${session.user.id}/edit`);
    expect(screen.getByText(m.noBillingPortal)).toBeInTheDocument();
    expect(screen.getByText(m.supportContact)).toBeInTheDocument();
    expect(screen.getByText(m.noReferralProgram)).toBeInTheDocument();
    expect(screen.queryByText('$0.00')).not.toBeInTheDocument();
  });

  it('sends a house admin to /organizations/{id}/billing', async () => {
    loaded({ role: 'house_admin', orgType: 'house' }, billingOf({ limit: 100, max: null, manage: true }));
    expect(await screen.findByRole('link', { name: m.manageBilling })).toHaveAttribute('href', `/organizations/${OWN_ORG_ID}/billing`);
    expect(await screen.findByRole('button', { name: m.adjustLimit })).toBeInTheDocument();
  });

  it('offers no Manage Billing to a role without the limit or allocate permission', async () => {
    loaded({ role: 'tenant_user', orgType: 'tenant' });
    expect(await screen.findByRole('link', { name: m.viewResources })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: m.manageBilling })).not.toBeInTheDocument();
  });

  it('shows Error loading agent limits when the billing settings fail', async () => {
    const session = makeSession();
    mockApi({
      'GET /api/users/me': () => json(200, session.user),
      [`GET /api/organizations/${OWN_ORG_ID}/billing`]: () => apiError(403, 'forbidden', MESSAGES.generic.forbidden),
      [LEDGER]: () => json(200, { entries: [], next_cursor: null, credit_balance: '0.00' }),
    });
    renderApp('/settings', { session });
    expect(await screen.findByText(MESSAGES.auth.accessDenied)).toBeInTheDocument();
  });
});
