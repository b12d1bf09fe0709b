import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime } from '@/lib/dates';
import { apiError, goBack, json, makeSession, mockApi, queryClientWithoutRetries, renderApp, setViewportWidth } from '@/test/helpers';
import { makeInvitation, makeUser, page } from '@/test/user-data';
import { MESSAGES } from '../wording';

const t = MESSAGES.teamPages;
const HOUR = 3600 * 1000;

/** Counts by status for the stat cards (page_size=1) and one page of members. */
function teamApi(invitations: ReturnType<typeof makeInvitation>[], extra: Parameters<typeof mockApi>[0] = {}) {
  const counts: Record<string, number> = { all: 12, active: 9, inactive: 3 };
  return mockApi({
    'GET /api/users': ({ url }) =>
      url.searchParams.get('page_size') === '1'
        ? page('users', [makeUser()], { pageSize: 1, total: counts[url.searchParams.get('status') ?? 'all']! })
        : page('users', [makeUser()]),
    'GET /api/invitations': ({ url }) =>
      url.searchParams.get('page_size') === '1'
        ? page('invitations', invitations.slice(0, 1), { pageSize: 1, total: invitations.length })
        : page('invitations', invitations, { pageSize: 50 }),
    ...extra,
  });
}

async function openInvitationsTab(user = userEvent.setup()) {
  await user.click(await screen.findByRole('tab', { name: t.tabInvitations }));
  return user;
}

// The page is a lazy chunk: load it once before the first test's clock starts.
beforeAll(() => Promise.all([import('./team-page'), import('@/app/shell/app-shell')]), 30_000);

describe('team page', { timeout: 20_000 }, () => {
  it('shows the four counts from the servers totals and Invite Team Member for admins', async () => {
    const api = teamApi([makeInvitation(), makeInvitation()]);
    renderApp('/team', { session: makeSession({ role: 'tenant_admin' }) });
    expect(await screen.findByLabelText(`${t.statTotal}: 12`)).toBeInTheDocument();
    expect(await screen.findByLabelText(`${t.statActive}: 9`)).toBeInTheDocument();
    expect(await screen.findByLabelText(`${t.statInactive}: 3`)).toBeInTheDocument();
    expect(await screen.findByLabelText(`${t.statPending}: 2`)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: t.inviteTeamMember })).toHaveAttribute('href', '/users/create');
    const statuses = api
      .queriesOf('GET /api/users')
      .filter((query) => query.page_size === '1')
      .map((query) => query.status ?? null);
    expect(statuses.sort()).toEqual(['active', 'inactive', null].sort());
  });

  it('shows Invite Team Member to managers, who may invite, and hides it from users and support staff', async () => {
    teamApi([]);
    const view = renderApp('/team', { session: makeSession({ role: 'tenant_manager' }) });
    await screen.findByLabelText(`${t.statTotal}: 12`);
    expect(screen.getByRole('link', { name: t.inviteTeamMember })).toBeInTheDocument();
    view.unmount();

    teamApi([]);
    renderApp('/team', { session: makeSession({ role: 'agency_support', orgType: 'agency' }) });
    await screen.findByLabelText(`${t.statTotal}: 12`);
    expect(screen.queryByRole('link', { name: t.inviteTeamMember })).not.toBeInTheDocument();
  });
});

describe('invitations table', { timeout: 20_000 }, () => {
  it('shows 5 skeleton rows while loading', async () => {
    mockApi({
      'GET /api/users': () => page('users', []),
      'GET /api/invitations': () => new Promise<Response>(() => {}),
    });
    renderApp('/team', { session: makeSession() });
    await openInvitationsTab();
    expect(await screen.findAllByTestId('invitation-skeleton')).toHaveLength(5);
  });

  it('offers Retry on a count that failed to load, which asks again; a refused count offers none', async () => {
    let inactiveFails = true;
    const api = mockApi({
      'GET /api/users': ({ url }) => {
        const status = url.searchParams.get('status');
        if (url.searchParams.get('page_size') !== '1') return page('users', [makeUser()]);
        if (status === 'inactive' && inactiveFails) return apiError(503, 'unavailable', 'Service unavailable');
        if (status === 'active') return apiError(403, 'forbidden', MESSAGES.generic.forbidden);
        return page('users', [makeUser()], { pageSize: 1, total: status === 'inactive' ? 3 : 12 });
      },
      'GET /api/invitations': () => page('invitations', [], { pageSize: 1 }),
    });
    renderApp('/team', { session: makeSession({ role: 'tenant_admin' }), queryClient: queryClientWithoutRetries() });
    const retry = await screen.findByRole('button', { name: `Retry ${t.statInactive}` });
    expect(screen.queryByRole('button', { name: `Retry ${t.statActive}` })).not.toBeInTheDocument();
    const asked = () => api.queriesOf('GET /api/users').filter((query) => query.page_size === '1' && query.status === 'inactive').length;
    expect(asked()).toBe(1);
    inactiveFails = false;
    await userEvent.setup().click(retry);
    expect(await screen.findByLabelText(`${t.statInactive}: 3`)).toBeInTheDocument();
    expect(asked()).toBe(2);
  });

  it('keeps the tab in the address, so Back returns to the members', async () => {
    teamApi([makeInvitation()]);
    renderApp('/team', { session: makeSession({ role: 'tenant_admin' }) });
    await openInvitationsTab();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/team\?tab=invitations$/);
    expect(screen.getByRole('tab', { name: t.tabInvitations })).toHaveAttribute('aria-selected', 'true');
    goBack();
    await waitFor(() => expect(screen.getByRole('tab', { name: t.tabMembers })).toHaveAttribute('aria-selected', 'true'));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/team$/);
  });

  it('says how many of how many pending invitations it shows past 50, and pages to the others', async () => {
    const all = Array.from({ length: 120 }, (_, index) => makeInvitation({ email: `person${index + 1}@example.test` }));
    const api = teamApi([], {
      'GET /api/invitations': ({ url }) => {
        const size = Number(url.searchParams.get('page_size'));
        const at = Number(url.searchParams.get('page'));
        return page('invitations', all.slice((at - 1) * size, at * size), { page: at, pageSize: size, total: all.length });
      },
    });
    renderApp('/team', { session: makeSession({ role: 'tenant_admin' }) });
    const user = await openInvitationsTab();
    expect(await screen.findByText('person1@example.test')).toBeInTheDocument();
    expect(screen.getByText(t.invitationsShowing(1, 50, 120))).toHaveTextContent('Showing 1 to 50 of 120 pending invitations');
    expect(screen.getByRole('button', { name: t.previousPage })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: t.nextPage }));
    expect(await screen.findByText('person51@example.test')).toBeInTheDocument();
    expect(screen.getByText(t.invitationsShowing(51, 100, 120))).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: t.nextPage }));
    expect(await screen.findByText('person120@example.test')).toBeInTheDocument();
    expect(screen.getByText(t.invitationsShowing(101, 120, 120))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: t.nextPage })).toBeDisabled();
    expect(
      api.calls.filter((call) => call.path === '/api/invitations' && call.query.page_size === '50').map((call) => call.query.page),
    ).toEqual(['1', '2', '3']);
  });

  it('says nothing of pages when every pending invitation fits on one', async () => {
    teamApi([makeInvitation({ email: 'one@example.test' })]);
    renderApp('/team', { session: makeSession({ role: 'tenant_admin' }) });
    await openInvitationsTab();
    expect(await screen.findByText('one@example.test')).toBeInTheDocument();
    expect(screen.queryByText(/pending invitations$/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: t.nextPage })).not.toBeInTheDocument();
  });

  it('says when there are no pending invitations', async () => {
    teamApi([]);
    renderApp('/team', { session: makeSession() });
    await openInvitationsTab();
    expect(await screen.findByText(MESSAGES.invitations.empty)).toBeInTheDocument();
  });

  it('highlights in amber with a clock an invitation expiring within 24 hours', async () => {
    const soon = makeInvitation({ email: 'soon@example.test', expires_at: new Date(Date.now() + 2 * HOUR).toISOString() });
    const later = makeInvitation({ email: 'later@example.test', expires_at: new Date(Date.now() + 72 * HOUR).toISOString() });
    teamApi([soon, later]);
    renderApp('/team', { session: makeSession() });
    await openInvitationsTab();
    const soonRow = (await screen.findByText('soon@example.test')).closest('tr')!;
    const laterRow = screen.getByText('later@example.test').closest('tr')!;
    expect(soonRow).toHaveClass('bg-amber-50');
    expect(within(soonRow).getByRole('img', { name: t.expiresSoon })).toBeInTheDocument();
    expect(laterRow).not.toHaveClass('bg-amber-50');
    expect(within(laterRow).queryByRole('img', { name: t.expiresSoon })).not.toBeInTheDocument();
    expect(within(soonRow).getByText(/Ivy Invitee/)).toBeInTheDocument();
  });

  it('shows who invited and when the invitation was sent', async () => {
    const named = makeInvitation({ email: 'named@example.test', invited_by_name: 'Ana Ruiz', created_at: '2025-03-04T10:30:00Z' });
    const unknown = makeInvitation({ email: 'unknown@example.test', invited_by: null, invited_by_name: null });
    teamApi([named, unknown]);
    renderApp('/team', { session: makeSession() });
    await openInvitationsTab();
    expect(screen.getByRole('columnheader', { name: 'Invited' })).toBeInTheDocument();
    const namedRow = (await screen.findByText('named@example.test')).closest('tr')!;
    expect(within(namedRow).getByText('by Ana Ruiz')).toBeInTheDocument();
    expect(within(namedRow).getByText(formatDateTime('2025-03-04T10:30:00Z'))).toBeInTheDocument();
    const unknownRow = screen.getByText('unknown@example.test').closest('tr')!;
    expect(within(unknownRow).getByText(t.inviterUnknown)).toBeInTheDocument();
  });

  it('copies a fresh link after a confirmation that warns the mailed link stops working', async () => {
    const invitation = makeInvitation({ email: 'copy@example.test' });
    const link = 'http://console.test/invitation?token=fresh-token';
    teamApi([invitation], {
      [`POST /api/invitations/${invitation.id}/link`]: () => json(200, { invitation, link }),
    });
    renderApp('/team', { session: makeSession() });
    const user = await openInvitationsTab();
    await user.click(await screen.findByRole('button', { name: 'Actions for copy@example.test' }));
    const menu = await screen.findByRole('menu');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual([t.copyLink, t.resend, t.revoke]);
    await user.click(within(menu).getByRole('menuitem', { name: t.copyLink }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent(t.copyLinkWarning);
    await user.click(within(dialog).getByRole('button', { name: 'Create and copy link' }));
    expect(await screen.findByText(MESSAGES.invitations.linkCopied)).toBeInTheDocument();
    expect(screen.getByText(t.linkCopiedNote)).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(link);
  });

  it('resends after confirmation and toasts; a failure toasts the reason', async () => {
    const invitation = makeInvitation({ email: 'again@example.test' });
    let fail = false;
    teamApi([invitation], {
      [`POST /api/invitations/${invitation.id}/resend`]: () =>
        fail ? json(422, { error: { code: 'rule', message: MESSAGES.invitations.revoked } }) : json(200, { invitation }),
    });
    renderApp('/team', { session: makeSession() });
    const user = await openInvitationsTab();
    async function resend() {
      await user.click(await screen.findByRole('button', { name: 'Actions for again@example.test' }));
      await user.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: t.resend }));
      const dialog = await screen.findByRole('alertdialog');
      expect(dialog).toHaveTextContent(t.resendConfirm('again@example.test'));
      await user.click(within(dialog).getByRole('button', { name: 'Resend' }));
    }
    await resend();
    expect(await screen.findByText(MESSAGES.invitations.resent)).toBeInTheDocument();
    fail = true;
    await resend();
    expect(await screen.findByText(MESSAGES.invitations.resendFailed)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.invitations.revoked)).toBeInTheDocument();
  });

  it('shows no actions to non-admins', async () => {
    teamApi([makeInvitation({ email: 'quiet@example.test' })]);
    renderApp('/team', { session: makeSession({ role: 'tenant_manager' }) });
    await openInvitationsTab();
    await screen.findByText('quiet@example.test');
    expect(screen.queryByRole('button', { name: 'Actions for quiet@example.test' })).not.toBeInTheDocument();
  });
});

describe('team page at 390 px', { timeout: 20_000 }, () => {
  it('shows each member as a card with its role, status and actions, and no table', async () => {
    setViewportWidth(390);
    teamApi([], {
      'GET /api/users': ({ url }) =>
        url.searchParams.get('page_size') === '1'
          ? page('users', [makeUser()], { pageSize: 1, total: 1 })
          : page('users', [makeUser({ first_name: 'Wide', last_name: 'Card', email: 'card@example.test', role: 'tenant_manager' })]),
    });
    renderApp('/team', { session: makeSession() });
    const list = await screen.findByRole('list', { name: t.usersTitle });
    const card = within(list).getByRole('listitem');
    expect(within(card).getByText('Wide Card')).toHaveAttribute('title', 'Wide Card');
    expect(within(card).getByText('Role')).toBeInTheDocument();
    expect(within(card).getByText('Tenant Manager')).toBeInTheDocument();
    expect(within(card).getByText('Status')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'View Wide Card' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows each pending invitation as a card with its role, dates, status and actions menu', async () => {
    setViewportWidth(390);
    teamApi([makeInvitation({ email: 'stacked@example.test', invited_by_name: 'Ana Ruiz' })]);
    renderApp('/team', { session: makeSession() });
    await openInvitationsTab();
    const list = await screen.findByRole('list', { name: t.tabInvitations });
    const card = within(list).getByRole('listitem');
    expect(within(card).getByText('stacked@example.test')).toBeInTheDocument();
    for (const label of ['Role', 'Invited', 'Expires', 'Status']) expect(within(card).getByText(label)).toBeInTheDocument();
    expect(within(card).getByText('by Ana Ruiz')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Actions for stacked@example.test' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});
