import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiError, json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { makeOrganization, orgId } from '@/test/organization-data';
import { makeUser, OWN_ORG, SELF_ID } from '@/test/user-data';
import { MESSAGES } from '../wording';

const u = MESSAGES.users;

// The pages are lazy chunks: load them once before the first test's clock starts.
beforeAll(() => Promise.all([import('./user-detail-page'), import('@/app/shell/app-shell')]), 30_000);

/** A tenant person whose organization's parent is `parent`, as a super agency admin reads it. */
function personBelow(parent: string) {
  const tenant = makeOrganization({ id: orgId(), name: 'Some Tenant', org_type: 'tenant', parent_org_id: parent });
  const person = makeUser({
    first_name: 'Dana',
    last_name: 'Far',
    role: 'tenant_user',
    organization_id: tenant.id,
    organization: { id: tenant.id, name: tenant.name, org_type: 'tenant', status: 'active' },
  });
  return { tenant, person };
}
const superAgencyAdmin = () => makeSession({ role: 'super_agency_admin', orgType: 'super_agency', orgName: 'Own Organization' });

describe('user detail page: Reset second factors', { timeout: 20_000 }, () => {
  it('resets after a confirmation that says what happens, then says it is done', async () => {
    const person = makeUser({ first_name: 'Dana', last_name: 'Detail', role: 'tenant_user' });
    const api = mockApi({
      [`GET /api/users/${person.id}`]: () => json(200, { user: person }),
      [`POST /api/users/${person.id}/factors/reset`]: () => json(200, { totp: true, passkeys: 1, recovery_codes: 10, ended: 2 }),
    });
    renderApp(`/users/${person.id}`, { session: makeSession({ role: 'tenant_admin' }) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: u.resetFactors }));
    const dialog = await screen.findByRole('alertdialog', { name: u.resetFactorsTitle });
    expect(dialog).toHaveTextContent(u.resetFactorsConfirm('Dana Detail'));
    expect(api.callsTo(`POST /api/users/${person.id}/factors/reset`)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: u.resetFactors }));
    expect(await screen.findByText(u.factorsReset('Dana Detail'))).toBeInTheDocument();
    expect(api.callsTo(`POST /api/users/${person.id}/factors/reset`)).toHaveLength(1);
  });

  it('cancelling sends nothing; a refusal is said', async () => {
    const person = makeUser({ role: 'tenant_user' });
    const api = mockApi({
      [`GET /api/users/${person.id}`]: () => json(200, { user: person }),
      [`POST /api/users/${person.id}/factors/reset`]: () => apiError(403, 'forbidden', MESSAGES.generic.forbidden),
    });
    renderApp(`/users/${person.id}`, { session: makeSession({ role: 'tenant_admin' }) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: u.resetFactors }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo(`POST /api/users/${person.id}/factors/reset`)).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: u.resetFactors }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: u.resetFactors }));
    expect(await screen.findByText(u.resetFactorsFailed)).toBeInTheDocument();
  });

  it('is offered, with End all sessions, to an admin one level up and to one two levels up (any organization above)', async () => {
    const child = personBelow(OWN_ORG);
    mockApi({
      [`GET /api/users/${child.person.id}`]: () => json(200, { user: child.person }),
      [`GET /api/organizations/${child.tenant.id}`]: () => json(200, { organization: child.tenant }),
    });
    const first = renderApp(`/users/${child.person.id}`, { session: superAgencyAdmin() });
    expect(await screen.findByRole('button', { name: u.resetFactors })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: u.endSessions })).toBeInTheDocument();
    first.unmount();

    const far = personBelow(orgId());
    mockApi({
      [`GET /api/users/${far.person.id}`]: () => json(200, { user: far.person }),
      [`GET /api/organizations/${far.tenant.id}`]: () => json(200, { organization: far.tenant }),
    });
    renderApp(`/users/${far.person.id}`, { session: superAgencyAdmin() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Dana Far' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: u.resetFactors })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: u.endSessions })).toBeInTheDocument();
  });

  it.each([
    ['a manager (no users.delete)', () => makeUser({ role: 'tenant_user' }), 'tenant_manager'],
    ['an admin looking at themselves', () => makeUser({ id: SELF_ID, role: 'tenant_admin' }), 'tenant_admin'],
  ])('is not offered to %s', async (_, makePerson, role) => {
    const person = makePerson();
    mockApi({ [`GET /api/users/${person.id}`]: () => json(200, { user: person }) });
    renderApp(`/users/${person.id}`, { session: makeSession({ role }) });
    expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: u.resetFactors })).not.toBeInTheDocument();
  });
});
