import { TIMING, UI } from '@console/domain';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiError, json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { DISCOVER, PASSWORD_METHOD } from '@/test/identity-data';
import { MESSAGES } from '../wording';

// Pages are lazy chunks: load the sign-in page and where it leads before the first test's clock starts.
beforeAll(
  () => Promise.all([import('./login-page'), import('@/app/shell/app-shell'), import('@/features/dashboard/pages/dashboard-page')]),
  30_000,
);

const { loginErrors } = MESSAGES;

/** The e-mail first (its organization signs in with passwords), then the password. */
async function submitCredentials(user = userEvent.setup()) {
  await user.type(await screen.findByLabelText('Email'), 'alice@example.test');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await user.type(await screen.findByLabelText('Password'), 'secret-password');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

const SIGN_IN = 'POST /api/auth/sign-in';

function networkFailure(): Response {
  throw new TypeError('Failed to fetch');
}

describe('login page', () => {
  it('requires the e-mail, then the password, before calling the server', async () => {
    const api = mockApi({ ...PASSWORD_METHOD });
    renderApp('/login', { session: null });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(MESSAGES.auth.emailRequired)).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(api.fetch).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText('Email'), 'alice@example.test');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(MESSAGES.auth.passwordRequired)).toBeInTheDocument();
    expect(api.bodiesOf(DISCOVER)).toEqual([{ email: 'alice@example.test' }]);
    expect(api.callsTo(SIGN_IN)).toHaveLength(0);
  });

  it('shows the forgot password link and the no-account note', async () => {
    renderApp('/login', { session: null });
    expect(await screen.findByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/reset-password');
    expect(screen.getByText(MESSAGES.auth.noAccountNote)).toBeInTheDocument();
  });

  it.each([
    ['auth', () => apiError(401, 'unauthorized', MESSAGES.auth.invalidCredentials)],
    ['jwt', () => apiError(401, 'unauthorized', 'JWT signature could not be verified')],
  ] as const)('shows the %s class with its title, message and troubleshooting line', async (kind, answer) => {
    mockApi({ ...PASSWORD_METHOD, 'POST /api/auth/sign-in': answer });
    renderApp('/login', { session: null });
    await submitCredentials();
    const copy = loginErrors[kind];
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(copy.title);
    expect(alert).toHaveTextContent(copy.message);
    expect(alert).toHaveTextContent(copy.troubleshooting);
    if (kind === 'jwt') expect(alert).toHaveTextContent(loginErrors.jwt.systemUpdateNotice);
    else expect(alert).not.toHaveTextContent(loginErrors.jwt.systemUpdateNotice);
  });

  it('shows an unclassified server message as it is, under the Error title', async () => {
    mockApi({
      ...PASSWORD_METHOD,
      'POST /api/auth/sign-in': () => apiError(429, 'rate_limited', MESSAGES.auth.tooManyAttempts),
    });
    renderApp('/login', { session: null });
    await submitCredentials();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(loginErrors.unknown.title);
    expect(alert).toHaveTextContent(MESSAGES.auth.tooManyAttempts);
    expect(alert).toHaveTextContent(loginErrors.unknown.troubleshooting);
  });

  it('shows the network class and retries by itself exactly once, after 2 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = mockApi({ ...PASSWORD_METHOD, 'POST /api/auth/sign-in': networkFailure });
    renderApp('/login', { session: null });
    await submitCredentials(userEvent.setup({ advanceTimers: vi.advanceTimersByTime }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(loginErrors.network.title);
    expect(alert).toHaveTextContent(loginErrors.network.message);
    expect(alert).toHaveTextContent(loginErrors.network.troubleshooting);
    expect(api.callsTo(SIGN_IN)).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(TIMING.loginNetworkRetryMs);
    await waitFor(() => expect(api.callsTo(SIGN_IN)).toHaveLength(2));
    // The second network error is shown and not retried again.
    await vi.advanceTimersByTimeAsync(TIMING.loginNetworkRetryMs * 3);
    expect(api.callsTo(SIGN_IN)).toHaveLength(2);
    expect(screen.getByRole('alert')).toHaveTextContent(loginErrors.network.title);
  });

  it('resets the retry counter after an outcome other than a network error', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const answers = [networkFailure, () => apiError(401, 'unauthorized', MESSAGES.auth.invalidCredentials), networkFailure, networkFailure];
    const api = mockApi({
      ...PASSWORD_METHOD,
      'POST /api/auth/sign-in': () => answers[api.callsTo(SIGN_IN).length - 1]!(),
    });
    renderApp('/login', { session: null });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await submitCredentials(user);
    await vi.advanceTimersByTimeAsync(TIMING.loginNetworkRetryMs);
    expect(await screen.findByText(loginErrors.auth.title)).toBeInTheDocument();
    expect(api.callsTo(SIGN_IN)).toHaveLength(2);

    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(loginErrors.network.title)).toBeInTheDocument();
    await vi.advanceTimersByTimeAsync(TIMING.loginNetworkRetryMs);
    await waitFor(() => expect(api.callsTo(SIGN_IN)).toHaveLength(4));
  });

  it('signs in after an automatic retry succeeds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const answers = [networkFailure, () => json(200, makeSession())];
    const api = mockApi({
      ...PASSWORD_METHOD,
      'POST /api/auth/sign-in': () => answers[api.callsTo(SIGN_IN).length - 1]!(),
      'GET /api/users/me': () => json(200, makeSession().user),
    });
    renderApp('/login', { session: null });
    await submitCredentials(userEvent.setup({ advanceTimers: vi.advanceTimersByTime }));
    await vi.advanceTimersByTimeAsync(TIMING.loginNetworkRetryMs);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
  });

  it('on success toasts, replaces history and lands on the dashboard', async () => {
    const session = makeSession();
    mockApi({
      ...PASSWORD_METHOD,
      'POST /api/auth/sign-in': () => json(200, session),
      'GET /api/users/me': () => json(200, session.user),
    });
    renderApp('/login', { session: null });
    await submitCredentials();
    expect(await screen.findByText(MESSAGES.auth.loginSuccessful)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
  });

  it('keeps a token from the URL as a pending invitation and says so', async () => {
    const session = makeSession();
    mockApi({
      ...PASSWORD_METHOD,
      'POST /api/auth/sign-in': () => json(200, session),
      'GET /api/users/me': () => json(200, session.user),
    });
    renderApp('/login?token=invite-123', { session: null });
    expect(await screen.findByText(MESSAGES.auth.pendingInvitationNotice)).toBeInTheDocument();
    expect(sessionStorage.getItem(UI.pendingInvitationKey)).toBe('invite-123');
    await submitCredentials();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(sessionStorage.getItem(UI.pendingInvitationKey)).toBe('invite-123');
  });

  it('accepts a pending invitation with the new bearer after sign-in, then drops the token', async () => {
    const session = makeSession();
    const refreshed = makeSession({ tokenId: 'second' });
    let bearer: string | undefined;
    const api = mockApi({
      ...PASSWORD_METHOD,
      'POST /api/auth/sign-in': () => json(200, session),
      'POST /api/invitations/accept': ({ headers }) => {
        bearer = headers.get('Authorization') ?? undefined;
        return json(200, {
          result: 'accepted',
          organizationId: session.user.organization_id,
          organizationName: 'Acme Corporation',
          role: 'tenant_user',
        });
      },
      'POST /api/auth/refresh': () => json(200, refreshed),
      'GET /api/users/me': () => json(200, session.user),
    });
    renderApp('/login?token=invite-123', { session: null });
    await submitCredentials();
    expect(await screen.findByText(MESSAGES.invitationToasts.accepted)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(api.bodiesOf('POST /api/invitations/accept')).toEqual([{ token: 'invite-123' }]);
    expect(bearer).toBe(`Bearer ${session.access_token}`);
    expect(sessionStorage.getItem(UI.pendingInvitationKey)).toBeNull();
  });

  it('keeps the pending invitation and says why when accepting it fails', async () => {
    const session = makeSession();
    mockApi({
      ...PASSWORD_METHOD,
      'POST /api/auth/sign-in': () => json(200, session),
      'POST /api/invitations/accept': () => apiError(410, 'invitation_expired', MESSAGES.invitations.expired),
      'GET /api/users/me': () => json(200, session.user),
    });
    renderApp('/login?token=invite-456', { session: null });
    await submitCredentials();
    expect(await screen.findByText(MESSAGES.invitationToasts.failed)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.invitations.expired)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(sessionStorage.getItem(UI.pendingInvitationKey)).toBe('invite-456');
  });

  it('shows no invitation notice without a pending token', async () => {
    renderApp('/login', { session: null });
    await screen.findByLabelText('Email');
    expect(screen.queryByText(MESSAGES.auth.pendingInvitationNotice)).not.toBeInTheDocument();
  });
});

describe('sessions that end', () => {
  it('says the session expired when a refresh is refused, and returns to the page after signing in again', async () => {
    const session = makeSession();
    let expired = false;
    mockApi({
      ...PASSWORD_METHOD,
      'GET /api/users/me': () => (expired ? apiError(401, 'unauthorized', 'expired') : json(200, session.user)),
      'GET /api/dashboard': () => apiError(401, 'unauthorized', 'expired'),
      'POST /api/auth/refresh': () => apiError(401, 'unauthorized', 'expired'),
      'POST /api/auth/sign-in': () => json(200, makeSession({ tokenId: 'second' })),
    });
    expired = true;
    renderApp('/settings?tab=profile', { session });
    expect(await screen.findByText(MESSAGES.auth.sessionExpiredBody)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.auth.sessionExpiredTitle)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/login?next=%2Fsettings%3Ftab%3Dprofile');

    await submitCredentials();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/settings\?tab=profile$/));
  });

  it('says the person was signed out after Log out, and offers no return', async () => {
    mockApi({ 'POST /api/auth/sign-out': () => json(200, { ok: true }) });
    renderApp('/settings', { session: makeSession() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /alice@example.test/ }));
    await user.click(await screen.findByRole('menuitem', { name: /Log out/ }));
    expect(await screen.findByText(MESSAGES.auth.signedOutBody)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/));
    expect(screen.queryByText(MESSAGES.auth.sessionExpiredBody)).not.toBeInTheDocument();
  });

  it('says nothing to a visitor who was not signed in', async () => {
    mockApi({ 'POST /api/auth/refresh': () => apiError(401, 'unauthorized', 'no session') });
    renderApp('/login');
    expect(await screen.findByRole('button', { name: 'Continue' })).toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.auth.sessionExpiredBody)).not.toBeInTheDocument();
    expect(screen.queryByText(MESSAGES.auth.signedOutBody)).not.toBeInTheDocument();
  });

  it.each([
    ['//evil.example/x', '/dashboard'],
    ['https://evil.example/x', '/dashboard'],
    ['/\\evil.example', '/dashboard'],
    ['/%2F%2Fevil.example', '/%2F%2Fevil.example'],
    ['/login', '/dashboard'],
    ['/credit-ledger?org=1#top', '/credit-ledger?org=1'],
  ])('after signing in with next=%s goes to %s (only paths of this console)', async (next, expected) => {
    const session = makeSession();
    mockApi((call) => {
      if (call.path === '/api/auth/sso/discover') return json(200, { method: 'password' });
      if (call.path === '/api/auth/sign-in') return json(200, session);
      if (call.path === '/api/users/me') return json(200, session.user);
      return undefined;
    });
    renderApp(`/login?next=${encodeURIComponent(next)}`, { session: null });
    await submitCredentials();
    await waitFor(() => expect(screen.getByTestId('location').textContent?.startsWith(expected)).toBe(true));
  });

  it('sends someone already signed in from /login to the dashboard', async () => {
    const session = makeSession();
    mockApi((call) => (call.path === '/api/users/me' ? json(200, session.user) : undefined));
    renderApp('/login', { session });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard$/));
  });
});
