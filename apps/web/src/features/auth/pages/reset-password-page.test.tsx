import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi, renderApp } from '@/test/helpers';
import { MESSAGES } from '../wording';

async function requestLink() {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Email'), 'alice@example.test');
  await user.click(screen.getByRole('button', { name: MESSAGES.authPages.sendResetLink }));
}

describe('reset password page', () => {
  it('links back to the login', async () => {
    renderApp('/reset-password', { session: null });
    expect(await screen.findByRole('link', { name: MESSAGES.authPages.backToLogin })).toHaveAttribute('href', '/login');
  });

  it('sends the e-mail, then shows the generic answer and a toast', async () => {
    const api = mockApi({
      'POST /api/auth/recover': () => json(200, { message: MESSAGES.auth.resetSent }),
    });
    renderApp('/reset-password', { session: null });
    await requestLink();
    expect(await screen.findByText(MESSAGES.auth.resetSentTitle, { selector: '[data-title]' })).toBeInTheDocument();
    expect(screen.getAllByText(MESSAGES.auth.resetSent).length).toBeGreaterThan(0);
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();
    expect(api.bodiesOf('POST /api/auth/recover')).toEqual([{ email: 'alice@example.test' }]);
  });

  it('shows a refusal from the server', async () => {
    mockApi({
      'POST /api/auth/recover': () => apiError(429, 'rate_limited', MESSAGES.auth.tooManyAttempts),
    });
    renderApp('/reset-password', { session: null });
    await requestLink();
    expect(await screen.findByRole('alert')).toHaveTextContent(MESSAGES.auth.tooManyAttempts);
  });
});
