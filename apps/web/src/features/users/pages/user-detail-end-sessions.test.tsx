import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiError, json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { makeUser, SELF_ID } from '@/test/user-data';
import { MESSAGES } from '../wording';

const u = MESSAGES.users;

// The pages are lazy chunks: load them once before the first test's clock starts.
beforeAll(() => Promise.all([import('./user-detail-page'), import('@/app/shell/app-shell')]), 30_000);

describe('user detail page: End all sessions', { timeout: 20_000 }, () => {
  it('lets an admin end every session of a person of their organization, after a confirmation, and says how many ended', async () => {
    const person = makeUser({ first_name: 'Dana', last_name: 'Detail', role: 'tenant_user' });
    const api = mockApi({
      [`GET /api/users/${person.id}`]: () => json(200, { user: person }),
      [`POST /api/users/${person.id}/sessions/end`]: () => json(200, { ended: 3 }),
    });
    renderApp(`/users/${person.id}`, { session: makeSession({ role: 'tenant_admin' }) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: u.endSessions }));
    const dialog = await screen.findByRole('alertdialog', { name: u.endSessionsTitle });
    expect(dialog).toHaveTextContent(u.endSessionsConfirm('Dana Detail'));
    expect(api.callsTo(`POST /api/users/${person.id}/sessions/end`)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: u.endSessions }));
    expect(await screen.findByText(u.sessionsEnded(3))).toBeInTheDocument();
    expect(api.callsTo(`POST /api/users/${person.id}/sessions/end`)).toHaveLength(1);
  });

  it('says why when the server refuses', async () => {
    const person = makeUser({ role: 'tenant_user' });
    mockApi({
      [`GET /api/users/${person.id}`]: () => json(200, { user: person }),
      [`POST /api/users/${person.id}/sessions/end`]: () => apiError(403, 'forbidden', MESSAGES.generic.forbidden),
    });
    renderApp(`/users/${person.id}`, { session: makeSession({ role: 'tenant_admin' }) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: u.endSessions }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: u.endSessions }));
    expect(await screen.findByText(u.endSessionsFailed)).toBeInTheDocument();
  });

  it.each([
    ['a manager (no users.delete)', () => makeUser({ role: 'tenant_user' }), 'tenant_manager'],
    ['an admin looking at themselves', () => makeUser({ id: SELF_ID, role: 'tenant_admin' }), 'tenant_admin'],
    [
      'an admin looking at a person of an organization outside their reach',
      () => makeUser({ role: 'tenant_user', organization_id: '00000000-0000-4000-8000-0000000000ff' }),
      'tenant_admin',
    ],
  ])('is not offered to %s', async (_, makePerson, role) => {
    const person = makePerson();
    mockApi({ [`GET /api/users/${person.id}`]: () => json(200, { user: person }) });
    renderApp(`/users/${person.id}`, { session: makeSession({ role }) });
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: u.endSessions })).not.toBeInTheDocument();
  });
});
