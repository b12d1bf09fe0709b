import { INVITATION_RETRY } from '@console/domain';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '@/lib/reload';
import { apiError, json, makeSession, mockApi, renderApp, type ApiCall } from '@/test/helpers';
import { makeInvitation, page } from '@/test/user-data';
import { MESSAGES } from '../wording';

/** The page reload, replaced: jsdom cannot reload. */
const reloadPage = vi.spyOn(browser, 'reload').mockImplementation(() => {});
beforeEach(() => {
  reloadPage.mockClear();
});

const m = MESSAGES.invitations;
const MAX = INVITATION_RETRY.maxAttempts;
const unavailable = () => apiError(503, 'unavailable', 'The service is unavailable. Try again shortly.');

// The page is a lazy chunk: load it once before the first test's clock starts.
beforeAll(() => Promise.all([import('@/features/users/pages/team-page'), import('@/app/shell/app-shell')]), 30_000);

/**
 * The Team page on its Pending Invitations tab; the list (page_size 50) answers with
 * `answer`, called with the number of the attempt (1, 2, ...). Everything else loads.
 */
function teamWithInvitations(answer: (attempt: number) => Response | Promise<Response>, { newAccount }: { newAccount: boolean }) {
  const session = makeSession({ role: 'tenant_admin' });
  if (newAccount) session.user.created_at = new Date(Date.now() - 60_000).toISOString();
  let attempts = 0;
  const api = mockApi((call: ApiCall) => {
    if (call.path === '/api/users/me') return json(200, session.user);
    if (call.path === '/api/users') return page('users', []);
    if (call.path === '/api/invitations') {
      return call.query.page_size === '1' ? page('invitations', [], { pageSize: 1 }) : answer(++attempts);
    }
    return undefined;
  });
  renderApp('/team?tab=invitations', { session });
  return { listCalls: () => api.calls.filter((c) => c.path === '/api/invitations' && c.query.page_size !== '1').length };
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
/** The real clock's setTimeout, kept before any test fakes it: module loading and fetches still need real turns. */
const realSetTimeout = globalThis.setTimeout;

describe('invitations list: first-login setup screen', { timeout: 30_000 }, () => {
  it('retries on its own behind the setup screen, counts attempts, offers Refresh Page after 3 and says it is slow after 5', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const list = teamWithInvitations(unavailable, { newAccount: true });
    const setup = await screen.findByRole('region', { name: m.setupTitle });
    expect(within(setup).getByText(m.attempt(1, MAX))).toBeInTheDocument();
    expect(within(setup).getByRole('progressbar')).toBeInTheDocument();
    expect(within(setup).getByRole('button', { name: m.manualRetry })).toBeEnabled();
    expect(within(setup).queryByRole('button', { name: m.refreshPage })).not.toBeInTheDocument();
    expect(within(setup).queryByText(m.slow)).not.toBeInTheDocument();

    // 100 ms, then 200 ms: the third attempt fails too.
    await advance(100);
    await waitFor(() => expect(within(setup).getByText(m.attempt(2, MAX))).toBeInTheDocument());
    await advance(200);
    await waitFor(() => expect(within(setup).getByText(m.attempt(3, MAX))).toBeInTheDocument());
    expect(within(setup).getByRole('button', { name: m.refreshPage })).toBeInTheDocument();
    expect(within(setup).queryByText(m.slow)).not.toBeInTheDocument();

    await advance(400);
    await waitFor(() => expect(within(setup).getByText(m.attempt(4, MAX))).toBeInTheDocument());
    await advance(800);
    await waitFor(() => expect(within(setup).getByText(m.attempt(5, MAX))).toBeInTheDocument());
    expect(within(setup).getByText(m.slow)).toBeInTheDocument();

    await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).click(within(setup).getByRole('button', { name: m.refreshPage }));
    expect(reloadPage).toHaveBeenCalledTimes(1);

    // 1.6 s, 3.2 s, 6.4 s: the eighth attempt ends the series on the error screen.
    await advance(1600);
    await waitFor(() => expect(list.listCalls()).toBe(6));
    await advance(3200);
    await waitFor(() => expect(list.listCalls()).toBe(7));
    await advance(6400);
    expect(await screen.findByText(m.errorTitle)).toBeInTheDocument();
    expect(list.listCalls()).toBe(MAX);
    expect(screen.getByText(m.autoRetryStopped(MAX))).toBeInTheDocument();
    // Nothing more on its own.
    await advance(30_000);
    expect(list.listCalls()).toBe(MAX);
  });

  it('shows the invitations as soon as an attempt succeeds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const list = teamWithInvitations(
      (attempt) => (attempt < 3 ? unavailable() : page('invitations', [makeInvitation({ email: 'late@example.test' })], { pageSize: 50 })),
      {
        newAccount: true,
      },
    );
    await screen.findByRole('region', { name: m.setupTitle });
    await advance(100);
    await advance(200);
    expect(await screen.findByText('late@example.test')).toBeInTheDocument();
    expect(screen.queryByText(m.setupTitle)).not.toBeInTheDocument();
    expect(list.listCalls()).toBe(3);
  });

  it('Manual Retry loads at once, and is offered five times', async () => {
    // The clock stands still here (each step moves it 1 ms), so no automatic attempt comes between the clicks.
    vi.useFakeTimers();
    const list = teamWithInvitations(unavailable, { newAccount: true });
    const step = async <T,>(until: () => T | null | false, steps = 200): Promise<T> => {
      for (let i = 0; i < steps; i++) {
        const found = until();
        if (found) return found;
        await act(async () => {
          await new Promise((resolve) => realSetTimeout(resolve, 5));
          await vi.advanceTimersByTimeAsync(1);
        });
      }
      throw new Error(`not reached while the clock stood still: ${list.listCalls()} calls; ${document.body.textContent?.slice(0, 600)}`);
    };
    const setup = await step(() => screen.queryByRole('region', { name: m.setupTitle }));
    for (let n = 1; n <= INVITATION_RETRY.maxManual; n++) {
      fireEvent.click(within(setup).getByRole('button', { name: m.manualRetry }));
      // The same screen stays while the attempt runs (no loading rows in between).
      expect(screen.queryByTestId('invitation-skeleton')).not.toBeInTheDocument();
      await step(() => within(setup).queryByText(m.attempt(n + 1, MAX)), 20);
      expect(setup).toBeInTheDocument();
      expect(list.listCalls()).toBe(n + 1);
    }
    const spent = within(setup).getByRole('button', { name: m.manualRetry });
    expect(spent).toBeDisabled();
    expect(spent).toHaveAccessibleDescription(m.manualRetriesUsed);
    fireEvent.click(spent);
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(list.listCalls()).toBe(INVITATION_RETRY.maxManual + 1);
  });
});

describe('invitations list: error screen', { timeout: 30_000 }, () => {
  it('shows Error loading invitations at once for an older account, with the reason and the troubleshooting steps', async () => {
    const list = teamWithInvitations(unavailable, { newAccount: false });
    expect(await screen.findByText(m.errorTitle)).toBeInTheDocument();
    expect(screen.getByText('The service is unavailable. Try again shortly.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: m.troubleshootingTitle })).toBeInTheDocument();
    for (const step of m.troubleshooting) expect(screen.getByText(step)).toBeInTheDocument();
    expect(screen.queryByText(m.setupTitle)).not.toBeInTheDocument();
    expect(list.listCalls()).toBe(1);
  });

  it('Retry Once loads once more; Refresh Page reloads', async () => {
    const list = teamWithInvitations(
      (attempt) => (attempt < 3 ? unavailable() : page('invitations', [makeInvitation({ email: 'back@example.test' })], { pageSize: 50 })),
      {
        newAccount: false,
      },
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: m.retryOnce }));
    await waitFor(() => expect(list.listCalls()).toBe(2));
    expect(await screen.findByText(m.errorTitle)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: m.refreshPage }));
    expect(reloadPage).toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: m.retryOnce }));
    expect(await screen.findByText('back@example.test')).toBeInTheDocument();
    expect(list.listCalls()).toBe(3);
  });

  it('Auto Retry tries again on its own, 2 s then 3 s apart, saying which attempt it is at, until one succeeds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const list = teamWithInvitations(
      (attempt) => (attempt < 4 ? unavailable() : page('invitations', [makeInvitation({ email: 'auto@example.test' })], { pageSize: 50 })),
      {
        newAccount: false,
      },
    );
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    await user.click(await screen.findByRole('button', { name: m.autoRetry }));
    // The first attempt of the series runs at once and fails.
    expect(await screen.findByText(m.autoRetrying(1, MAX))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: m.autoRetry })).toBeDisabled();
    expect(list.listCalls()).toBe(2);
    await advance(1900);
    expect(list.listCalls()).toBe(2);
    await advance(100);
    await waitFor(() => expect(list.listCalls()).toBe(3));
    expect(await screen.findByText(m.autoRetrying(2, MAX))).toBeInTheDocument();
    await advance(3000);
    expect(await screen.findByText('auto@example.test')).toBeInTheDocument();
    expect(list.listCalls()).toBe(4);
  });

  it('a refusal is not retried: Access Denied with the reason, no retry buttons', async () => {
    const list = teamWithInvitations(() => apiError(403, 'forbidden', 'You may not list these invitations.'), { newAccount: true });
    expect(await screen.findByText(MESSAGES.auth.accessDenied)).toBeInTheDocument();
    expect(screen.queryByText(m.setupTitle)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: m.retryOnce })).not.toBeInTheDocument();
    expect(list.listCalls()).toBe(1);
  });
});
