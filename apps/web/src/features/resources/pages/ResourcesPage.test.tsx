import { MESSAGES } from '@console/domain';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { capacityOf, CHILD_IDS, OTHER_ORG_ID, OWN_ORG_ID, organizationOf } from '@/test/billing-data';
import { apiError, json, makeSession, mockApi, renderApp } from '@/test/helpers';

const m = MESSAGES.billingPages;

beforeAll(() => Promise.all([import('@/app/shell/AppShell'), import('./ResourcesPage'), import('./OrganizationResourcesPage')]), 30_000);

function routes(id: string, type: 'agency' | 'tenant', capacity = capacityOf({ id, limit: 20, childLimits: [10, 7], inactiveFirst: true })) {
  return {
    [`GET /api/organizations/${id}`]: () =>
      json(200, { organization: organizationOf({ id, type, name: 'Northwind', limit: 20, balance: '1500.00', childCount: 2 }) }),
    [`GET /api/organizations/${id}/capacity`]: () => json(200, capacity),
  };
}

describe('resources', { timeout: 20_000 }, () => {
  it('/resources shows the own organization: overview figures, an honest Agents tab and the capacity', async () => {
    mockApi(routes(OWN_ORG_ID, 'agency'));
    renderApp('/resources', { session: makeSession({ role: 'agency_admin', orgType: 'agency' }) });
    expect(await screen.findByRole('heading', { level: 1, name: m.resourcesTitle })).toBeInTheDocument();
    expect(await screen.findByText('1,500.00 credits')).toBeInTheDocument();
    expect(screen.getByText(m.activatedAgentLimit).closest('[class*="rounded-xl"]')).toHaveTextContent('20');
    expect(screen.getByText(m.childOrganizations).closest('[class*="rounded-xl"]')).toHaveTextContent('2');

    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: m.tabAgents }));
    expect(await screen.findByText(m.noAgentsRecorded)).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: m.tabCapacity }));
    const badge = await screen.findByTestId('capacity-used-badge');
    expect(badge).toHaveTextContent('85%');
    expect(badge).toHaveClass('bg-destructive');
    expect(screen.getByTestId('capacity-left')).toHaveTextContent('3');
    expect(screen.getByRole('link', { name: 'Child 1' })).toHaveAttribute('href', `/orgs/${CHILD_IDS[0]}/resources`);

    const links = screen.getByRole('navigation', { name: m.quickLinks });
    expect(within(links).getByRole('link', { name: m.linkLedger })).toHaveAttribute('href', '/credit-ledger');
    expect(within(links).getByRole('link', { name: m.linkBilling })).toHaveAttribute('href', `/orgs/${OWN_ORG_ID}/billing`);
    expect(within(links).getByRole('link', { name: m.linkTeam })).toHaveAttribute('href', '/team');
    expect(within(links).getByRole('link', { name: m.linkOrganizations })).toHaveAttribute('href', '/orgs');
  });

  it('the Allocate Credits dialog lists only the active direct children and leads to the allocation page', async () => {
    mockApi(routes(OWN_ORG_ID, 'agency'));
    renderApp('/resources', { session: makeSession({ role: 'agency_admin', orgType: 'agency' }) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: m.allocateCredits }));
    const dialog = await screen.findByRole('dialog', { name: m.allocateCredits });
    const choice = await within(dialog).findByRole('link', { name: /Child 2/ });
    expect(within(dialog).queryByRole('link', { name: /Child 1/ })).not.toBeInTheDocument();
    expect(choice).toHaveAttribute('href', `/orgs/${CHILD_IDS[1]}/allocate-credits`);
  });

  it('offers no Allocate Credits for a tenant', async () => {
    mockApi(routes(OWN_ORG_ID, 'tenant'));
    renderApp('/resources', { session: makeSession({ role: 'tenant_admin', orgType: 'tenant' }) });
    expect(await screen.findByText('1,500.00 credits')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: m.allocateCredits })).not.toBeInTheDocument();
  });

  it('{base}/:id/resources shows another organization under the URL base, without allocation', async () => {
    mockApi(routes(OTHER_ORG_ID, 'agency', capacityOf({ id: OTHER_ORG_ID, limit: 20, childLimits: [4] })));
    renderApp(`/organizations/${OTHER_ORG_ID}/resources`, { session: makeSession({ role: 'house_admin', orgType: 'house' }) });
    expect(await screen.findByText('1,500.00 credits')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: m.allocateCredits })).not.toBeInTheDocument();
    const links = screen.getByRole('navigation', { name: m.quickLinks });
    expect(within(links).getByRole('link', { name: m.linkBilling })).toHaveAttribute('href', `/organizations/${OTHER_ORG_ID}/billing`);
    expect(within(links).getByRole('link', { name: m.linkTeam })).toHaveAttribute('href', `/users?organization_id=${OTHER_ORG_ID}`);
    await userEvent.setup().click(screen.getByRole('tab', { name: m.tabCapacity }));
    const badge = await screen.findByTestId('capacity-used-badge');
    expect(badge).toHaveTextContent('20%');
    expect(badge).toHaveClass('bg-secondary');
  });

  it('shows Error loading resource information, and Access Denied on 403', async () => {
    mockApi({ [`GET /api/organizations/${OTHER_ORG_ID}`]: () => apiError(403, 'forbidden', MESSAGES.generic.forbidden) });
    renderApp(`/orgs/${OTHER_ORG_ID}/resources`, { session: makeSession() });
    expect(await screen.findByText(MESSAGES.auth.accessDenied)).toBeInTheDocument();
  });

  it('shows Error loading capacity data when the capacity fails', async () => {
    mockApi({
      ...routes(OWN_ORG_ID, 'agency'),
      [`GET /api/organizations/${OWN_ORG_ID}/capacity`]: () => apiError(404, 'not_found', MESSAGES.generic.notFound),
    });
    renderApp('/resources', { session: makeSession({ role: 'agency_user', orgType: 'agency' }) });
    await userEvent.setup().click(await screen.findByRole('tab', { name: m.tabCapacity }));
    expect(await screen.findByText(MESSAGES.organizations.notFound)).toBeInTheDocument();
  });
});
