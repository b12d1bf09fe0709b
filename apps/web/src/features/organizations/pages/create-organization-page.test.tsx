import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiError, goBack, json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { makeOrganization, OWN_ORG_ID } from '@/test/organization-data';
import { MESSAGES } from '../wording';

beforeAll(async () => {
  await Promise.all([import('./create-organization-page'), import('@/app/shell/app-shell')]);
});

const agencyAdmin = () => makeSession({ role: 'agency_admin', orgType: 'agency', orgName: 'Northwind Agency' });

describe('create organization', { timeout: 30_000 }, () => {
  it('shows Permission Denied instead of the form to a tenant', async () => {
    mockApi(() => undefined);
    renderApp('/orgs/create', { session: makeSession({ role: 'tenant_admin', orgType: 'tenant' }) });
    expect(await screen.findByText(MESSAGES.organizations.permissionDenied)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.organizations.cannotCreateChildren('tenant'))).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Name')).not.toBeInTheDocument();
    // The refused page keeps its level-one heading (axe: page-has-heading-one).
    expect(screen.getByRole('heading', { level: 1, name: 'Create Organization' })).toBeInTheDocument();
  });

  it('shows Permission Denied to a role that may not create', async () => {
    mockApi(() => undefined);
    renderApp('/orgs/create', { session: makeSession({ role: 'agency_manager', orgType: 'agency' }) });
    expect(await screen.findByText(MESSAGES.organizations.permissionDenied)).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Create Organization' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create' })).not.toBeInTheDocument();
  });

  it('offers only the next type down and checks the name with the schema messages', async () => {
    const user = userEvent.setup();
    const api = mockApi((call) =>
      call.path === `/api/organizations/${OWN_ORG_ID}` ? json(200, { organization: makeOrganization({ id: OWN_ORG_ID }) }) : undefined,
    );
    renderApp('/orgs/create', { session: agencyAdmin() });
    const type = await screen.findByLabelText('Type');
    expect(
      within(type)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Tenant']);

    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText(MESSAGES.organizations.nameMin)).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');

    await user.click(screen.getByLabelText('Name'));
    await user.paste('x'.repeat(101));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText(MESSAGES.organizations.nameMax)).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Name'));
    await user.type(screen.getByLabelText('Name'), 'Harbor Tenant');
    await user.click(screen.getByLabelText('Description (optional)'));
    await user.paste('y'.repeat(501));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Description must be at most 500 characters.')).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Description (optional)'));
    await user.type(screen.getByLabelText('Initial balance (optional)'), '-5');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText(MESSAGES.credits.amountPositive)).toBeInTheDocument();
    expect(api.bodiesOf('POST /api/organizations')).toEqual([]);
  });

  it('creates the organization with its description and initial balance, then opens its page', async () => {
    const user = userEvent.setup();
    const created = makeOrganization({ name: 'Harbor Tenant', org_type: 'tenant' });
    const api = mockApi((call) => {
      if (call.path === `/api/organizations/${OWN_ORG_ID}`) {
        return json(200, { organization: makeOrganization({ id: OWN_ORG_ID, credit_balance: '500.00' }) });
      }
      if (call.method === 'POST' && call.path === '/api/organizations') return json(201, { organization: created });
      if (call.path === `/api/organizations/${created.id}`) return json(200, { organization: created });
      return undefined;
    });
    renderApp('/orgs/create', { session: agencyAdmin(), before: ['/orgs'] });
    await user.type(await screen.findByLabelText('Name'), '  Harbor Tenant ');
    await user.type(screen.getByLabelText('Description (optional)'), 'Our harbour office');
    await user.click(screen.getByRole('switch', { name: 'Disable parent invites' }));
    expect(await screen.findByText(/balance 500\.00 credits/)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Initial balance (optional)'), '25.5');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/orgs/${created.id}`));
    expect(api.bodiesOf('POST /api/organizations')).toEqual([
      {
        name: 'Harbor Tenant',
        org_type: 'tenant',
        disable_parent_invites: true,
        description: 'Our harbour office',
        initial_balance: '25.50',
      },
    ]);
    // Back leads to the list the person came from, not to the form again, emptied.
    goBack();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/orgs$/));
  });

  it('shows the server refusal and keeps the form', async () => {
    const user = userEvent.setup();
    mockApi((call) => {
      if (call.method === 'POST' && call.path === '/api/organizations') {
        return apiError(422, 'rule_violated', 'Insufficient credits: the balance is 0.00 credits.');
      }
      return undefined;
    });
    renderApp('/organizations/create', { session: makeSession({ role: 'house_admin', orgType: 'house' }) });
    await user.type(await screen.findByLabelText('Name'), 'Acme Super Agency');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(MESSAGES.organizations.failedToCreate);
    expect(alert).toHaveTextContent('Insufficient credits: the balance is 0.00 credits.');
    expect(screen.getByTestId('location')).toHaveTextContent('/organizations/create');
    // Cancel and Back go to the list this page belongs to.
    expect(screen.getByRole('link', { name: 'Cancel' })).toHaveAttribute('href', '/organizations');
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/organizations');
  });
  it("shows a type refusal of the server with the right article and the type's label: An agency, not A agency", async () => {
    const user = userEvent.setup();
    mockApi((call) => {
      if (call.method === 'POST' && call.path === '/api/organizations') {
        return apiError(422, 'rule_violated', MESSAGES.organizations.wrongChildType('agency', 'tenant'));
      }
      return undefined;
    });
    renderApp('/orgs/create', { session: makeSession({ role: 'agency_admin', orgType: 'agency' }) });
    await user.type(await screen.findByLabelText('Name'), 'Acme Tenant');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('An agency can only create organizations of the next type down: Tenant.');
    expect(alert).not.toHaveTextContent('A agency');
  });
  it('asks before a link leaves a form with edits, and stays when the person says no', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    try {
      const user = userEvent.setup();
      mockApi(() => undefined);
      renderApp('/orgs/create', { session: agencyAdmin() });
      await user.type(await screen.findByLabelText('Name'), 'Half typed');
      await user.click(screen.getByRole('link', { name: 'Back' }));
      expect(confirm).toHaveBeenCalledWith(MESSAGES.forms.unsavedChanges);
      expect(screen.getByTestId('location')).toHaveTextContent('/orgs/create');
      expect(screen.getByLabelText('Name')).toHaveValue('Half typed');

      confirm.mockReturnValue(true);
      await user.click(screen.getByRole('link', { name: 'Cancel' }));
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/orgs$/));
    } finally {
      confirm.mockRestore();
    }
  });

  it("asks before the browser's own Back leaves a form with edits, stays when the person says no, and goes when yes", async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    try {
      const user = userEvent.setup();
      mockApi(() => undefined);
      renderApp('/orgs/create', { session: agencyAdmin(), before: ['/orgs'] });
      await user.type(await screen.findByLabelText('Name'), 'Half typed');
      goBack();
      await waitFor(() => expect(confirm).toHaveBeenCalledWith(MESSAGES.forms.unsavedChanges));
      expect(screen.getByTestId('location')).toHaveTextContent('/orgs/create');
      expect(screen.getByLabelText('Name')).toHaveValue('Half typed');

      confirm.mockReturnValue(true);
      goBack();
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/orgs$/));
      expect(confirm).toHaveBeenCalledTimes(2);
    } finally {
      confirm.mockRestore();
    }
  });

  it('asks nothing when leaving a form without edits', async () => {
    const confirm = vi.spyOn(window, 'confirm');
    try {
      const user = userEvent.setup();
      mockApi(() => undefined);
      renderApp('/orgs/create', { session: agencyAdmin() });
      await screen.findByLabelText('Name');
      await user.click(screen.getByRole('link', { name: 'Back' }));
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/orgs$/));
      expect(confirm).not.toHaveBeenCalled();
    } finally {
      confirm.mockRestore();
    }
  });
});
