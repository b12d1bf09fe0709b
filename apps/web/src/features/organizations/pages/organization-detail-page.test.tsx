import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiError, json, makeSession, mockApi, OWN_ORG_ID, renderApp } from '@/test/helpers';
import { makeList, makeOrganization, orgId } from '@/test/organization-data';
import { MESSAGES } from '../wording';

beforeAll(async () => {
  await Promise.all([import('./organization-detail-page'), import('./orgs-list-page'), import('@/app/shell/app-shell')]);
});

const superAgencyAdmin = () => makeSession({ role: 'super_agency_admin', orgType: 'super_agency' });

describe('organization detail', { timeout: 30_000 }, () => {
  it('shows the organization, its billing, its first children and the actions of a parent admin', async () => {
    const agency = makeOrganization({
      name: 'Northwind Agency',
      description: 'Sells the service in the north',
      credit_balance: '12.50',
      activated_agent_limit: 8,
      child_count: 12,
    });
    const tenant = makeOrganization({ name: 'Harbor Tenant', org_type: 'tenant', parent_org_id: agency.id, status: 'inactive' });
    const api = mockApi((call) => {
      if (call.path === `/api/organizations/${agency.id}`) return json(200, { organization: agency });
      if (call.path === '/api/organizations') return json(200, makeList([tenant], { total: 12, page_size: 10, total_pages: 2 }));
      return undefined;
    });
    renderApp(`/orgs/${agency.id}`, { session: superAgencyAdmin() });

    const heading = await screen.findByRole('heading', { level: 1, name: 'Northwind Agency' });
    // A long name wraps anywhere rather than widening the page, and keeps its full text in a title.
    expect(heading).toHaveAttribute('title', 'Northwind Agency');
    expect(heading).toHaveClass('wrap-anywhere');
    expect(screen.getByText(agency.id)).toBeInTheDocument();
    expect(screen.getByText('Agency')).toBeInTheDocument();
    expect(screen.getByText('active')).toBeInTheDocument();
    expect(screen.getByText('Jan 5, 2024 3:04 PM')).toBeInTheDocument();
    expect(screen.getByText('Feb 10, 2024 9:30 AM')).toBeInTheDocument();
    expect(screen.getByText('Sells the service in the north')).toBeInTheDocument();
    expect(screen.getByText('12.50 credits')).toBeInTheDocument();
    // 12.50 is below the organization's alert threshold of 100.
    expect(screen.getByText(MESSAGES.credits.lowBalance)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.thresholdPages.below('100.00 credits'))).toBeInTheDocument();
    expect(screen.getByText('8')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/orgs');
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', `/orgs/${agency.id}/edit`);
    expect(screen.getByRole('link', { name: 'Manage Billing' })).toHaveAttribute('href', `/orgs/${agency.id}/billing`);
    expect(screen.getByRole('link', { name: 'Allocate Credits' })).toHaveAttribute('href', `/orgs/${agency.id}/allocate-credits`);
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();

    const children = await screen.findByRole('list', { name: 'Child organizations' });
    expect(within(children).getByRole('link', { name: 'Harbor Tenant' })).toHaveAttribute('href', `/orgs/${tenant.id}`);
    expect(screen.getByText('12 direct children, the first 10 shown')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View all' })).toHaveAttribute('href', `/orgs?organization_id=${agency.id}`);
    expect(api.queriesOf('GET /api/organizations')).toEqual([{ view: 'children', organization_id: agency.id, page: '1', page_size: '10' }]);
  });

  it('offers no Edit, Delete or Allocate Credits on a grandchild, and no child card for a tenant', async () => {
    const tenant = makeOrganization({ name: 'Harbor Tenant', org_type: 'tenant', parent_org_id: orgId() });
    const api = mockApi((call) => (call.path === `/api/organizations/${tenant.id}` ? json(200, { organization: tenant }) : undefined));
    renderApp(`/orgs/${tenant.id}`, { session: superAgencyAdmin() });
    await screen.findByRole('heading', { level: 1, name: 'Harbor Tenant' });
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Allocate Credits' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Manage Billing' })).toBeInTheDocument();
    expect(screen.queryByText('Child organizations')).not.toBeInTheDocument();
    expect(api.queriesOf('GET /api/organizations')).toEqual([]);
  });

  it('shows a plain user its own organization, without the child list it may not read', async () => {
    const own = makeOrganization({ id: OWN_ORG_ID, name: 'Northwind Agency', parent_org_id: orgId(), child_count: 3 });
    const api = mockApi((call) => (call.path === `/api/organizations/${own.id}` ? json(200, { organization: own }) : undefined));
    renderApp(`/orgs/${own.id}`, { session: makeSession({ role: 'agency_user', orgType: 'agency' }) });
    await screen.findByRole('heading', { level: 1, name: 'Northwind Agency' });
    expect(screen.getByText('12.50 credits')).toBeInTheDocument();
    expect(screen.getByRole('main').querySelector(`a[href*="/credit-ledger"]`)).not.toBeNull();
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByText('Child organizations')).not.toBeInTheDocument();
    expect(api.queriesOf('GET /api/organizations')).toEqual([]);
  });

  it('lets a manager edit a direct child but not delete it, allocate or manage billing', async () => {
    const agency = makeOrganization({ name: 'Northwind Agency', status: 'suspended' });
    mockApi((call) => {
      if (call.path === `/api/organizations/${agency.id}`) return json(200, { organization: agency });
      if (call.path === '/api/organizations') return json(200, makeList([]));
      return undefined;
    });
    renderApp(`/orgs/${agency.id}`, { session: makeSession({ role: 'super_agency_manager', orgType: 'super_agency' }) });
    await screen.findByRole('heading', { level: 1, name: 'Northwind Agency' });
    expect(screen.getByRole('link', { name: 'Edit' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Manage Billing' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Allocate Credits' })).not.toBeInTheDocument();
  });

  it('confirms a delete, shows a refusal in the dialog, and goes back to the list once deleted', async () => {
    const user = userEvent.setup();
    const agency = makeOrganization({ name: 'Northwind Agency' });
    let refuse = true;
    const api = mockApi((call) => {
      if (call.path === `/api/organizations/${agency.id}` && call.method === 'DELETE') {
        return refuse ? apiError(422, 'rule_violated', MESSAGES.organizations.deleteHasActiveUsers) : new Response(null, { status: 204 });
      }
      if (call.path === `/api/organizations/${agency.id}`) return json(200, { organization: agency });
      if (call.path === '/api/organizations') return json(200, makeList([]));
      return undefined;
    });
    renderApp(`/orgs/${agency.id}`, { session: superAgencyAdmin() });
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete Northwind Agency?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByText(MESSAGES.organizations.deleteHasActiveUsers)).toBeInTheDocument();

    refuse = false;
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/orgs$/));
    expect(api.calls.filter((c) => c.method === 'DELETE')).toHaveLength(2);
  });

  it('shows Access Denied on a 403 and Organization not found on a 404', async () => {
    const id = orgId();
    mockApi((call) => (call.path === `/api/organizations/${id}` ? apiError(403, 'forbidden', MESSAGES.generic.forbidden) : undefined));
    const { unmount } = renderApp(`/orgs/${id}`, { session: makeSession({ role: 'tenant_user', orgType: 'tenant' }) });
    expect(await screen.findByText(MESSAGES.auth.accessDenied)).toBeInTheDocument();
    // The user level may not open the organization lists: Back leads to its dashboard.
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/dashboard');
    unmount();

    mockApi((call) => (call.path === `/api/organizations/${id}` ? apiError(404, 'not_found', MESSAGES.organizations.notFound) : undefined));
    renderApp(`/orgs/${id}`, { session: superAgencyAdmin() });
    expect(await screen.findByText(MESSAGES.organizations.notFound)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.organizations.failedToLoadDetails)).toBeInTheDocument();
  });
});
