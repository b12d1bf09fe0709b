import { LIMITS } from '@console/domain';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '@/lib/session-store';
import { apiError, json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { MESSAGES } from '../wording';

const RECOVERY_URL = '/update-password#access_token=reset-token-1&type=recovery';

async function fillPasswords(password: string, confirm: string) {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText(MESSAGES.authPages.newPassword), password);
  await user.type(screen.getByLabelText(MESSAGES.authPages.confirmPassword), confirm);
  await user.click(screen.getByRole('button', { name: 'Update password' }));
}

describe('update password page', () => {
  it('shows the Invalid Link card when the hash has no type=recovery', async () => {
    renderApp('/update-password#access_token=abc', { session: null });
    expect(await screen.findByRole('heading', { name: MESSAGES.authPages.invalidLinkTitle })).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.auth.invalidResetLink)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: MESSAGES.authPages.requestNewResetLink })).toHaveAttribute('href', '/reset-password');
    expect(screen.queryByLabelText(MESSAGES.authPages.newPassword)).not.toBeInTheDocument();
  });

  it('shows both password fields with a minimum length for a recovery link', async () => {
    renderApp(RECOVERY_URL, { session: null });
    for (const label of [MESSAGES.authPages.newPassword, MESSAGES.authPages.confirmPassword]) {
      expect(await screen.findByLabelText(label)).toHaveAttribute('minLength', String(LIMITS.passwordMin));
    }
  });

  it('refuses short and mismatching passwords without calling the server', async () => {
    const api = mockApi({});
    renderApp(RECOVERY_URL, { session: null });
    await fillPasswords('short', 'short');
    expect(await screen.findByText(MESSAGES.auth.passwordTooShort)).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText(MESSAGES.authPages.newPassword));
    await userEvent.clear(screen.getByLabelText(MESSAGES.authPages.confirmPassword));
    await fillPasswords('long-enough-1', 'long-enough-2');
    expect(await screen.findByText(MESSAGES.auth.passwordsDoNotMatch)).toBeInTheDocument();
    expect(api.fetch).not.toHaveBeenCalled();
  });

  it('sends the token with the new password, signs out locally and goes to /login', async () => {
    const api = mockApi({ 'POST /api/auth/password': () => json(200, { ok: true }) });
    renderApp(RECOVERY_URL, { session: makeSession() });
    await fillPasswords('new-password-1', 'new-password-1');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    expect(api.bodiesOf('POST /api/auth/password')).toEqual([{ password: 'new-password-1', token: 'reset-token-1' }]);
    expect(await screen.findByText(MESSAGES.auth.passwordUpdatedTitle)).toBeInTheDocument();
    expect(sessionStore.get().status).toBe('signed-out');
  });

  it('shows the server error on the page', async () => {
    mockApi({
      'POST /api/auth/password': () => apiError(400, 'bad_request', MESSAGES.auth.invalidResetLink),
    });
    renderApp(RECOVERY_URL, { session: null });
    await fillPasswords('new-password-1', 'new-password-1');
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.auth.invalidResetLink);
    expect(screen.getByTestId('location')).toHaveTextContent('/update-password');
  });

  describe('signed in, without a reset link', () => {
    async function fillChange(current: string, password: string, confirm = password) {
      const user = userEvent.setup();
      if (current) await user.type(await screen.findByLabelText(MESSAGES.authPages.currentPassword), current);
      await user.type(await screen.findByLabelText(MESSAGES.authPages.newPassword), password);
      await user.type(screen.getByLabelText(MESSAGES.authPages.confirmPassword), confirm);
      await user.click(screen.getByRole('button', { name: MESSAGES.authPages.changePassword }));
    }

    it('asks for the current password with the new one, and keeps this session', async () => {
      const api = mockApi((call) => (call.path === '/api/auth/password' ? json(200, { ok: true }) : undefined));
      renderApp('/update-password', { session: makeSession() });
      expect(await screen.findByRole('heading', { name: MESSAGES.authPages.changePassword })).toBeInTheDocument();
      expect(screen.getByLabelText(MESSAGES.authPages.currentPassword)).toHaveAttribute('autocomplete', 'current-password');
      await fillChange('old-password-1', 'new-password-1');
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
      expect(api.bodiesOf('POST /api/auth/password')).toEqual([{ current_password: 'old-password-1', password: 'new-password-1' }]);
      expect(sessionStore.get().status).toBe('signed-in');
    });

    it('refuses an empty current password without calling the server', async () => {
      const api = mockApi({});
      renderApp('/update-password', { session: makeSession() });
      await fillChange('', 'new-password-1');
      expect(await screen.findByText(MESSAGES.auth.currentPasswordRequired)).toBeInTheDocument();
      expect(api.fetch).not.toHaveBeenCalled();
    });

    it('shows a wrong current password under its field and stays on the page', async () => {
      mockApi({
        'POST /api/auth/password': () =>
          json(400, {
            error: {
              code: 'validation_failed',
              message: MESSAGES.auth.currentPasswordWrong,
              fields: { current_password: MESSAGES.auth.currentPasswordWrong },
            },
          }),
      });
      renderApp('/update-password', { session: makeSession() });
      await fillChange('not-my-password', 'new-password-1');
      const field = screen.getByLabelText(MESSAGES.authPages.currentPassword);
      await waitFor(() => expect(field).toHaveAccessibleDescription(MESSAGES.auth.currentPasswordWrong));
      expect(screen.getByTestId('location')).toHaveTextContent('/update-password');
      expect(sessionStore.get().status).toBe('signed-in');
    });
  });
});
