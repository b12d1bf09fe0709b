import { MESSAGES as DOMAIN_MESSAGES } from '@console/domain';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { PASSWORD_METHOD } from '@/test/identity-data';
import { browserPasskeys } from '@/lib/passkey';
import { MESSAGES } from '../wording';

// Pages are lazy chunks: load the sign-in page and where it leads before the first test's clock starts.
beforeAll(
  () => Promise.all([import('./login-page'), import('@/app/shell/app-shell'), import('@/features/dashboard/pages/dashboard-page')]),
  30_000,
);

// The browser's passkey prompt: what it answers is set per test.
const browser = vi.hoisted(() => ({
  startAuthentication: vi.fn(),
  startRegistration: vi.fn(),
  browserSupportsWebAuthn: vi.fn(() => true),
}));
const realBrowser = { ...browserPasskeys };
beforeAll(() => Object.assign(browserPasskeys, browser));
afterAll(() => Object.assign(browserPasskeys, realBrowser));

const { auth } = MESSAGES;
const OPTIONS = { challenge: 'server-challenge', rpId: 'localhost', userVerification: 'required' as const };
const ANSWER = {
  id: 'cred-1',
  rawId: 'cred-1',
  type: 'public-key' as const,
  response: { clientDataJSON: 'Y2RK', authenticatorData: 'YXV0aA', signature: 'c2ln', userHandle: 'dXNlcg' },
  clientExtensionResults: {},
};

beforeEach(() => {
  browser.startAuthentication.mockReset();
  browser.browserSupportsWebAuthn.mockReturnValue(true);
});

describe('signing in with a passkey', { timeout: 20_000 }, () => {
  it("continues with a passkey without an e-mail: the server's options go to the browser, its answer starts the session", async () => {
    const session = makeSession();
    browser.startAuthentication.mockResolvedValue(ANSWER);
    const api = mockApi({
      'POST /api/auth/passkey/options': () => json(200, OPTIONS),
      'POST /api/auth/passkey/sign-in': () => json(200, session),
      'GET /api/users/me': () => json(200, session.user),
    });
    renderApp('/login', { session: null });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: auth.continueWithPasskey }));
    expect(await screen.findByText(auth.loginSuccessful)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(api.bodiesOf('POST /api/auth/passkey/options')).toEqual([{}]);
    expect(browser.startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    expect(api.bodiesOf('POST /api/auth/passkey/sign-in')).toEqual([{ response: ANSWER }]);
  });

  it("says so when the person cancels the browser's prompt, and when the server refuses the passkey", async () => {
    browser.startAuthentication.mockRejectedValueOnce(
      Object.assign(new Error('The operation either timed out or was not allowed.'), { name: 'NotAllowedError' }),
    );
    const api = mockApi({
      'POST /api/auth/passkey/options': () => json(200, OPTIONS),
      'POST /api/auth/passkey/sign-in': () => apiError(401, 'passkey_refused', DOMAIN_MESSAGES.auth.passkeyRefused),
    });
    renderApp('/login', { session: null });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: auth.continueWithPasskey }));
    expect(await screen.findByText(DOMAIN_MESSAGES.auth.passkeyCancelled)).toBeInTheDocument();
    expect(api.bodiesOf('POST /api/auth/passkey/sign-in')).toEqual([]);

    browser.startAuthentication.mockResolvedValueOnce(ANSWER);
    await user.click(screen.getByRole('button', { name: auth.continueWithPasskey }));
    expect(await screen.findByText(DOMAIN_MESSAGES.auth.passkeyRefused)).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/);
  });

  it('offers "Use a passkey" in the second step when the challenge does, and answers the challenge with it', async () => {
    const session = makeSession();
    browser.startAuthentication.mockResolvedValue(ANSWER);
    const api = mockApi({
      ...PASSWORD_METHOD,
      'POST /api/auth/sign-in': () =>
        json(200, {
          mfa_required: true,
          challenge_token: 'challenge-1',
          expires_at: Math.floor(Date.now() / 1000) + 300,
          methods: ['recovery_code', 'passkey'],
        }),
      'POST /api/auth/passkey/options': () => json(200, { ...OPTIONS, allowCredentials: [{ id: 'cred-1', type: 'public-key' }] }),
      'POST /api/auth/sign-in/second-factor': () => json(200, session),
      'GET /api/users/me': () => json(200, session.user),
    });
    renderApp('/login', { session: null });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'alice@example.test');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.type(await screen.findByLabelText('Password'), 'secret-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    // No app: the code field asks for a recovery code, and a passkey is offered.
    expect(await screen.findByLabelText(auth.recoveryLabel)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: auth.usePasskey }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(api.bodiesOf('POST /api/auth/passkey/options')).toEqual([{ challenge_token: 'challenge-1' }]);
    expect(api.bodiesOf('POST /api/auth/sign-in/second-factor')).toEqual([
      { challenge_token: 'challenge-1', method: 'passkey', response: ANSWER },
    ]);
  });

  it('does not offer a passkey in the second step when the challenge does not', async () => {
    mockApi({
      ...PASSWORD_METHOD,
      'POST /api/auth/sign-in': () =>
        json(200, {
          mfa_required: true,
          challenge_token: 'c',
          expires_at: Math.floor(Date.now() / 1000) + 300,
          methods: ['totp', 'recovery_code'],
        }),
    });
    renderApp('/login', { session: null });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'alice@example.test');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.type(await screen.findByLabelText('Password'), 'secret-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByLabelText(auth.totpLabel)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: auth.usePasskey })).toBeNull();
  });
});
