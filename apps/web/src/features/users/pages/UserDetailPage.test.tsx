import { MESSAGES } from '@console/domain';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiError, json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { makeUser, OWN_ORG, SELF_ID } from '@/test/user-data';

const t = MESSAGES.teamPages;

// The pages are lazy chunks: load them once before the first test's clock starts.
beforeAll(() => Promise.all([import('./UserDetailPage'), import('./EditUserPage'), import('@/app/shell/AppShell')]), 30_000);

describe('user detail page', { timeout: 20_000 }, () => {
  it('shows the fields with the role spaced, N/A for no last login and the organization link', async () => {
    const person = makeUser({ first_name: 'Dana', last_name: 'Detail', role: 'tenant_manager', last_login_at: null, created_at: '2024-01-05T15:04:00' });
    mockApi({ [`GET /api/users/${person.id}`]: () => json(200, { user: person }) });
    renderApp(`/users/${person.id}`, { session: makeSession() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Dana Detail' })).toBeInTheDocument();
    expect(screen.getByText('tenant manager')).toBeInTheDocument();
    expect(screen.getByText('N/A')).toBeInTheDocument();
    expect(screen.getByText('Jan 5, 2024 3:04 PM')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: t.viewOrganization })).toHaveAttribute('href', `/orgs/${OWN_ORG}`);
    expect(screen.getByRole('link', { name: t.editProfile })).toHaveAttribute('href', `/users/${person.id}/edit`);
  });

  it('shows the reason when the user cannot be loaded', async () => {
    mockApi({ 'GET /api/users/missing': () => apiError(404, 'not_found', MESSAGES.users.notFound) });
    renderApp('/users/missing', { session: makeSession() });
    expect(await screen.findAllByText(MESSAGES.users.notFound)).not.toHaveLength(0);
  });
});

describe('edit user page', { timeout: 20_000 }, () => {
  it('lets an admin change names, status and role of another user', async () => {
    const person = makeUser({ first_name: 'Eve', last_name: 'Editable', role: 'tenant_user', status: 'active' });
    const api = mockApi({
      [`GET /api/users/${person.id}`]: () => json(200, { user: person }),
      [`PATCH /api/users/${person.id}`]: ({ body }) => json(200, { user: { ...person, ...(body as object) } }),
      [`PUT /api/users/${person.id}/role`]: ({ body }) => json(200, { user: { ...person, ...(body as object) } }),
    });
    renderApp(`/users/${person.id}/edit`, { session: makeSession({ role: 'tenant_admin' }) });
    const user = userEvent.setup();
    const first = await screen.findByLabelText('First name');
    await user.clear(first);
    await user.type(first, 'Evelyn');
    await user.selectOptions(screen.getByLabelText('Status'), 'inactive');
    await user.selectOptions(screen.getByLabelText('Role'), 'tenant_manager');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(t.userUpdated)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/users/${person.id}`));
    expect(api.bodiesOf(`PATCH /api/users/${person.id}`)).toEqual([
      { first_name: 'Evelyn', last_name: 'Editable', preferred_locale: 'en', status: 'inactive' },
    ]);
    expect(api.callsTo(`PUT /api/users/${person.id}/role`)).toHaveLength(1);
  });

  it('edits oneself through /api/users/me without status or role, and shows the server refusal', async () => {
    const me = makeUser({ id: SELF_ID, first_name: 'Alice', last_name: 'Self', role: 'tenant_admin' });
    mockApi({
      [`GET /api/users/${SELF_ID}`]: () => json(200, { user: me }),
      'PATCH /api/users/me': () => apiError(422, 'validation', 'Use a locale such as en or en-US.'),
    });
    renderApp(`/users/${SELF_ID}/edit`, { session: makeSession({ role: 'tenant_admin' }) });
    const user = userEvent.setup();
    await screen.findByLabelText('First name');
    expect(screen.queryByLabelText('Status')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Role')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText(t.updateFailed)).toBeInTheDocument();
    expect(screen.getAllByText('Use a locale such as en or en-US.').length).toBeGreaterThan(0);
  });
});
