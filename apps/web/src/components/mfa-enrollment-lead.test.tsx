import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { MESSAGES } from '@/lib/wording';

const w = MESSAGES.mfaPolicy;
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  await Promise.all([
    import('@/features/dashboard/pages/dashboard-page'),
    import('@/features/account/pages/security-page'),
    import('@/app/shell/app-shell'),
  ]);
});
beforeEach(() => sessionStorage.clear());

/** A session whose person must set up a second factor by `deadline`. */
function required(deadline: string) {
  const session = makeSession();
  return { ...session, user: { ...session.user, mfa_enrollment: { required: true as const, deadline } } };
}
const factors = (enrolled: boolean) => ({
  totp: { enrolled, enrolled_at: enrolled ? '2026-01-01T00:00:00Z' : null },
  passkeys: { count: 0 },
  recovery_codes: { left: enrolled ? 10 : 0, created_at: null },
});

describe('the enrollment lead', { timeout: 30_000 }, () => {
  it('within the grace: says how many days are left, leads to Security, and can be put off until the next sign-in', async () => {
    mockApi((call) => (call.path === '/api/account/factors' ? json(200, factors(false)) : undefined));
    const deadline = new Date(Date.now() + 3 * DAY - 60_000).toISOString();
    renderApp('/dashboard', { session: required(deadline) });
    expect(await screen.findByText(/Set up an authenticator app within 3 days/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: w.setUpNow })).toHaveAttribute('href', '/account/security');
    await userEvent.click(screen.getByRole('button', { name: w.later }));
    expect(screen.queryByText(/Set up an authenticator app within/)).not.toBeInTheDocument();
  });

  it('past the grace: every page but Security sends the person there, with the reason', async () => {
    mockApi((call) => (call.path === '/api/account/factors' ? json(200, factors(false)) : undefined));
    renderApp('/dashboard', { session: required(new Date(Date.now() - DAY).toISOString()) });
    expect(await screen.findByText(w.leadOverdue)).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: /Security/ })).toBeInTheDocument();
  });

  it('lifts once the person has a factor, and says nothing to someone the policy does not cover', async () => {
    const api = mockApi((call) => (call.path === '/api/account/factors' ? json(200, factors(true)) : undefined));
    renderApp('/dashboard', { session: required(new Date(Date.now() - DAY).toISOString()) });
    await waitFor(() => expect(api.callsTo('GET /api/account/factors')).toHaveLength(1));
    // The answer arrived: still on the dashboard, no lead.
    await waitFor(() => expect(screen.queryByRole('heading', { level: 1, name: /Security/ })).not.toBeInTheDocument());
    expect(screen.queryByText(w.leadOverdue)).not.toBeInTheDocument();
    expect(screen.queryByText(/Set up an authenticator app within/)).not.toBeInTheDocument();
    cleanup();

    // Nobody covered: not even the factors are asked for.
    const quiet = mockApi(() => undefined);
    renderApp('/dashboard', { session: makeSession() });
    await screen.findByRole('main');
    expect(quiet.callsTo('GET /api/account/factors')).toEqual([]);
  });
});
