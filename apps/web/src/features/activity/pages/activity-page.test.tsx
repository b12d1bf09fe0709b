import type { ActivityEvent, ActivityPage } from '@console/domain';
import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  crumbsOf,
  json,
  makeSession,
  mockApi as mockRoutes,
  OWN_ORG_ID,
  renderApp,
  setViewportWidth,
  type ApiRoutes,
} from '@/test/helpers';
import { makeList, makeOrganization } from '@/test/organization-data';

const ACTIVITY = 'GET /api/activity';
const CHILD_ID = '00000000-0000-4000-8000-0000000000c1';
const ANA_ID = '00000000-0000-4000-8000-0000000000f1';
const child = makeOrganization({ id: CHILD_ID, name: 'Acme Dental', org_type: 'agency' });
const mockApi = (routes: ApiRoutes) =>
  mockRoutes({
    'GET /api/organizations': () => json(200, makeList([child])),
    [`GET /api/organizations/${CHILD_ID}`]: () => json(200, { organization: child }),
    ...routes,
  });

let n = 0;
function event(overrides: Partial<ActivityEvent> = {}): ActivityEvent {
  n += 1;
  return {
    id: String(n),
    created_at: '2024-01-05T15:04:00.000Z',
    action: 'credits.allocate',
    actor: { kind: 'user', id: ANA_ID, name: 'Ana Ruiz', email: 'ana@example.test' },
    sentence: 'Ana Ruiz allocated 500.00 credits to Acme Dental',
    organization: { id: CHILD_ID, name: 'Northwind' },
    target_type: 'organization',
    target_id: CHILD_ID,
    ip: '203.0.113.7',
    details: {},
    ...overrides,
  };
}
const pageOf = (events: ActivityEvent[], next: string | null = null): ActivityPage => ({ events, next_cursor: next });
const admin = () => makeSession({ role: 'agency_admin', orgType: 'agency', orgName: 'Northwind' });

describe('activity page', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    configure({ asyncUtilTimeout: 15_000 });
    await Promise.all([import('./activity-page'), import('@/app/shell/app-shell')]);
  }, 60_000);
  afterEach(() => setViewportWidth(1024));

  it('shows when, who, what, the organization and the address in a table, and is in the navigation', async () => {
    setViewportWidth(1024);
    const { queriesOf } = mockApi({
      [ACTIVITY]: () =>
        json(
          200,
          pageOf([
            event(),
            event({
              actor: { kind: 'api_key', id: null, name: 'ci-runner', email: null },
              sentence: 'Key ci-runner reported 1,000 usage events (10.00 credits)',
            }),
          ]),
        ),
    });
    renderApp('/activity', { session: admin() });
    const table = await screen.findByRole('table', { name: 'Activity' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['When', 'Who', 'What', 'Organization', 'Address']);
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(within(first!).getByText('Ana Ruiz allocated 500.00 credits to Acme Dental')).toBeInTheDocument();
    expect(within(first!).getByText('ana@example.test')).toBeInTheDocument();
    expect(within(first!).getByText('203.0.113.7')).toBeInTheDocument();
    expect(within(second!).getByText('Key ci-runner')).toBeInTheDocument();
    expect(queriesOf(ACTIVITY)[0]).toEqual({ limit: '50' });
    expect(screen.getAllByRole('link', { name: 'Activity' }).length).toBeGreaterThan(0);
  });

  it('shows cards below 768 px', async () => {
    setViewportWidth(500);
    mockApi({ [ACTIVITY]: () => json(200, pageOf([event()])) });
    renderApp('/activity', { session: admin() });
    const list = await screen.findByRole('list', { name: 'Activity' });
    expect(within(list).getByText('Ana Ruiz allocated 500.00 credits to Acme Dental')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Activity' })).not.toBeInTheDocument();
  });

  it('keeps every filter in the URL and sends it: organization alone, person, action', async () => {
    setViewportWidth(1024);
    const { queriesOf } = mockApi({ [ACTIVITY]: () => json(200, pageOf([event()])) });
    renderApp('/activity', { session: admin() });
    await screen.findByRole('table', { name: 'Activity' });
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Organization' }), CHILD_ID);
    await userEvent.click(screen.getByRole('switch', { name: 'Include organizations below' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Action' }), 'credits.allocate');
    await userEvent.click(screen.getByRole('button', { name: 'Ana Ruiz' }));
    await waitFor(() =>
      expect(queriesOf(ACTIVITY).at(-1)).toEqual({
        organization_id: CHILD_ID,
        include_subtree: 'false',
        actor_user_id: ANA_ID,
        action: 'credits.allocate',
        limit: '50',
      }),
    );
    expect(screen.getByText('Person: Ana Ruiz')).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(`org=${CHILD_ID}`);
    await userEvent.click(screen.getByRole('button', { name: 'Show everyone' }));
    // The same filters were loaded before the person was chosen: served from the cache.
    await waitFor(() => expect(screen.getByTestId('location')).not.toHaveTextContent('actor='));
    expect(screen.queryByText('Person: Ana Ruiz')).not.toBeInTheDocument();
  });

  it('loads more with the cursor of the previous page', async () => {
    setViewportWidth(1024);
    const { queriesOf } = mockApi({
      [ACTIVITY]: (call) => json(200, call.query.cursor ? pageOf([event({ sentence: 'Older event' })]) : pageOf([event()], '41')),
    });
    renderApp('/activity', { session: admin() });
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Older event')).toBeInTheDocument();
    expect(queriesOf(ACTIVITY)[1]).toEqual({ cursor: '41', limit: '50' });
  });

  it('exports the CSV of the current filters', async () => {
    setViewportWidth(1024);
    const { queriesOf } = mockApi({
      [ACTIVITY]: () => json(200, pageOf([event()])),
      'GET /api/activity/export': () =>
        new Response('created_at\r\n', {
          status: 200,
          headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="activity-2024-01-05.csv"' },
        }),
    });
    URL.createObjectURL = () => 'blob:x';
    URL.revokeObjectURL = () => {};
    renderApp('/activity?action=auth.sign_in', { session: admin() });
    await screen.findByRole('table', { name: 'Activity' });
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(queriesOf('GET /api/activity/export')[0]).toEqual({ action: 'auth.sign_in' }));
  });

  it("lead down to the chosen organization, each organization a link, then the page, and not on the viewer's own", async () => {
    setViewportWidth(1024);
    const tenant = makeOrganization({
      id: '00000000-0000-4000-8000-0000000000c3',
      name: 'Tenant of Acme Dental',
      org_type: 'tenant',
      parent_org_id: CHILD_ID,
      ancestors: [
        { id: OWN_ORG_ID, name: 'Northwind' },
        { id: CHILD_ID, name: 'Acme Dental' },
      ],
    });
    const { callsTo } = mockApi({
      [ACTIVITY]: () => json(200, pageOf([event()])),
      [`GET /api/organizations/${tenant.id}`]: () => json(200, { organization: tenant }),
    });
    const view = renderApp(`/activity?org=${tenant.id}`, { session: admin() });
    const trail = await screen.findByRole('navigation', { name: 'Breadcrumb' });
    expect(crumbsOf(trail)).toEqual(['Northwind', 'Acme Dental', 'Tenant of Acme Dental', 'Activity']);
    expect(within(trail).getByRole('link', { name: 'Northwind' })).toHaveAttribute('href', `/orgs/${OWN_ORG_ID}`);
    expect(within(trail).getByRole('link', { name: 'Acme Dental' })).toHaveAttribute('href', `/orgs/${CHILD_ID}`);
    expect(within(trail).getByRole('link', { name: 'Tenant of Acme Dental' })).toHaveAttribute('href', `/orgs/${tenant.id}`);
    expect(within(trail).queryByRole('link', { name: 'Activity' })).not.toBeInTheDocument();
    expect(callsTo(`GET /api/organizations/${tenant.id}`)).toHaveLength(1);
    view.unmount();

    renderApp('/activity', { session: admin() });
    await screen.findByRole('table', { name: 'Activity' });
    expect(screen.queryByRole('navigation', { name: 'Breadcrumb' })).not.toBeInTheDocument();
  });

  it('is not offered to a manager: no menu item, and the address leads to the dashboard', async () => {
    mockApi({ 'GET /api/dashboard': () => json(500, {}) });
    renderApp('/activity', { session: makeSession({ role: 'agency_manager', orgType: 'agency' }) });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(screen.queryByRole('link', { name: 'Activity' })).not.toBeInTheDocument();
  });
});
