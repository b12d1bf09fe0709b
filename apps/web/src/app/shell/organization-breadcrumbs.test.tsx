import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { crumbsOf, json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { makeList, makeOrganization, orgId, OWN_ORG_ID } from '@/test/organization-data';
import { MESSAGES } from '@/lib/wording';

const superAgencyAdmin = () => makeSession({ role: 'super_agency_admin', orgType: 'super_agency', orgName: 'Own Organization' });

beforeAll(async () => {
  await Promise.all([
    import('@/features/organizations/pages/organization-detail-page'),
    import('@/features/organizations/pages/edit-organization-page'),
    import('./app-shell'),
  ]);
}, 30_000);

/** The organizations the API answers, each by id, and empty lists for the detail page's cards. */
function organizationsApi(...organizations: ReturnType<typeof makeOrganization>[]) {
  return mockApi((call) => {
    const found = organizations.find((organization) => call.path === `/api/organizations/${organization.id}`);
    if (found) return json(200, { organization: found });
    if (call.path === '/api/organizations') return json(200, makeList([]));
    if (call.path === '/api/users') return json(200, { users: [], pagination: { page: 1, page_size: 5, total: 0, total_pages: 0 } });
    return undefined;
  });
}

describe('organization breadcrumbs', { timeout: 30_000 }, () => {
  const own = makeOrganization({ id: OWN_ORG_ID, name: 'Own Organization', org_type: 'super_agency', parent_org_id: null });
  const child = makeOrganization({
    id: orgId(),
    name: 'Child Agency',
    parent_org_id: OWN_ORG_ID,
    ancestors: [{ id: OWN_ORG_ID, name: 'Own Organization' }],
  });
  const grandchild = makeOrganization({
    id: orgId(),
    name: 'Grandchild Tenant',
    org_type: 'tenant',
    parent_org_id: child.id,
    ancestors: [
      { id: OWN_ORG_ID, name: 'Own Organization' },
      { id: child.id, name: 'Child Agency' },
    ],
  });

  it("lead from the viewer's own organization down to a grandchild, each step a link but the page itself", async () => {
    organizationsApi(own, child, grandchild);
    renderApp(`/orgs/${grandchild.id}`, { session: superAgencyAdmin() });
    const trail = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(crumbsOf(trail)).toEqual(['Own Organization', 'Child Agency', 'Grandchild Tenant']);
    expect(within(trail).getByRole('link', { name: 'Own Organization' })).toHaveAttribute('href', `/orgs/${OWN_ORG_ID}`);
    expect(within(trail).getByRole('link', { name: 'Child Agency' })).toHaveAttribute('href', `/orgs/${child.id}`);
    expect(within(trail).queryByRole('link', { name: 'Grandchild Tenant' })).not.toBeInTheDocument();
    expect(within(trail).getByText('Grandchild Tenant')).toHaveAttribute('aria-current', 'page');

    // A step up opens that organization, with its shorter trail.
    await userEvent.setup().click(within(trail).getByRole('link', { name: 'Child Agency' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/orgs/${child.id}`));
    await waitFor(() =>
      expect(crumbsOf(screen.getByRole('navigation', { name: 'Breadcrumb' }))).toEqual(['Own Organization', 'Child Agency']),
    );
  });

  it('end with the page under the organization, the organization then a link', async () => {
    organizationsApi(grandchild);
    renderApp(`/organizations/${grandchild.id}/edit`, { session: makeSession({ role: 'house_admin', orgType: 'house' }) });
    const trail = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(crumbsOf(trail)).toEqual(['Own Organization', 'Child Agency', 'Grandchild Tenant', MESSAGES.shell.pageTitles.editOrganization]);
    expect(within(trail).getByRole('link', { name: 'Grandchild Tenant' })).toHaveAttribute('href', `/organizations/${grandchild.id}`);
  });

  it("show nothing on the viewer's own organization's page, which has nothing above it", async () => {
    organizationsApi(own);
    renderApp(`/orgs/${OWN_ORG_ID}`, { session: superAgencyAdmin() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Own Organization' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Breadcrumb' })).not.toBeInTheDocument();
    // The navigation marks My Organization, not Organizations.
    const main = screen.getByRole('navigation', { name: 'Main' });
    expect(within(main).getByRole('link', { name: MESSAGES.shell.nav.myOrganization })).toHaveAttribute('aria-current', 'page');
    expect(within(main).getByRole('link', { name: MESSAGES.shell.nav.organizations })).not.toHaveAttribute('aria-current');
  });
});
