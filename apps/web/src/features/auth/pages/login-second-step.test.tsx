import { MESSAGES as DOMAIN_MESSAGES, type MfaChallenge } from '@console/domain';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiError, json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { PASSWORD_METHOD } from '@/test/identity-data';
import { MESSAGES } from '../wording';

// Pages are lazy chunks: load the sign-in page and where it leads before the first test's clock starts.
beforeAll(
  () => Promise.all([import('./login-page'), import('@/app/shell/app-shell'), import('@/features/dashboard/pages/dashboard-page')]),
  30_000,
);

const { auth } = MESSAGES;

function challenge(overrides: Partial<MfaChallenge> = {}): MfaChallenge {
  return {
    mfa_required: true,
    challenge_token: 'challenge-1',
    expires_at: Math.floor(Date.now() / 1000) + 300,
    methods: ['totp', 'recovery_code'],
    ...overrides,
  };
}

async function passwordStep(user = userEvent.setup()) {
  await user.type(await screen.findByLabelText('Email'), 'alice@example.test');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await user.type(await screen.findByLabelText('Password'), 'secret-password');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return user;
}

describe('the sign-in second step', () => {
  it('asks for the 6-digit code after a right password, focused, and starts the session with it', async () => {
    const session = makeSession();
    const api = mockApi({
      ...PASSWORD_METHOD,
      'POST /api/auth/sign-in': () => json(200, challenge()),
      'POST /api/auth/sign-in/second-factor': () => json(200, session),
      'GET /api/users/me': () => json(200, session.user),
    });
    renderApp('/login', { session: null });
    const user = await passwordStep();

    const field = await screen.findByLabelText(auth.totpLabel);
    expect(screen.getByText(auth.totpPrompt)).toBeInTheDocument();
    expect(field).toHaveAttribute('autocomplete', 'one-time-code');
    expect(field).toHaveAttribute('inputmode', 'numeric');
    await waitFor(() => expect(field).toHaveFocus());
    // No session yet: the password alone signed nobody in.
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/);

    await user.type(field, '123456');
    await user.click(screen.getByRole('button', { name: auth.verify }));
    expect(await screen.findByText(auth.loginSuccessful)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(api.bodiesOf('POST /api/auth/sign-in/second-factor')).toEqual([
      { challenge_token: 'challenge-1', method: 'totp', code: '123456' },
    ]);
  });

  it('checks the code is six digits before asking the server', async () => {
    const api = mockApi({ ...PASSWORD_METHOD, 'POST /api/auth/sign-in': () => json(200, challenge()) });
    renderApp('/login', { session: null });
    const user = await passwordStep();
    const field = await screen.findByLabelText(auth.totpLabel);
    await user.type(field, '12ab');
    await user.click(screen.getByRole('button', { name: auth.verify }));
    await waitFor(() => expect(field).toHaveAccessibleDescription(DOMAIN_MESSAGES.auth.totpCodeFormat));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST /api/auth/sign-in/second-factor')).toHaveLength(0);
  });

  it('switches to a recovery code and sends it as one', async () => {
    const session = makeSession();
    const api = mockApi({
      ...PASSWORD_METHOD,
      'POST /api/auth/sign-in': () => json(200, challenge()),
      'POST /api/auth/sign-in/second-factor': () => json(200, session),
      'GET /api/users/me': () => json(200, session.user),
    });
    renderApp('/login', { session: null });
    const user = await passwordStep();
    await user.click(await screen.findByRole('button', { name: auth.useRecoveryCode }));
    const field = screen.getByLabelText(auth.recoveryLabel);
    expect(field).not.toHaveAttribute('autocomplete', 'one-time-code');
    expect(screen.getByText(auth.recoveryPrompt)).toBeInTheDocument();
    await waitFor(() => expect(field).toHaveFocus());
    await user.type(field, 'abcd-efgh-ijkl');
    await user.click(screen.getByRole('button', { name: auth.verify }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(api.bodiesOf('POST /api/auth/sign-in/second-factor')).toEqual([
      { challenge_token: 'challenge-1', method: 'recovery_code', code: 'abcd-efgh-ijkl' },
    ]);
  });

  it.each([
    [401, 'unauthorized', DOMAIN_MESSAGES.auth.codeWrong],
    [429, 'rate_limited', DOMAIN_MESSAGES.auth.tooManyAttempts],
  ])('shows the server message of a %s and stays on the step', async (status, code, message) => {
    mockApi({
      ...PASSWORD_METHOD,
      'POST /api/auth/sign-in': () => json(200, challenge()),
      'POST /api/auth/sign-in/second-factor': () => apiError(status, code, message),
    });
    renderApp('/login', { session: null });
    const user = await passwordStep();
    await user.type(await screen.findByLabelText(auth.totpLabel), '000000');
    await user.click(screen.getByRole('button', { name: auth.verify }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(auth.secondStepFailed);
    expect(alert).toHaveTextContent(message);
    expect(screen.getByLabelText(auth.totpLabel)).toHaveValue('');
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/login$/);
  });

  it('returns to the password step, saying why, when the challenge has expired', async () => {
    mockApi({
      ...PASSWORD_METHOD,
      'POST /api/auth/sign-in': () => json(200, challenge()),
      'POST /api/auth/sign-in/second-factor': () => apiError(401, 'challenge_expired', DOMAIN_MESSAGES.auth.challengeExpired),
    });
    renderApp('/login', { session: null });
    const user = await passwordStep();
    await user.type(await screen.findByLabelText(auth.totpLabel), '123456');
    await user.click(screen.getByRole('button', { name: auth.verify }));
    expect(await screen.findByRole('alert')).toHaveTextContent(DOMAIN_MESSAGES.auth.challengeExpired);
    expect(screen.getByLabelText('Email')).toHaveValue('alice@example.test');
    expect(screen.getByLabelText('Password')).toHaveValue('');
    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveFocus());
  });

  it('goes back to the password step by choice, with nothing to explain', async () => {
    mockApi({ ...PASSWORD_METHOD, 'POST /api/auth/sign-in': () => json(200, challenge({ methods: ['totp'] })) });
    renderApp('/login', { session: null });
    const user = await passwordStep();
    await screen.findByLabelText(auth.totpLabel);
    // Without recovery codes there is no other way to offer.
    expect(screen.queryByRole('button', { name: auth.useRecoveryCode })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: auth.backToPassword }));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
