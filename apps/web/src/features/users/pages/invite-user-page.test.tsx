import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiError, goBack, json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { makeOrganization } from '@/test/organization-data';
import { CHILD_ORG, makeInvitation, makeUser, OWN_ORG, page } from '@/test/user-data';
import { MESSAGES } from '../wording';

const t = MESSAGES.teamPages;

// The page is a lazy chunk: load it once before the first test's clock starts.
beforeAll(() => Promise.all([import('./invite-user-page'), import('./users-page'), import('@/app/shell/app-shell')]), 30_000);

function roleOptions() {
  return within(screen.getByLabelText('Role'))
    .getAllByRole('option')
    .map((option) => option.getAttribute('value'));
}

describe('invite user page', { timeout: 20_000 }, () => {
  it.each([
    ['house', ['house_admin', 'house_manager', 'house_user']],
    ['super_agency', ['super_agency_admin', 'super_agency_manager', 'super_agency_user']],
    ['agency', ['agency_admin', 'agency_manager', 'agency_user']],
    ['tenant', ['tenant_admin', 'tenant_manager', 'tenant_user']],
  ] as const)('offers the roles of a %s organization', async (orgType, roles) => {
    mockApi({});
    renderApp('/users/create', { session: makeSession({ role: `${orgType}_admin`, orgType, orgName: 'Own Org' }) });
    expect(await screen.findByText(/Adding user to Own Org/)).toHaveTextContent(
      { house: 'House', super_agency: 'Super Agency', agency: 'Agency', tenant: 'Tenant' }[orgType],
    );
    expect(roleOptions()).toEqual(['', ...roles]);
  });

  it('does not offer roles above the inviter’s own level', async () => {
    mockApi({});
    renderApp('/users/create', { session: makeSession({ role: 'tenant_manager' }) });
    await screen.findByLabelText('Role');
    expect(roleOptions()).toEqual(['', 'tenant_manager', 'tenant_user']);
  });

  it('offers no form to a plain user, whom the server would refuse, and says who invites', async () => {
    mockApi({});
    renderApp('/users/create', { session: makeSession({ role: 'tenant_user' }) });
    expect(await screen.findByText(t.inviteNotAllowed)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send Invitation' })).not.toBeInTheDocument();
  });

  it("says that a child refuses its parent's invitations, not that inviting is for admins, when the child disabled them", async () => {
    mockApi({
      [`GET /api/organizations/${CHILD_ORG}`]: () =>
        json(200, {
          organization: makeOrganization({
            id: CHILD_ORG,
            name: 'Child Tenant',
            org_type: 'tenant',
            parent_org_id: OWN_ORG,
            disable_parent_invites: true,
          }),
        }),
    });
    renderApp(`/users/create?organization_id=${CHILD_ORG}`, { session: makeSession({ role: 'agency_admin', orgType: 'agency' }) });
    expect(await screen.findByText(MESSAGES.invitations.parentInvitesDisabled)).toBeInTheDocument();
    expect(screen.queryByText(t.inviteNotAllowed)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send Invitation' })).not.toBeInTheDocument();
  });

  it('tells a manager that admins resend, revoke or copy what is sent; not an admin', async () => {
    mockApi({});
    renderApp('/users/create', { session: makeSession({ role: 'tenant_manager' }) });
    expect(await screen.findByText(t.invitationsManagedByAdmins)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send Invitation' })).toBeInTheDocument();
  });

  it('says nothing of that to an admin', async () => {
    mockApi({});
    renderApp('/users/create', { session: makeSession({ role: 'tenant_admin' }) });
    expect(await screen.findByRole('button', { name: 'Send Invitation' })).toBeInTheDocument();
    expect(screen.queryByText(t.invitationsManagedByAdmins)).not.toBeInTheDocument();
  });

  it('offers no form on a token without an organization type, where no role applies', async () => {
    mockApi({});
    renderApp('/users/create', { session: makeSession({ role: 'tenant_admin', orgType: 'unknown' as never }) });
    expect(await screen.findByText(t.inviteNotAllowed)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send Invitation' })).not.toBeInTheDocument();
  });

  it('validates with the domain messages before calling the server', async () => {
    const api = mockApi({});
    renderApp('/users/create', { session: makeSession() });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'not-an-email');
    await user.type(screen.getByLabelText('First name'), 'A');
    await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText(MESSAGES.users.invalidEmail)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.users.firstNameMin)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.users.lastNameMin)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.users.selectRole)).toBeInTheDocument();
    expect(api.fetch).not.toHaveBeenCalled();
  });

  it('invites into the organization of the URL, toasts and goes back to its users', async () => {
    let sent: unknown;
    mockApi({
      [`GET /api/organizations/${CHILD_ORG}`]: () =>
        json(200, { organization: makeOrganization({ id: CHILD_ORG, name: 'Child Tenant', org_type: 'tenant', parent_org_id: OWN_ORG }) }),
      'POST /api/invitations': ({ body }) => {
        sent = body;
        return json(201, { invitation: makeInvitation({ email: 'new@example.test', organization_id: CHILD_ORG }) });
      },
      'GET /api/users': () => page('users', [makeUser()]),
      'GET /api/invitations': () => page('invitations', [makeInvitation({ email: 'new@example.test', organization_id: CHILD_ORG })]),
    });
    renderApp(`/users/create?organization_id=${CHILD_ORG}&organization_name=Child%20Tenant`, {
      session: makeSession({ role: 'agency_admin', orgType: 'agency' }),
      before: ['/dashboard'],
    });
    const user = userEvent.setup();
    expect(await screen.findByText(/Adding user to Child Tenant/)).toHaveTextContent('(Tenant)');
    await waitFor(() => expect(roleOptions()).toContain('tenant_user'));
    await user.type(screen.getByLabelText('Email'), 'new@example.test');
    await user.type(screen.getByLabelText('First name'), 'Nina');
    await user.type(screen.getByLabelText('Last name'), 'Newton');
    await user.selectOptions(screen.getByLabelText('Role'), 'tenant_user');
    await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText(t.invitationSent)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/users?organization_id=${CHILD_ORG}&status=pending`));
    // The list opens on Pending, where the invitation just sent is listed.
    expect(await screen.findByText('new@example.test')).toBeInTheDocument();
    expect(screen.getByLabelText('Status')).toHaveValue('pending');
    // The list took the form's place: Back leads to where the person was before it, not to an emptied form.
    goBack();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard$/));
    expect(sent).toEqual({
      email: 'new@example.test',
      first_name: 'Nina',
      last_name: 'Newton',
      role: 'tenant_user',
      organization_id: CHILD_ORG,
    });
  });

  it('toasts the server reason when the invitation is refused', async () => {
    mockApi({ 'POST /api/invitations': () => apiError(409, 'conflict', MESSAGES.invitations.accountExists) });
    renderApp('/users/create', { session: makeSession() });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'taken@example.test');
    await user.type(screen.getByLabelText('First name'), 'Tim');
    await user.type(screen.getByLabelText('Last name'), 'Taken');
    await user.selectOptions(screen.getByLabelText('Role'), 'tenant_user');
    await user.click(screen.getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText(MESSAGES.invitations.inviteFailed)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.invitations.accountExists)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/users/create');
  });
});
