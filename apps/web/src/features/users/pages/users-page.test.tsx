import { type OrganizationDetail } from '@console/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiError, goBack, json, makeSession, mockApi, queryClientWithoutRetries, renderApp, setViewportWidth } from '@/test/helpers';
import { makeOrganization } from '@/test/organization-data';
import { CHILD_ORG, makeInvitation, makeUser, OWN_ORG, page, SELF_ID } from '@/test/user-data';
import { MESSAGES } from '../wording';

const t = MESSAGES.teamPages;

function childOrganization(overrides: Partial<OrganizationDetail> = {}) {
  return {
    organization: makeOrganization({
      id: CHILD_ORG,
      name: 'Child Tenant',
      org_type: 'tenant',
      parent_org_id: OWN_ORG,
      created_at: '2025-01-01T00:00:00Z',
      updated_at: '2025-01-01T00:00:00Z',
      credit_balance: '0.00',
      activated_agent_limit: 0,
      ...overrides,
    }),
  };
}

// The page is a lazy chunk: load it once before the first test's clock starts.
beforeAll(() => Promise.all([import('./users-page'), import('@/app/shell/app-shell')]), 30_000);

// Whole-page journeys on a busy machine take longer than the 5 s default.
describe('users page', { timeout: 20_000 }, () => {
  it('lists users with the pagination text, pages forward and sends the filters to the server', async () => {
    const users = Array.from({ length: 10 }, () => makeUser());
    const api = mockApi({
      'GET /api/users': ({ url }) =>
        url.searchParams.get('page') === '2'
          ? page('users', [makeUser({ email: 'last@example.test' })], { page: 2, total: 11 })
          : page('users', users, { total: 11 }),
    });
    renderApp('/users', { session: makeSession({ role: 'tenant_admin', orgType: 'tenant', orgName: 'Acme Corporation' }) });

    expect(await screen.findByRole('heading', { level: 1, name: 'Users' })).toBeInTheDocument();
    expect(screen.getByText('Manage users in Acme Corporation')).toBeInTheDocument();
    expect(await screen.findByText('Showing 1 to 10 of 11 users')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Showing 11 to 11 of 11 users')).toBeInTheDocument();
    expect(screen.getByText('last@example.test')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();

    // The role filter offers the admin, manager and user roles of the organization's type only.
    const roleFilter = screen.getByLabelText('Role');
    expect(
      within(roleFilter)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All roles', 'Tenant Admin', 'Tenant Manager', 'Tenant User']);
    await user.selectOptions(roleFilter, 'tenant_manager');
    await user.selectOptions(screen.getByLabelText('Status'), 'inactive');
    await user.type(screen.getByLabelText('Search'), 'bob');
    await waitFor(() => {
      const last = api.queriesOf('GET /api/users').at(-1)!;
      expect(last.search).toBe('bob');
      expect(last.role).toBe('tenant_manager');
      expect(last.status).toBe('inactive');
      // A new filter starts again at the first page.
      expect(last.page).toBe('1');
      expect(last.page_size).toBe('10');
    });
  });

  it('keeps the search, filters, sort and page in the address: Back restores each, typed text replaces its entry', async () => {
    const api = mockApi({
      'GET /api/users': ({ url }) => page('users', [makeUser()], { page: Number(url.searchParams.get('page')), total: 25 }),
    });
    renderApp('/users', { session: makeSession({ role: 'tenant_admin', orgType: 'tenant' }) });
    const location = () => screen.getByTestId('location');
    await screen.findByText('Showing 1 to 10 of 25 users');
    const user = userEvent.setup();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(location()).toHaveTextContent(/^\/users\?page=2$/));
    await user.selectOptions(screen.getByLabelText('Status'), 'inactive');
    await waitFor(() => expect(location()).toHaveTextContent(/^\/users\?status=inactive$/));
    await user.type(screen.getByLabelText('Search'), 'bob');
    await waitFor(() => expect(location()).toHaveTextContent(/^\/users\?status=inactive&search=bob$/));
    // Name sorts A to Z first; the request carries the sort.
    const nameHeader = screen.getByRole('columnheader', { name: /^Name/ });
    expect(screen.getByRole('columnheader', { name: /^Created/ })).toHaveAttribute('aria-sort', 'descending');
    await user.click(within(nameHeader).getByRole('button'));
    await waitFor(() => expect(location()).toHaveTextContent(/sort=first_name$/));
    await waitFor(() =>
      expect(api.queriesOf('GET /api/users').at(-1)).toMatchObject({
        search: 'bob',
        status: 'inactive',
        sort_by: 'first_name',
        sort_order: 'asc',
        page: '1',
      }),
    );
    expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');

    goBack();
    await waitFor(() => expect(location()).toHaveTextContent(/^\/users\?status=inactive&search=bob$/));
    expect(screen.getByRole('columnheader', { name: /^Name/ })).toHaveAttribute('aria-sort', 'none');
    // The typed search replaced the status's entry: the next Back is the second page, unfiltered.
    goBack();
    await waitFor(() => expect(location()).toHaveTextContent(/^\/users\?page=2$/));
    expect(await screen.findByText('Showing 11 to 20 of 25 users')).toBeInTheDocument();
    expect(screen.getByLabelText('Status')).toHaveValue('all');
    expect(screen.getByLabelText('Search')).toHaveValue('');
  });

  it('sorts the cards of a narrow screen with a Sort select, kept in the address', async () => {
    setViewportWidth(390);
    const api = mockApi({ 'GET /api/users': () => page('users', [makeUser({ email: 'card@example.test' })]) });
    renderApp('/users?sort=first_name&order=desc', { session: makeSession({ role: 'tenant_admin', orgType: 'tenant' }) });
    expect(await screen.findByRole('list', { name: t.usersTitle })).toHaveTextContent('card@example.test');
    expect(api.queriesOf('GET /api/users')[0]).toMatchObject({ sort_by: 'first_name', sort_order: 'desc' });
    const select = screen.getByLabelText('Sort');
    expect(select).toHaveValue('first_name:desc');
    await userEvent.setup().selectOptions(select, 'created_at:asc');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/users\?order=asc$/));
    await waitFor(() => expect(api.queriesOf('GET /api/users').at(-1)).toMatchObject({ sort_by: 'created_at', sort_order: 'asc' }));
  });

  it('shows the last page for a page past it, in place', async () => {
    const api = mockApi({
      'GET /api/users': ({ url }) =>
        page('users', url.searchParams.get('page') === '3' ? [makeUser()] : [], { page: Number(url.searchParams.get('page')), total: 25 }),
    });
    renderApp('/users?page=99', { session: makeSession({ role: 'tenant_admin', orgType: 'tenant' }) });
    expect(await screen.findByText('Showing 21 to 25 of 25 users')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/users\?page=3$/);
    expect(api.queriesOf('GET /api/users').map((q) => q.page)).toEqual(['99', '3']);
  });

  it('shows the empty state', async () => {
    mockApi({ 'GET /api/users': () => page('users', []) });
    renderApp('/users', { session: makeSession() });
    expect(await screen.findByText(MESSAGES.users.emptyState)).toBeInTheDocument();
    expect(screen.getByText('Showing 0 to 0 of 0 users')).toBeInTheDocument();
  });

  it('offers Retry when the list fails to load, and Retry asks again', async () => {
    let fail = true;
    const api = mockApi({
      'GET /api/users': () =>
        fail ? apiError(500, 'internal', 'Something went wrong') : page('users', [makeUser({ email: 'back@example.test' })]),
    });
    renderApp('/users', { session: makeSession({ role: 'tenant_admin' }), queryClient: queryClientWithoutRetries() });
    expect(await screen.findByText(MESSAGES.users.loadFailed)).toBeInTheDocument();
    expect(api.callsTo('GET /api/users')).toHaveLength(1);
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('back@example.test')).toBeInTheDocument();
    expect(api.callsTo('GET /api/users')).toHaveLength(2);
  });

  it('shows Access Denied without retrying on 403', async () => {
    const api = mockApi({ 'GET /api/users': () => apiError(403, 'forbidden', MESSAGES.generic.forbidden) });
    renderApp('/users', { session: makeSession({ role: 'tenant_user' }) });
    expect(await screen.findByText(MESSAGES.auth.accessDenied)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.generic.forbidden)).toBeInTheDocument();
    expect(api.callsTo('GET /api/users')).toHaveLength(1);
  });

  it('deactivates after the confirmation and toasts; never offers it on oneself or an inactive user', async () => {
    const carol = makeUser({ first_name: 'Carol', last_name: 'Jones', status: 'active' });
    const gone = makeUser({ first_name: 'Gone', last_name: 'User', status: 'inactive' });
    const me = makeUser({ id: SELF_ID, first_name: 'Alice', last_name: 'Admin', role: 'tenant_admin' });
    let deleted = '';
    mockApi({
      'GET /api/users': () => page('users', deleted ? [{ ...carol, status: 'inactive' }, gone, me] : [carol, gone, me]),
      [`DELETE /api/users/${carol.id}`]: () => {
        deleted = carol.id;
        return json(200, { user: { ...carol, status: 'inactive' } });
      },
    });
    renderApp('/users', { session: makeSession() });
    const user = userEvent.setup();

    await user.click(await screen.findByRole('button', { name: 'Deactivate Carol Jones' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(MESSAGES.users.deactivateConfirm('Carol Jones'));
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText(MESSAGES.users.deactivated)).toBeInTheDocument();
    expect(deleted).toBe(carol.id);

    expect(screen.getByRole('button', { name: 'Deactivate Gone User' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Deactivate Alice Admin' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit Alice Admin' })).toHaveAttribute('href', `/users/${SELF_ID}/edit`);
  });

  it('toasts the failure of a deactivation with the reason', async () => {
    const carol = makeUser({ first_name: 'Carol', last_name: 'Jones' });
    mockApi({
      'GET /api/users': () => page('users', [carol]),
      [`DELETE /api/users/${carol.id}`]: () => apiError(422, 'rule', MESSAGES.users.lastAdmin),
    });
    renderApp('/users', { session: makeSession() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Deactivate Carol Jones' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText(MESSAGES.users.deactivateFailed)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.users.lastAdmin)).toBeInTheDocument();
  });

  it('managers edit and invite as the server lets them, but never deactivate', async () => {
    mockApi({ 'GET /api/users': () => page('users', [makeUser({ first_name: 'Carol', last_name: 'Jones' })]) });
    renderApp('/users', { session: makeSession({ role: 'tenant_manager' }) });
    expect(await screen.findByRole('link', { name: 'View Carol Jones' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit Carol Jones' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Deactivate Carol Jones' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: t.inviteUser })).toBeInTheDocument();
  });

  it('offers no Edit or Deactivate on the people of a grandchild organization, which the server refuses', async () => {
    mockApi({
      'GET /api/users': () => page('users', [makeUser({ first_name: 'Carol', last_name: 'Jones', organization_id: CHILD_ORG })]),
      [`GET /api/organizations/${CHILD_ORG}`]: () =>
        json(200, childOrganization({ parent_org_id: '00000000-0000-4000-8000-0000000000a9' })),
    });
    renderApp(`/users?organization_id=${CHILD_ORG}`, { session: makeSession({ role: 'super_agency_admin', orgType: 'super_agency' }) });
    expect(await screen.findByText('Manage users in Child Tenant')).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'View Carol Jones' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit Carol Jones' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Deactivate Carol Jones' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: t.inviteUser })).not.toBeInTheDocument();
  });

  it('users and support staff only view: no edit, deactivate or Invite User', async () => {
    mockApi({ 'GET /api/users': () => page('users', [makeUser({ first_name: 'Carol', last_name: 'Jones' })]) });
    renderApp('/users', { session: makeSession({ role: 'agency_support', orgType: 'agency' }) });
    expect(await screen.findByRole('link', { name: 'View Carol Jones' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit Carol Jones' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Deactivate Carol Jones' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: t.inviteUser })).not.toBeInTheDocument();
  });

  it('shows Invite User to admins of their own organization', async () => {
    mockApi({ 'GET /api/users': () => page('users', []) });
    renderApp('/users', { session: makeSession({ role: 'tenant_admin' }) });
    expect(await screen.findByRole('link', { name: t.inviteUser })).toHaveAttribute(
      'href',
      `/users/create?organization_id=${OWN_ORG}&organization_name=Acme+Corporation`,
    );
  });

  it.each([
    [false, true],
    [true, false],
  ])('for a child organization with disable_parent_invites=%s shows Invite User: %s', async (disabled, shown) => {
    mockApi({
      'GET /api/users': ({ url }) => {
        expect(url.searchParams.get('organization_id')).toBe(CHILD_ORG);
        return page('users', []);
      },
      [`GET /api/organizations/${CHILD_ORG}`]: () => json(200, childOrganization({ disable_parent_invites: disabled })),
    });
    renderApp(`/users?organization_id=${CHILD_ORG}`, { session: makeSession({ role: 'agency_admin', orgType: 'agency' }) });
    expect(await screen.findByText('Manage users in Child Tenant')).toBeInTheDocument();
    await screen.findByText(MESSAGES.users.emptyState);
    const invite = screen.queryByRole('link', { name: t.inviteUser });
    if (shown) {
      expect(invite).toHaveAttribute('href', `/users/create?organization_id=${CHILD_ORG}&organization_name=Child+Tenant`);
    } else {
      expect(invite).not.toBeInTheDocument();
    }
  });

  it('pending shows the invitations as rows with blank names, and admins revoke after confirmation', async () => {
    const invitation = makeInvitation({ email: 'pending@example.test', role: 'tenant_manager' });
    let revoked = false;
    const api = mockApi({
      'GET /api/users': () => page('users', [makeUser()]),
      'GET /api/invitations': ({ url }) => {
        expect(url.searchParams.get('status')).toBe('pending');
        return page('invitations', revoked ? [] : [invitation], { pageSize: 100 });
      },
      [`DELETE /api/invitations/${invitation.id}`]: () => {
        revoked = true;
        return json(200, { invitation: { ...invitation, status: 'revoked' } });
      },
    });
    renderApp('/users', { session: makeSession() });
    const user = userEvent.setup();
    await screen.findByText('Showing 1 to 1 of 1 users');
    await user.selectOptions(screen.getByLabelText('Status'), 'pending');

    const row = (await screen.findByText('pending@example.test')).closest('tr')!;
    const cells = within(row).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent('');
    expect(cells[2]).toHaveTextContent('Tenant Manager');
    expect(cells[3]).toHaveTextContent('pending');
    expect(screen.getByText('Showing 1 to 1 of 1 users')).toBeInTheDocument();
    expect(api.callsTo('GET /api/invitations')).toHaveLength(1);

    await user.click(within(row).getByRole('button', { name: 'Revoke invitation for pending@example.test' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(MESSAGES.invitations.revokeConfirm('pending@example.test'));
    expect(dialog).toHaveTextContent(MESSAGES.invitations.revokeWarning);
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText(MESSAGES.invitations.revokedToast)).toBeInTheDocument();
    expect(await screen.findByText(MESSAGES.users.emptyState)).toBeInTheDocument();
  });
});
