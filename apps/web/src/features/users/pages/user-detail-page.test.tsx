import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiError, crumbsOf, json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { makeOrganization, orgId } from '@/test/organization-data';
import { makeUser, OWN_ORG, SELF_ID } from '@/test/user-data';
import { MESSAGES } from '../wording';

const t = MESSAGES.teamPages;

// The pages are lazy chunks: load them once before the first test's clock starts.
beforeAll(() => Promise.all([import('./user-detail-page'), import('./edit-user-page'), import('@/app/shell/app-shell')]), 30_000);

describe('user detail page', { timeout: 20_000 }, () => {
  it('shows the fields with the role as every screen writes it (Tenant Manager), N/A for no last login and the organization link', async () => {
    const person = makeUser({
      first_name: 'Dana',
      last_name: 'Detail',
      role: 'tenant_manager',
      last_login_at: null,
      created_at: '2024-01-05T15:04:00',
    });
    mockApi({ [`GET /api/users/${person.id}`]: () => json(200, { user: person }) });
    renderApp(`/users/${person.id}`, { session: makeSession() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Dana Detail' })).toBeInTheDocument();
    // The text itself, not a style, capitalizes it: the same words in sentences and selects.
    expect(screen.getByText('Tenant Manager')).not.toHaveClass('capitalize');
    expect(screen.getByText('N/A')).toBeInTheDocument();
    expect(screen.getByText('Jan 5, 2024 3:04 PM')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: t.viewOrganization })).toHaveAttribute('href', `/orgs/${OWN_ORG}`);
    expect(screen.getByRole('link', { name: t.editProfile })).toHaveAttribute('href', `/users/${person.id}/edit`);
  });

  it('shows the reason when the user cannot be loaded', async () => {
    // An id of the right form that names nobody: the server's 404 (a malformed one is its 400).
    const missing = '00000000-0000-4000-9000-00000000dead';
    mockApi({ [`GET /api/users/${missing}`]: () => apiError(404, 'not_found', MESSAGES.users.notFound) });
    renderApp(`/users/${missing}`, { session: makeSession() });
    expect(await screen.findAllByText(MESSAGES.users.notFound)).not.toHaveLength(0);
  });
});

describe('user detail breadcrumbs', { timeout: 20_000 }, () => {
  const superAgencyAdmin = () => makeSession({ role: 'super_agency_admin', orgType: 'super_agency', orgName: 'Own Organization' });
  const organizationCalls = (api: ReturnType<typeof mockApi>) => api.calls.filter((call) => call.path.startsWith('/api/organizations'));
  const childId = orgId();
  const grandchild = makeOrganization({
    id: orgId(),
    name: 'Grandchild Tenant',
    org_type: 'tenant',
    parent_org_id: childId,
    ancestors: [
      { id: OWN_ORG, name: 'Own Organization' },
      { id: childId, name: 'Child Agency' },
    ],
  });
  const inGrandchild = () =>
    makeUser({
      first_name: 'Dana',
      last_name: 'Descendant',
      role: 'tenant_user',
      organization_id: grandchild.id,
      organization: { id: grandchild.id, name: grandchild.name, org_type: 'tenant', status: 'active' },
    });

  it("lead from the viewer's own organization down to the person's, each organization a link, then the person", async () => {
    const person = inGrandchild();
    const api = mockApi({
      [`GET /api/users/${person.id}`]: () => json(200, { user: person }),
      [`GET /api/organizations/${grandchild.id}`]: () => json(200, { organization: grandchild }),
    });
    renderApp(`/users/${person.id}`, { session: superAgencyAdmin() });
    const trail = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(crumbsOf(trail)).toEqual(['Own Organization', 'Child Agency', 'Grandchild Tenant', 'Dana Descendant']);
    expect(within(trail).getByRole('link', { name: 'Own Organization' })).toHaveAttribute('href', `/orgs/${OWN_ORG}`);
    expect(within(trail).getByRole('link', { name: 'Child Agency' })).toHaveAttribute('href', `/orgs/${childId}`);
    expect(within(trail).getByRole('link', { name: 'Grandchild Tenant' })).toHaveAttribute('href', `/orgs/${grandchild.id}`);
    expect(within(trail).queryByRole('link', { name: 'Dana Descendant' })).not.toBeInTheDocument();
    // The person is the page itself, with the full name in a title should it be truncated.
    expect(within(trail).getByText('Dana Descendant')).toHaveAttribute('aria-current', 'page');
    expect(within(trail).getByText('Dana Descendant')).toHaveAttribute('title', 'Dana Descendant');
    // One read of the organization, shared with what the page decides its actions by.
    expect(organizationCalls(api).map((call) => call.path)).toEqual([`/api/organizations/${grandchild.id}`]);
  });

  it("show the viewer's own organization and the person, without reading the organization, for a colleague", async () => {
    const person = makeUser({
      first_name: 'Colin',
      last_name: 'Colleague',
      role: 'super_agency_user',
      organization_id: OWN_ORG,
      organization: { id: OWN_ORG, name: 'Own Organization', org_type: 'super_agency', status: 'active' },
    });
    const api = mockApi({ [`GET /api/users/${person.id}`]: () => json(200, { user: person }) });
    renderApp(`/users/${person.id}`, { session: superAgencyAdmin() });
    const trail = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(crumbsOf(trail)).toEqual(['Own Organization', 'Colin Colleague']);
    expect(within(trail).getByRole('link', { name: 'Own Organization' })).toHaveAttribute('href', `/orgs/${OWN_ORG}`);
    expect(organizationCalls(api)).toEqual([]);
  });

  it('ask nothing and show no trail when the viewer may not read the organization', async () => {
    const person = inGrandchild();
    const api = mockApi({ [`GET /api/users/${person.id}`]: () => json(200, { user: person }) });
    // A user-level role reads people but no organization but their own.
    renderApp(`/users/${person.id}`, { session: makeSession({ role: 'super_agency_user', orgType: 'super_agency' }) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Dana Descendant' })).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('navigation', { name: 'Breadcrumb' })).not.toBeInTheDocument();
    expect(organizationCalls(api)).toEqual([]);
  });

  it('show no trail, and no error, when the organization cannot be read', async () => {
    const person = inGrandchild();
    const api = mockApi({
      [`GET /api/users/${person.id}`]: () => json(200, { user: person }),
      [`GET /api/organizations/${grandchild.id}`]: () => apiError(404, 'not_found', 'Organization not found'),
    });
    renderApp(`/users/${person.id}`, { session: superAgencyAdmin() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Dana Descendant' })).toBeInTheDocument();
    await waitFor(() => expect(organizationCalls(api)).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByRole('navigation', { name: 'Breadcrumb' })).not.toBeInTheDocument();
    expect(screen.queryByText('Organization not found')).not.toBeInTheDocument();
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

  it('offers no form, as it offers no Edit link, for someone the viewer may not edit: a user-level viewer and another person', async () => {
    const person = makeUser({ first_name: 'Eve', last_name: 'Other', role: 'tenant_user' });
    const api = mockApi({ [`GET /api/users/${person.id}`]: () => json(200, { user: person }) });
    renderApp(`/users/${person.id}/edit`, { session: makeSession({ role: 'tenant_user' }) });
    expect(await screen.findByText(t.editNotAllowed)).toBeInTheDocument();
    expect(screen.queryByLabelText('First name')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save changes' })).not.toBeInTheDocument();
    expect(api.calls.filter((call) => call.method !== 'GET')).toEqual([]);
  });

  it('offers no form to a manager for an admin, who outranks them', async () => {
    const person = makeUser({ first_name: 'Ada', last_name: 'Admin', role: 'tenant_admin' });
    mockApi({ [`GET /api/users/${person.id}`]: () => json(200, { user: person }) });
    renderApp(`/users/${person.id}/edit`, { session: makeSession({ role: 'tenant_manager' }) });
    expect(await screen.findByText(t.editNotAllowed)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save changes' })).not.toBeInTheDocument();
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
