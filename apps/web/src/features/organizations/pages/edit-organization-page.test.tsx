import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiError, json, makeSession, mockApi, OWN_ORG_ID, renderApp } from '@/test/helpers';
import { makeOrganization, orgId } from '@/test/organization-data';
import { MESSAGES } from '../wording';

beforeAll(async () => {
  await Promise.all([import('./edit-organization-page'), import('./organization-detail-page'), import('@/app/shell/app-shell')]);
});

const superAgencyAdmin = () => makeSession({ role: 'super_agency_admin', orgType: 'super_agency' });

describe('edit organization', { timeout: 30_000 }, () => {
  it('shows Permission Denied for a grandchild', async () => {
    const grandchild = makeOrganization({ name: 'Harbor Tenant', org_type: 'tenant', parent_org_id: orgId() });
    mockApi((call) => (call.path === `/api/organizations/${grandchild.id}` ? json(200, { organization: grandchild }) : undefined));
    renderApp(`/orgs/${grandchild.id}/edit`, { session: superAgencyAdmin() });
    expect(await screen.findByText(MESSAGES.organizations.permissionDenied)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.organizations.onlyOwnOrDirectChild)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save Changes' })).not.toBeInTheDocument();
  });

  it('saves a direct child and returns to its page with the new name', async () => {
    const user = userEvent.setup();
    let child = makeOrganization({ name: 'Northwind Agency', description: 'Old text' });
    const api = mockApi((call) => {
      if (call.path !== `/api/organizations/${child.id}`) return undefined;
      if (call.method === 'PATCH') {
        child = { ...child, ...(call.body as object) };
        return json(200, { organization: child });
      }
      return json(200, { organization: child });
    });
    renderApp(`/orgs/${child.id}/edit`, { session: superAgencyAdmin() });
    const name = await screen.findByLabelText('Name');
    expect(name).toHaveValue('Northwind Agency');
    expect(screen.getByLabelText('Status')).toHaveValue('active');
    expect(screen.getByRole('switch', { name: 'Disable parent invites' })).toHaveAttribute('aria-checked', 'false');

    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(MESSAGES.organizations.nameMin)).toBeInTheDocument();

    await user.type(name, 'Southwind Agency');
    await user.clear(screen.getByLabelText('Description (optional)'));
    await user.selectOptions(screen.getByLabelText('Status'), 'suspended');
    await user.click(screen.getByRole('switch', { name: 'Disable parent invites' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    // Suspending is confirmed first.
    const dialog = await screen.findByRole('alertdialog', { name: MESSAGES.organizations.freezeTitle('suspended') });
    expect(dialog).toHaveTextContent(MESSAGES.organizations.freezeConfirm('Northwind Agency', 'suspended'));
    expect(api.bodiesOf(`PATCH /api/organizations/${child.id}`)).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Suspend' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Southwind Agency' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(`/orgs/${child.id}`);
    expect(api.bodiesOf(`PATCH /api/organizations/${child.id}`)).toEqual([
      { name: 'Southwind Agency', description: null, status: 'suspended', disable_parent_invites: true },
    ]);
  });

  it('asks before deactivating: Cancel saves nothing and keeps the form; making it active again needs no confirmation', async () => {
    const user = userEvent.setup();
    let child = makeOrganization({ name: 'Northwind Agency' });
    const api = mockApi((call) => {
      if (call.path !== `/api/organizations/${child.id}`) return undefined;
      if (call.method === 'PATCH') child = { ...child, ...(call.body as object) };
      return json(200, { organization: child });
    });
    renderApp(`/orgs/${child.id}/edit`, { session: superAgencyAdmin() });
    await user.selectOptions(await screen.findByLabelText('Status'), 'inactive');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await screen.findByRole('alertdialog', { name: MESSAGES.organizations.freezeTitle('inactive') });
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(api.bodiesOf(`PATCH /api/organizations/${child.id}`)).toEqual([]);
    expect(screen.getByTestId('location')).toHaveTextContent(`/orgs/${child.id}/edit`);

    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await user.click(await screen.findByRole('button', { name: MESSAGES.organizations.freezeAction('inactive') }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(new RegExp(`/orgs/${child.id}$`)));
    expect(api.bodiesOf(`PATCH /api/organizations/${child.id}`)).toMatchObject([{ status: 'inactive' }]);
  });

  it('saves a suspended organization made active again without a confirmation', async () => {
    const user = userEvent.setup();
    let child = makeOrganization({ name: 'Northwind Agency', status: 'suspended' });
    const api = mockApi((call) => {
      if (call.path !== `/api/organizations/${child.id}`) return undefined;
      if (call.method === 'PATCH') child = { ...child, ...(call.body as object) };
      return json(200, { organization: child });
    });
    renderApp(`/orgs/${child.id}/edit`, { session: superAgencyAdmin() });
    await user.selectOptions(await screen.findByLabelText('Status'), 'active');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(api.bodiesOf(`PATCH /api/organizations/${child.id}`)).toMatchObject([{ status: 'active' }]));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('shows the server refusal', async () => {
    const user = userEvent.setup();
    const own = makeOrganization({ id: '00000000-0000-4000-8000-000000000001', parent_org_id: orgId() });
    mockApi((call) => {
      if (call.path !== `/api/organizations/${own.id}`) return undefined;
      if (call.method === 'PATCH') return apiError(403, 'forbidden', MESSAGES.organizations.onlyOwnOrDirectChild);
      return json(200, { organization: own });
    });
    renderApp(`/organizations/${own.id}/edit`, { session: makeSession({ role: 'house_admin', orgType: 'house' }) });
    await user.click(await screen.findByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(MESSAGES.organizations.onlyOwnOrDirectChild));
    expect(screen.getByRole('link', { name: 'Cancel' })).toHaveAttribute('href', `/organizations/${own.id}`);
  });

  it("offers the status only to the parent's admins: the organization's own admin edits the rest, and sends no status", async () => {
    const user = userEvent.setup();
    let own = makeOrganization({ id: OWN_ORG_ID, name: 'Own Agency', parent_org_id: orgId() });
    const api = mockApi((call) => {
      if (call.path !== `/api/organizations/${own.id}`) return undefined;
      if (call.method === 'PATCH') own = { ...own, ...(call.body as object) };
      return json(200, { organization: own });
    });
    renderApp(`/organizations/${own.id}/edit`, { session: makeSession({ role: 'agency_admin', orgType: 'agency' }) });
    const name = await screen.findByLabelText('Name');
    expect(screen.queryByLabelText('Status')).not.toBeInTheDocument();
    await user.clear(name);
    await user.type(name, 'Own Agency Renamed');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() =>
      expect(api.bodiesOf(`PATCH /api/organizations/${own.id}`)).toEqual([
        { name: 'Own Agency Renamed', description: null, disable_parent_invites: false },
      ]),
    );
  });

  it("does not offer the status of a direct child to the parent's managers", async () => {
    const child = makeOrganization({ name: 'Managed Agency' });
    mockApi((call) => (call.path === `/api/organizations/${child.id}` ? json(200, { organization: child }) : undefined));
    renderApp(`/orgs/${child.id}/edit`, { session: makeSession({ role: 'super_agency_manager', orgType: 'super_agency' }) });
    expect(await screen.findByLabelText('Name')).toHaveValue('Managed Agency');
    expect(screen.queryByLabelText('Status')).not.toBeInTheDocument();
  });

  it('tells a person of a suspended organization why nothing can be edited, in the page and in the banner', async () => {
    const session = superAgencyAdmin();
    session.user.organization.status = 'suspended';
    const child = makeOrganization({ name: 'Frozen Child' });
    mockApi((call) => (call.path === `/api/organizations/${child.id}` ? json(200, { organization: child }) : undefined));
    renderApp(`/orgs/${child.id}/edit`, { session });
    const message = MESSAGES.organizations.frozen('suspended', 'own');
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    // The shell's banner says the same, on every page.
    expect(screen.getAllByText(message)).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Save Changes' })).not.toBeInTheDocument();
  });
});
