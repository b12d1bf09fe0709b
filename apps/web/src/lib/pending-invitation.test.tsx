import { UI } from '@console/domain';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { OWN_ORG } from '@/test/user-data';
import { MESSAGES } from '@/lib/wording';

const m = MESSAGES.invitations;
const OTHER_ORG = '00000000-0000-4000-8000-0000000000bb';

// The login page is a lazy chunk: load it once before the first test's clock starts.
beforeAll(() => import('@/features/auth/pages/login-page'), 30_000);
// A press on a toast's button starts sonner's swipe tracking, which captures the pointer: jsdom has no pointer capture.
beforeAll(() => {
  Element.prototype.setPointerCapture ??= () => {};
});

const confirmation = {
  result: 'requires_confirmation',
  requiresConfirmation: true,
  email: 'alice@example.test',
  invitationId: '00000000-0000-4000-8000-0000000000ee',
  from: { organizationId: OWN_ORG, organizationName: 'Acme Corporation', role: 'tenant_admin' },
  to: { organizationId: OTHER_ORG, organizationName: 'Beta Tenant', role: 'tenant_user' },
};
const question = m.confirmMove('Acme Corporation', 'tenant admin', 'Beta Tenant', 'tenant user');

async function signInWithPendingInvitation(token: string) {
  renderApp(`/login?token=${token}`, { session: null });
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Email'), 'alice@example.test');
  await user.type(screen.getByLabelText('Password'), 'secret-password');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return user;
}

describe('a pending invitation taken up after sign-in', () => {
  it('asks before moving, naming both sides, and sends the confirmation only on Join', async () => {
    const session = makeSession();
    const refreshed = makeSession({ tokenId: 'second' });
    const api = mockApi({
      'POST /api/auth/sign-in': () => json(200, session),
      'POST /api/invitations/accept': ({ body }) =>
        (body as { confirm?: boolean }).confirm
          ? json(200, { result: 'accepted', organizationId: OTHER_ORG, organizationName: 'Beta Tenant', role: 'tenant_user' })
          : json(200, confirmation),
      'POST /api/auth/refresh': () => json(200, refreshed),
      'GET /api/users/me': () => json(200, session.user),
    });
    const user = await signInWithPendingInvitation('invite-7');
    expect(await screen.findByText(question)).toBeInTheDocument();
    expect(api.bodiesOf('POST /api/invitations/accept')).toEqual([{ token: 'invite-7' }]);
    // The person decides before anything moves or the page goes on.
    expect(screen.getByTestId('location')).toHaveTextContent('/login');

    await user.click(screen.getByRole('button', { name: m.join }));
    expect(await screen.findByText(MESSAGES.invitationToasts.accepted)).toBeInTheDocument();
    expect(api.bodiesOf('POST /api/invitations/accept')).toEqual([{ token: 'invite-7' }, { token: 'invite-7', confirm: true }]);
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(sessionStorage.getItem(UI.pendingInvitationKey)).toBeNull();
  });

  it('Cancel moves nothing, drops the pending token and goes on', async () => {
    const session = makeSession();
    const api = mockApi({
      'POST /api/auth/sign-in': () => json(200, session),
      'POST /api/invitations/accept': () => json(200, confirmation),
      'GET /api/users/me': () => json(200, session.user),
    });
    const user = await signInWithPendingInvitation('invite-8');
    await screen.findByText(question);
    await user.click(screen.getByRole('button', { name: m.cancel }));
    expect(await screen.findByText(m.declined('Acme Corporation'))).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(api.bodiesOf('POST /api/invitations/accept')).toEqual([{ token: 'invite-8' }]);
    expect(api.callsTo('POST /api/auth/refresh')).toHaveLength(0);
    expect(sessionStorage.getItem(UI.pendingInvitationKey)).toBeNull();
  });
});
