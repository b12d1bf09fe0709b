import { UI } from '@console/domain';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { PASSWORD_METHOD } from '@/test/identity-data';
import { OWN_ORG } from '@/test/user-data';
import { MESSAGES } from '@/lib/wording';

const m = MESSAGES.invitations;
const OTHER_ORG = '00000000-0000-4000-8000-0000000000bb';

// The login page is a lazy chunk: load it once before the first test's clock starts.
beforeAll(() => Promise.all([import('@/features/auth/pages/login-page'), import('@/features/users/pages/invitation-page')]), 30_000);
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
const question = m.confirmMove('Acme Corporation', 'Tenant Admin', 'Beta Tenant', 'Tenant User');

async function signInWithPendingInvitation(token: string) {
  renderApp(`/login?token=${token}`, { session: null });
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Email'), 'alice@example.test');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  await user.type(await screen.findByLabelText('Password'), 'secret-password');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return user;
}

describe('a pending invitation taken up after sign-in', () => {
  it('asks on the invitation page, not in a toast, saying what is left and joined, and sends the confirmation only on Join', async () => {
    const session = makeSession();
    const refreshed = makeSession({ tokenId: 'second' });
    const api = mockApi({
      ...PASSWORD_METHOD,
      'POST /api/auth/sign-in': () => json(200, session),
      'POST /api/invitations/accept': ({ body }) =>
        (body as { confirm?: boolean }).confirm
          ? json(200, { result: 'accepted', organizationId: OTHER_ORG, organizationName: 'Beta Tenant', role: 'tenant_user' })
          : json(200, confirmation),
      'POST /api/auth/refresh': () => json(200, refreshed),
      'GET /api/users/me': () => json(200, session.user),
    });
    const user = await signInWithPendingInvitation('invite-7');
    expect(await screen.findByRole('heading', { level: 1, name: m.confirmTitle })).toBeInTheDocument();
    expect(screen.getByText(question)).toBeInTheDocument();
    expect(screen.getByText(m.confirmConsequence('Acme Corporation'))).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/invitation?token=invite-7');
    // The question is the page's, with nothing of it in a toast that goes away.
    expect(document.querySelector('[data-sonner-toast]')?.textContent ?? '').not.toContain(question);
    // The person decides before anything moves.
    expect(api.bodiesOf('POST /api/invitations/accept').filter((body) => (body as { confirm?: boolean }).confirm)).toEqual([]);
    expect(sessionStorage.getItem(UI.pendingInvitationKey)).toBe('invite-7');

    await user.click(screen.getByRole('button', { name: m.join }));
    expect(await screen.findByText(MESSAGES.teamPages.acceptSuccessTitle)).toBeInTheDocument();
    expect(api.bodiesOf('POST /api/invitations/accept').at(-1)).toEqual({ token: 'invite-7', confirm: true });
    expect(sessionStorage.getItem(UI.pendingInvitationKey)).toBeNull();
  });

  it('Cancel moves nothing, drops the pending token and says the person stays', async () => {
    const session = makeSession();
    const api = mockApi({
      ...PASSWORD_METHOD,
      'POST /api/auth/sign-in': () => json(200, session),
      'POST /api/invitations/accept': () => json(200, confirmation),
      'GET /api/users/me': () => json(200, session.user),
    });
    const user = await signInWithPendingInvitation('invite-8');
    await screen.findByText(question);
    await user.click(screen.getByRole('button', { name: m.cancel }));
    expect(await screen.findByText(m.declined('Acme Corporation'))).toBeInTheDocument();
    expect(api.bodiesOf('POST /api/invitations/accept').every((body) => !(body as { confirm?: boolean }).confirm)).toBe(true);
    expect(api.callsTo('POST /api/auth/refresh')).toHaveLength(0);
    expect(sessionStorage.getItem(UI.pendingInvitationKey)).toBeNull();
  });
});
