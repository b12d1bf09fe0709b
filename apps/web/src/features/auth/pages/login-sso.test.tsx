import { MESSAGES as DOMAIN_MESSAGES, SSO_SIGN_IN_ERRORS, ssoDiscoverResultSchema } from '@console/domain';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiError, json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { DISCOVER, PASSWORD_METHOD } from '@/test/identity-data';
import { browser } from '@/lib/reload';
import { MESSAGES } from '../wording';

const { auth } = MESSAGES;
const REDIRECT = 'https://login.acme.example/authorize?client_id=console&state=s1';
const SSO = ssoDiscoverResultSchema.parse({ method: 'sso', organization_name: 'Acme Corporation', redirect_url: REDIRECT });

// Pages are lazy chunks: load the sign-in page and where it leads before the first test's clock starts.
beforeAll(
  () => Promise.all([import('./login-page'), import('@/app/shell/app-shell'), import('@/features/dashboard/pages/dashboard-page')]),
  30_000,
);

async function typeEmail(email = 'dana@acme.example', user = userEvent.setup()) {
  await user.type(await screen.findByLabelText('Email'), email);
  await user.click(screen.getByRole('button', { name: auth.continue }));
  return user;
}

describe('signing in, e-mail first', { timeout: 20_000 }, () => {
  it("sends an e-mail of a claimed domain to its organization's provider, asking no password", async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {});
    const api = mockApi({ [DISCOVER]: () => json(200, SSO) });
    renderApp('/login', { session: null });
    await typeEmail();
    expect(await screen.findByRole('status')).toHaveTextContent(auth.continuingTo('Acme Corporation'));
    expect(assign).toHaveBeenCalledWith(REDIRECT);
    expect(api.bodiesOf(DISCOVER)).toEqual([{ email: 'dana@acme.example' }]);
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(api.callsTo('POST /api/auth/sign-in')).toHaveLength(0);
    assign.mockRestore();
  });

  it('asks the password next for any other e-mail, which can be changed again', async () => {
    mockApi({ ...PASSWORD_METHOD });
    renderApp('/login', { session: null });
    const user = await typeEmail('alice@example.test');
    const password = await screen.findByLabelText('Password');
    await waitFor(() => expect(password).toHaveFocus());
    expect(screen.getByLabelText('Email')).toHaveValue('alice@example.test');
    expect(screen.getByLabelText('Email')).toHaveAttribute('readonly');

    await user.click(screen.getByRole('button', { name: auth.changeEmail }));
    const email = await screen.findByLabelText('Email');
    expect(email).not.toHaveAttribute('readonly');
    await waitFor(() => expect(email).toHaveFocus());
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
  });

  it('takes the password without looking the e-mail up: the break-glass admin at a claimed domain signs in with it', async () => {
    const session = makeSession();
    const api = mockApi({
      [DISCOVER]: () => json(200, SSO),
      'POST /api/auth/sign-in': () => json(200, session),
      'GET /api/users/me': () => json(200, session.user),
    });
    renderApp('/login', { session: null });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'breakglass@acme.example');
    await user.click(screen.getByRole('button', { name: auth.signInWithPassword }));
    const password = await screen.findByLabelText('Password');
    await waitFor(() => expect(password).toHaveFocus());
    expect(screen.getByLabelText('Email')).toHaveValue('breakglass@acme.example');
    await user.type(password, 'secret-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(api.callsTo(DISCOVER)).toHaveLength(0);
    expect(api.bodiesOf('POST /api/auth/sign-in')).toEqual([{ email: 'breakglass@acme.example', password: 'secret-password' }]);
  });

  it('asks for the e-mail before the password, too', async () => {
    const api = mockApi({ ...PASSWORD_METHOD });
    renderApp('/login', { session: null });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: auth.signInWithPassword }));
    expect(await screen.findByText(DOMAIN_MESSAGES.auth.emailRequired)).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(api.callsTo(DISCOVER)).toHaveLength(0);
  });

  it.each(SSO_SIGN_IN_ERRORS)('says why a provider sign-in ended without a session (?sso_error=%s)', async (reason) => {
    renderApp(`/login?sso_error=${reason}`, { session: null });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(auth.ssoFailedTitle);
    expect(alert).toHaveTextContent(DOMAIN_MESSAGES.identity.signInErrors[reason]);
  });

  it('says nothing of an sso_error it does not know', async () => {
    renderApp('/login?sso_error=<script>', { session: null });
    await screen.findByLabelText('Email');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("says plainly that the organization's people sign in through its provider when the password is refused for it", async () => {
    mockApi({
      ...PASSWORD_METHOD,
      'POST /api/auth/sign-in': () => apiError(403, 'forbidden', DOMAIN_MESSAGES.identity.passwordDisabled),
    });
    renderApp('/login', { session: null });
    const user = await typeEmail('alice@example.test');
    await user.type(await screen.findByLabelText('Password'), 'secret-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(auth.passwordDisabledTitle);
    expect(alert).toHaveTextContent(DOMAIN_MESSAGES.identity.passwordDisabled);
    expect(alert).not.toHaveTextContent(MESSAGES.loginErrors.auth.title);
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/);
  });

  it('stays on the e-mail step when looking the e-mail up is refused for too many attempts', async () => {
    mockApi({ [DISCOVER]: () => apiError(429, 'rate_limited', DOMAIN_MESSAGES.auth.tooManyAttempts) });
    renderApp('/login', { session: null });
    await typeEmail();
    expect(await screen.findByRole('alert')).toHaveTextContent(DOMAIN_MESSAGES.auth.tooManyAttempts);
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
  });

  it('falls back to the password when the way to sign in cannot be looked up, and signs in with it', async () => {
    const session = makeSession();
    mockApi({
      [DISCOVER]: () => apiError(500, 'internal', 'boom'),
      'POST /api/auth/sign-in': () => json(200, session),
      'GET /api/users/me': () => json(200, session.user),
    });
    renderApp('/login', { session: null });
    const user = await typeEmail('alice@example.test');
    await user.type(await screen.findByLabelText('Password'), 'secret-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
  });
});
