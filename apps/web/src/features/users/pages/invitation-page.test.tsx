import { TIMING, UI } from '@console/domain';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiError, json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { sessionStore } from '@/lib/session-store';
import { OWN_ORG } from '@/test/user-data';
import { MESSAGES } from '../wording';

const t = MESSAGES.teamPages;
const m = MESSAGES.invitations;
const INVITATION_ID = '00000000-0000-4000-8000-0000000000ee';
const OTHER_ORG = '00000000-0000-4000-8000-0000000000bb';

// The page is a lazy chunk: load it once before the first test's clock starts. The redirect
// after an acceptance renders the shell and the dashboard, lazy chunks too: a
// navigation keeps the old page until they load, so a cold import would eat the wait.
beforeAll(
  () =>
    Promise.all([
      import('./invitation-page'),
      import('@/features/auth/pages/login-page'),
      import('@/app/shell/app-shell'),
      import('@/features/dashboard/pages/dashboard-page'),
    ]),
  30_000,
);

const registration = {
  result: 'requires_registration',
  requiresRegistration: true,
  email: 'newbie@example.test',
  invitationId: INVITATION_ID,
  organizationId: OWN_ORG,
  organizationName: 'Acme Corporation',
  role: 'tenant_user',
};

/** A signed-in invitee is asked before moving: what they leave, what they join. */
const confirmation = {
  result: 'requires_confirmation',
  requiresConfirmation: true,
  email: 'alice@example.test',
  invitationId: INVITATION_ID,
  from: { organizationId: OWN_ORG, organizationName: 'Acme Corporation', role: 'tenant_user' },
  to: { organizationId: OTHER_ORG, organizationName: 'Beta Tenant', role: 'tenant_manager' },
};

describe('invitation page', { timeout: 20_000 }, () => {
  it('says Invalid invitation link. without a token', async () => {
    const api = mockApi({});
    renderApp('/invitation', { session: null });
    expect(await screen.findByText(MESSAGES.invitations.invalidLink)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: t.goToLogin })).toHaveAttribute('href', '/login');
    expect(api.fetch).not.toHaveBeenCalled();
  });

  it('registers a new invitee with the domain messages, signs them in and goes to the dashboard after 3 s', async () => {
    const session = makeSession({ email: 'newbie@example.test', role: 'tenant_user' });
    let registered: unknown;
    mockApi({
      'POST /api/invitations/accept': ({ body }) => {
        expect(body).toEqual({ token: 'tok-1' });
        return json(200, registration);
      },
      'POST /api/invitations/register': ({ body }) => {
        registered = body;
        return json(200, session);
      },
      'GET /api/users/me': () => json(200, session.user),
    });
    renderApp('/auth/accept-invitation?token=tok-1', { session: null });
    const user = userEvent.setup();

    const email = await screen.findByLabelText('Email');
    expect(email).toHaveValue('newbie@example.test');
    expect(email).toHaveAttribute('readonly');
    const submit = screen.getByRole('button', { name: 'Create Account & Accept' });

    await user.type(screen.getByLabelText('Password'), 'short');
    await user.type(screen.getByLabelText('Confirm password'), 'short');
    await user.click(submit);
    expect(await screen.findByText(MESSAGES.auth.passwordTooShort)).toBeInTheDocument();

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'long enough 1');
    await user.clear(screen.getByLabelText('Confirm password'));
    await user.type(screen.getByLabelText('Confirm password'), 'long enough 2');
    await user.click(submit);
    expect(await screen.findByText(MESSAGES.auth.passwordsDoNotMatch)).toBeInTheDocument();
    expect(registered).toBeUndefined();

    await user.clear(screen.getByLabelText('Confirm password'));
    await user.type(screen.getByLabelText('Confirm password'), 'long enough 1');
    await user.click(submit);
    expect(await screen.findByText(t.acceptJoined('Acme Corporation'))).toBeInTheDocument();
    expect(registered).toEqual({ token: 'tok-1', password: 'long enough 1' });
    expect(sessionStore.get().status).toBe('signed-in');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'), {
      timeout: TIMING.acceptanceRedirectMs + 3000,
    });
  });

  it('shows a registration failure from the server', async () => {
    mockApi({
      'POST /api/invitations/accept': () => json(200, registration),
      'POST /api/invitations/register': () => apiError(410, 'invitation_revoked', MESSAGES.invitations.revoked),
    });
    renderApp('/invitation?token=tok-2', { session: null });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Password'), 'long enough 1');
    await user.type(screen.getByLabelText('Confirm password'), 'long enough 1');
    await user.click(screen.getByRole('button', { name: 'Create Account & Accept' }));
    expect(await screen.findByText(t.registrationFailed)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.invitations.revoked)).toBeInTheDocument();
  });

  it('shows the error state with the reason, the code under Technical details, Retry and Go to Login', async () => {
    mockApi({
      'POST /api/invitations/accept': () => apiError(410, 'invitation_revoked', MESSAGES.invitations.revoked),
    });
    renderApp('/invitation?token=revoked-token', { session: null });
    expect(await screen.findByText(MESSAGES.invitations.revoked)).toBeInTheDocument();
    expect(screen.getByText(t.technicalDetails)).toBeInTheDocument();
    expect(screen.getByText('invitation_revoked')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: t.retry })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: t.goToLogin })).toHaveAttribute('href', '/login');
  });

  it('keeps the token for an existing account and sends it to /login?token= after 3 s', async () => {
    mockApi({
      'POST /api/invitations/accept': () => json(200, { result: 'requires_login', requiresLogin: true, email: 'known@example.test' }),
    });
    renderApp('/invitation?token=tok-3', { session: null });
    expect(await screen.findByText(t.acceptLoginBody('known@example.test'))).toBeInTheDocument();
    expect(sessionStorage.getItem(UI.pendingInvitationKey)).toBe('tok-3');
    expect(screen.getByTestId('location')).toHaveTextContent('/invitation');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login?token=tok-3'), {
      timeout: TIMING.acceptanceRedirectMs + 3000,
    });
    expect(await screen.findByText(MESSAGES.auth.pendingInvitationNotice)).toBeInTheDocument();
  });

  it('asks the signed-in invitee to confirm, naming what they leave and join, and joins only on Join', async () => {
    const session = makeSession();
    const refreshed = makeSession({ tokenId: 'second' });
    const bearers: (string | null)[] = [];
    const api = mockApi({
      'POST /api/invitations/accept': ({ headers, body }) => {
        bearers.push(headers.get('Authorization'));
        return (body as { confirm?: boolean }).confirm
          ? json(200, { result: 'accepted', organizationId: OTHER_ORG, organizationName: 'Beta Tenant', role: 'tenant_manager' })
          : json(200, confirmation);
      },
      'POST /api/auth/refresh': () => json(200, refreshed),
    });
    sessionStorage.setItem(UI.pendingInvitationKey, 'tok-4');
    renderApp('/invitation?token=tok-4', { session });
    const user = userEvent.setup();
    expect(await screen.findByText(m.confirmMove('Acme Corporation', 'Tenant User', 'Beta Tenant', 'Tenant Manager'))).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: m.confirmTitle })).toBeInTheDocument();
    expect(screen.getByText(m.confirmConsequence('Acme Corporation'))).toBeInTheDocument();
    // Nothing was accepted yet: the first call carries no confirmation.
    expect(api.bodiesOf('POST /api/invitations/accept')).toEqual([{ token: 'tok-4' }]);
    expect(sessionStore.accessToken()).toBe(session.access_token);

    await user.click(screen.getByRole('button', { name: m.join }));
    expect(await screen.findByText(t.acceptJoined('Beta Tenant'))).toBeInTheDocument();
    expect(api.bodiesOf('POST /api/invitations/accept')).toEqual([{ token: 'tok-4' }, { token: 'tok-4', confirm: true }]);
    expect(bearers).toEqual([`Bearer ${session.access_token}`, `Bearer ${session.access_token}`]);
    expect(sessionStore.accessToken()).toBe(refreshed.access_token);
    expect(sessionStorage.getItem(UI.pendingInvitationKey)).toBeNull();
  });

  it('Cancel keeps the invitee where they are and sends no confirmation', async () => {
    const session = makeSession();
    const api = mockApi({ 'POST /api/invitations/accept': () => json(200, confirmation) });
    sessionStorage.setItem(UI.pendingInvitationKey, 'tok-5');
    renderApp('/invitation?token=tok-5', { session });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: m.cancel }));
    expect(await screen.findByText(m.declined('Acme Corporation'))).toBeInTheDocument();
    expect(screen.getByRole('link', { name: MESSAGES.shell.nav.dashboard })).toHaveAttribute('href', '/dashboard');
    expect(api.bodiesOf('POST /api/invitations/accept')).toEqual([{ token: 'tok-5' }]);
    expect(sessionStore.accessToken()).toBe(session.access_token);
    expect(sessionStorage.getItem(UI.pendingInvitationKey)).toBeNull();
  });

  it('shows why joining was refused after Join', async () => {
    mockApi({
      'POST /api/invitations/accept': ({ body }) =>
        (body as { confirm?: boolean }).confirm ? apiError(422, 'rule_violated', MESSAGES.users.lastAdmin) : json(200, confirmation),
    });
    renderApp('/invitation?token=tok-6', { session: makeSession() });
    await userEvent.setup().click(await screen.findByRole('button', { name: m.join }));
    expect(await screen.findByText(MESSAGES.users.lastAdmin)).toBeInTheDocument();
    expect(screen.getByText('rule_violated')).toBeInTheDocument();
  });

  it('says so when an account for the e-mail has superseded the invitation', async () => {
    mockApi({ 'POST /api/invitations/accept': () => apiError(409, 'invitation_superseded', m.superseded) });
    renderApp('/invitation?token=tok-7', { session: null });
    expect(await screen.findByText(m.superseded)).toBeInTheDocument();
    expect(screen.getByText('invitation_superseded')).toBeInTheDocument();
  });

  it('says a link replaced by a newer one (the invitation was sent again) was replaced, not that it is invalid', async () => {
    mockApi({ 'POST /api/invitations/accept': () => apiError(410, 'invitation_link_replaced', m.linkReplaced) });
    renderApp('/invitation?token=old-link', { session: null });
    expect(await screen.findByText(m.linkReplaced)).toBeInTheDocument();
    expect(screen.getByText('invitation_link_replaced')).toBeInTheDocument();
    expect(screen.queryByText(m.invalidLink)).not.toBeInTheDocument();
  });

  it('says so when the link is replaced while the invitee fills in the registration form', async () => {
    mockApi({
      'POST /api/invitations/accept': () => json(200, registration),
      'POST /api/invitations/register': () => apiError(410, 'invitation_link_replaced', m.linkReplaced),
    });
    renderApp('/invitation?token=old-link', { session: null });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Password'), 'long enough 1');
    await user.type(screen.getByLabelText('Confirm password'), 'long enough 1');
    await user.click(screen.getByRole('button', { name: 'Create Account & Accept' }));
    expect(await screen.findByText(m.linkReplaced)).toBeInTheDocument();
  });
});
