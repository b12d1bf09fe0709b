import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { LIVE_REFRESH_MS } from '@/api/live';
import { apiError, goBack, json, makeSession, mockApi, queryClientWithoutRetries, renderApp, setViewportWidth } from '@/test/helpers';
import { makeList, makeListItem, makeOrganization, makeTree, orgId, OWN_ORG_ID } from '@/test/organization-data';
import { MESSAGES } from '../wording';

const superAgencyAdmin = () => makeSession({ role: 'super_agency_admin', orgType: 'super_agency', orgName: 'Own Organization' });

// The page and the shell are lazy chunks; loading them inside the first test would eat its time.
beforeAll(async () => {
  await Promise.all([import('./orgs-list-page'), import('@/app/shell/app-shell')]);
});

// Whole journeys through the page: generous on a busy machine.
describe('/orgs list', { timeout: 30_000 }, () => {
  it('lists the direct children with name link, type, status, balance and agent limit', async () => {
    const child = makeOrganization({ name: 'Northwind Agency', credit_balance: '1234.50', activated_agent_limit: 7, status: 'suspended' });
    const api = mockApi((call) => (call.path === '/api/organizations' ? json(200, makeList([child])) : undefined));
    renderApp('/orgs', { session: superAgencyAdmin() });

    const table = await screen.findByRole('table', { name: 'Child Organizations' });
    const row = await within(table).findByRole('row', { name: /Northwind Agency/ });
    expect(within(row).getByRole('link', { name: 'Northwind Agency' })).toHaveAttribute('href', `/orgs/${child.id}`);
    expect(row).toHaveTextContent('Agency');
    expect(row).toHaveTextContent('suspended');
    expect(row).toHaveTextContent('1,234.50 credits');
    expect(row).toHaveTextContent('7');
    expect(screen.getByText('Showing 1 to 1 of 1 organizations')).toBeInTheDocument();
    expect(screen.getByText('Direct child organizations of Own Organization')).toBeInTheDocument();
    expect(api.queriesOf('GET /api/organizations')).toEqual([{ view: 'children', page: '1', page_size: '50' }]);
  });

  it("follows a child's balance while shown: asked again every LIVE_REFRESH_MS, without a reload", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      let balance = '1234.50';
      const CHILD = orgId();
      const api = mockApi((call) =>
        call.path === '/api/organizations'
          ? json(200, makeList([makeOrganization({ id: CHILD, name: 'Northwind Agency', credit_balance: balance })]))
          : undefined,
      );
      renderApp('/orgs', { session: superAgencyAdmin() });
      const table = await screen.findByRole('table', { name: 'Child Organizations' });
      expect(await within(table).findByRole('row', { name: /Northwind Agency/ })).toHaveTextContent('1,234.50 credits');
      balance = '1100.25';
      await vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS);
      await waitFor(() => expect(within(table).getByRole('row', { name: /Northwind Agency/ })).toHaveTextContent('1,100.25 credits'));
      expect(api.callsTo('GET /api/organizations')).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('marks a child below its low-balance threshold, one at its agent limit and one near it, and filters them by the server', async () => {
    const user = userEvent.setup();
    const low = makeListItem({
      ...makeOrganization({ name: 'Low Agency', credit_balance: '40.00', activated_agent_limit: 10, active_agent_count: 1 }),
      low_balance: true,
    });
    const full = makeListItem({
      ...makeOrganization({ name: 'Full Agency', credit_balance: '300.00', activated_agent_limit: 2, active_agent_count: 2 }),
      agent_limit_standing: 'at',
    });
    const near = makeListItem({
      ...makeOrganization({ name: 'Near Agency', credit_balance: '150.00', activated_agent_limit: 5, active_agent_count: 4 }),
      agent_limit_standing: 'near',
    });
    const api = mockApi((call) => {
      if (call.path !== '/api/organizations') return undefined;
      if (call.query.attention === 'low_balance') return json(200, makeList([low]));
      if (call.query.attention === 'near_limit') return json(200, makeList([full, near]));
      return json(200, makeList([full, low, near]));
    });
    renderApp('/orgs', { session: superAgencyAdmin() });

    const table = await screen.findByRole('table', { name: 'Child Organizations' });
    const lowRow = await within(table).findByRole('row', { name: /Low Agency/ });
    expect(lowRow).toHaveTextContent('40.00 credits');
    expect(lowRow).toHaveTextContent('alert below 100.00');
    expect(within(lowRow).getByText('Low balance')).toBeInTheDocument();
    expect(lowRow).toHaveTextContent('1 of 10 active');
    expect(within(lowRow).queryByText(/limit$/)).toBeNull();
    const fullRow = within(table).getByRole('row', { name: /Full Agency/ });
    expect(fullRow).toHaveTextContent('2 of 2 active');
    expect(within(fullRow).getByText('At limit')).toBeInTheDocument();
    expect(within(fullRow).queryByText('Low balance')).toBeNull();
    const nearRow = within(table).getByRole('row', { name: /Near Agency/ });
    expect(nearRow).toHaveTextContent('4 of 5 active');
    expect(within(nearRow).getByText('Near limit')).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Show'), 'low_balance');
    await waitFor(() =>
      expect(api.queriesOf('GET /api/organizations').at(-1)).toEqual({
        view: 'children',
        attention: 'low_balance',
        page: '1',
        page_size: '50',
      }),
    );
    await waitFor(() => expect(within(table).queryByRole('row', { name: /Full Agency/ })).toBeNull());
    expect(within(table).getByRole('row', { name: /Low Agency/ })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/orgs?attention=low_balance');

    await user.selectOptions(screen.getByLabelText('Show'), 'near_limit');
    await waitFor(() => expect(api.queriesOf('GET /api/organizations').at(-1)).toMatchObject({ attention: 'near_limit' }));
    await within(table).findByRole('row', { name: /Near Agency/ });
    expect(within(table).queryByRole('row', { name: /Low Agency/ })).toBeNull();
    expect(screen.getByRole('option', { name: 'At or near agent limit' })).toBeInTheDocument();
  });

  it("offers a seller's people to show the children with overdue invoices, and the server filters them", async () => {
    const late = makeOrganization({ name: 'Late Agency' });
    const api = mockApi((call) => (call.path === '/api/organizations' ? json(200, makeList([late])) : undefined));
    renderApp('/orgs', { session: superAgencyAdmin() });
    await screen.findByRole('table', { name: 'Child Organizations' });
    await userEvent.setup().selectOptions(screen.getByLabelText('Show'), 'Overdue invoices');
    await waitFor(() => expect(api.queriesOf('GET /api/organizations').at(-1)).toMatchObject({ attention: 'overdue_invoices' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/orgs?attention=overdue_invoices');
  });

  it('shows the agent limit alone, unmarked, where the viewer may not read the agents', async () => {
    const child = makeListItem({ ...makeOrganization({ name: 'Quiet Agency', activated_agent_limit: 7 }), active_agent_count: null });
    mockApi((call) => (call.path === '/api/organizations' ? json(200, makeList([child])) : undefined));
    renderApp('/orgs', { session: superAgencyAdmin() });
    const row = await within(await screen.findByRole('table', { name: 'Child Organizations' })).findByRole('row', { name: /Quiet Agency/ });
    expect(row).not.toHaveTextContent('of 7');
    expect(row).toHaveTextContent('alert below 100.007');
  });

  it('sends the filters, the search, the page and the page size to the server', async () => {
    const user = userEvent.setup();
    // Two rows stand for a page: the figures come from the paging fields.
    const rows = [makeOrganization({ name: 'Agency A' }), makeOrganization({ name: 'Agency B' })];
    const api = mockApi((call) => {
      if (call.path !== '/api/organizations') return undefined;
      const page = Number(call.query.page);
      const pageSize = Number(call.query.page_size);
      return json(200, makeList(rows, { total: 120, page, page_size: pageSize, total_pages: Math.ceil(120 / pageSize) }));
    });
    renderApp('/orgs', { session: superAgencyAdmin() });
    await screen.findByText('Showing 1 to 50 of 120 organizations');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Showing 51 to 100 of 120 organizations');
    expect(api.queriesOf('GET /api/organizations').at(-1)).toMatchObject({ page: '2', page_size: '50' });

    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await screen.findByText('Showing 1 to 50 of 120 organizations');

    await user.selectOptions(screen.getByLabelText('Rows per page'), '25');
    await screen.findByText('Showing 1 to 25 of 120 organizations');
    expect(api.queriesOf('GET /api/organizations').at(-1)).toEqual({ view: 'children', page: '1', page_size: '25' });
    expect(screen.getByRole('option', { name: '100' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(api.queriesOf('GET /api/organizations').at(-1)).toMatchObject({ page: '2' }));

    // A filter goes back to page 1.
    await user.selectOptions(screen.getByLabelText('Status'), 'suspended');
    await waitFor(() =>
      expect(api.queriesOf('GET /api/organizations').at(-1)).toEqual({
        view: 'children',
        status: 'suspended',
        page: '1',
        page_size: '25',
      }),
    );
    await user.selectOptions(screen.getByLabelText('Type'), 'agency');
    await waitFor(() => expect(api.queriesOf('GET /api/organizations').at(-1)).toMatchObject({ status: 'suspended', org_type: 'agency' }));

    const before = api.calls.length;
    await user.type(screen.getByRole('searchbox', { name: 'Search organizations' }), 'north');
    await waitFor(() => expect(api.queriesOf('GET /api/organizations').at(-1)).toMatchObject({ search: 'north', page: '1' }));
    // One request for the word, not one per key.
    expect(api.calls.slice(before).filter((c) => c.path === '/api/organizations')).toHaveLength(1);

    await user.selectOptions(screen.getByLabelText('Status'), 'all');
    await waitFor(() => expect(api.queriesOf('GET /api/organizations').at(-1)).not.toHaveProperty('status'));
    expect(screen.getByTestId('location')).toHaveTextContent('/orgs?page_size=25&org_type=agency&search=north');
  });

  it('shows the last page for a page past it, in place of the address asked for', async () => {
    const rows = Array.from({ length: 5 }, (_, index) => makeOrganization({ name: `Agency ${index + 1}` }));
    const api = mockApi((call) => {
      if (call.path !== '/api/organizations') return undefined;
      const page = Number(call.query.page);
      return json(200, makeList(page === 1 ? rows : [], { total: 5, page, page_size: 50, total_pages: 1 }));
    });
    renderApp('/orgs?page=99', { session: superAgencyAdmin() });

    expect(await screen.findByRole('link', { name: 'Agency 5' })).toBeInTheDocument();
    expect(screen.getByText('Showing 1 to 5 of 5 organizations')).toBeInTheDocument();
    expect(screen.queryByText('No child organizations yet.')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/orgs$/);
    expect(api.queriesOf('GET /api/organizations').map((query) => query.page)).toEqual(['99', '1']);
  });

  it.each(['0', '-2', 'abc'])(
    'reads ?page=%s as the first page, asking the server for page 1 and showing no validation text',
    async (page) => {
      const rows = [makeOrganization({ name: 'Agency 1' })];
      const api = mockApi((call) =>
        call.path === '/api/organizations' ? json(200, makeList(rows, { total: 1, page: 1, page_size: 50, total_pages: 1 })) : undefined,
      );
      renderApp(`/orgs?page=${page}`, { session: superAgencyAdmin() });
      expect(await screen.findByRole('link', { name: 'Agency 1' })).toBeInTheDocument();
      expect(api.queriesOf('GET /api/organizations').map((query) => query.page)).toEqual(['1']);
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    },
  );

  it('adds a history entry for each page, filter and view, so Back restores the list; typing a search replaces its entry', async () => {
    const user = userEvent.setup();
    const rows = [makeOrganization({ name: 'Agency A' })];
    mockApi((call) => {
      if (call.path === '/api/organizations/tree') return json(200, makeTree({}, []));
      if (call.path !== '/api/organizations') return undefined;
      const page = Number(call.query.page);
      return json(200, makeList(rows, { total: 120, page, page_size: 50, total_pages: 3 }));
    });
    renderApp('/orgs', { session: superAgencyAdmin() });
    await screen.findByText('Showing 1 to 50 of 120 organizations');

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Showing 51 to 100 of 120 organizations');
    await user.selectOptions(screen.getByLabelText('Status'), 'suspended');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/orgs?status=suspended'));
    await user.type(screen.getByRole('searchbox', { name: 'Search organizations' }), 'north');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/orgs?status=suspended&search=north'));
    await user.click(screen.getByRole('button', { name: 'Hierarchy' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('mode=hierarchy'));

    goBack();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/orgs\?status=suspended&search=north$/));
    expect(await screen.findByRole('table', { name: 'Child Organizations' })).toBeInTheDocument();
    // The typed search replaced the status's entry, so the next Back is the page before the filter.
    goBack();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/orgs\?page=2$/));
    expect(await screen.findByText('Showing 51 to 100 of 120 organizations')).toBeInTheDocument();
    expect(screen.getByLabelText('Status')).toHaveValue('all');
    goBack();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/orgs$/));
    expect(await screen.findByText('Showing 1 to 50 of 120 organizations')).toBeInTheDocument();
  });

  it('sorts by a column header: aria-sort, the sort in the address and the request, Back restores it', async () => {
    const user = userEvent.setup();
    const api = mockApi((call) =>
      call.path === '/api/organizations' ? json(200, makeList([makeOrganization({ name: 'Agency A' })])) : undefined,
    );
    renderApp('/orgs', { session: superAgencyAdmin() });
    const table = await screen.findByRole('table', { name: 'Child Organizations' });
    const header = (name: string) => within(table).getByRole('columnheader', { name: new RegExp(`^${name}`) });
    expect(header('Name')).toHaveAttribute('aria-sort', 'ascending');
    expect(header('Credit balance')).toHaveAttribute('aria-sort', 'none');

    // Another column starts in its own first order: the largest balance first.
    await user.click(within(header('Credit balance')).getByRole('button'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/orgs\?sort=balance$/));
    await waitFor(() =>
      expect(api.queriesOf('GET /api/organizations').at(-1)).toEqual({
        view: 'children',
        page: '1',
        page_size: '50',
        sort: 'balance',
        order: 'desc',
      }),
    );
    expect(header('Credit balance')).toHaveAttribute('aria-sort', 'descending');
    expect(header('Name')).toHaveAttribute('aria-sort', 'none');

    // The same column again turns the order around.
    await user.click(within(header('Credit balance')).getByRole('button'));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/orgs\?sort=balance&order=asc$/));
    await waitFor(() => expect(api.queriesOf('GET /api/organizations').at(-1)).toMatchObject({ sort: 'balance', order: 'asc' }));
    expect(header('Credit balance')).toHaveAttribute('aria-sort', 'ascending');

    goBack();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/orgs\?sort=balance$/));
    await waitFor(() => expect(header('Credit balance')).toHaveAttribute('aria-sort', 'descending'));
    goBack();
    await waitFor(() => expect(header('Name')).toHaveAttribute('aria-sort', 'ascending'));
  });

  it('shows cards with every value under 768 px, sorted with a select', async () => {
    setViewportWidth(390);
    try {
      const user = userEvent.setup();
      const child = makeOrganization({ name: 'Northwind Agency', credit_balance: '1234.50', activated_agent_limit: 7 });
      const api = mockApi((call) => (call.path === '/api/organizations' ? json(200, makeList([child])) : undefined));
      renderApp('/orgs?sort=created', { session: superAgencyAdmin() });
      const cards = await screen.findByRole('list', { name: 'Child Organizations' });
      expect(screen.queryByRole('table')).not.toBeInTheDocument();
      expect(cards).toHaveTextContent('Credit balance1,234.50 credits');
      expect(cards).toHaveTextContent('Activated agent limit0 of 7 active');
      expect(api.queriesOf('GET /api/organizations')[0]).toMatchObject({ sort: 'created', order: 'desc' });
      const select = screen.getByLabelText('Sort');
      expect(select).toHaveValue('created:desc');
      await user.selectOptions(select, 'limit:asc');
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/orgs\?sort=limit&order=asc$/));
      await waitFor(() => expect(api.queriesOf('GET /api/organizations').at(-1)).toMatchObject({ sort: 'limit', order: 'asc' }));
    } finally {
      setViewportWidth(1280);
    }
  });

  it('offers Retry when the list fails to load, and Retry asks again', async () => {
    let fail = true;
    const api = mockApi((call) =>
      call.path === '/api/organizations'
        ? fail
          ? apiError(503, 'unavailable', 'Service unavailable')
          : json(200, makeList([makeOrganization({ name: 'Back Again Agency' })]))
        : undefined,
    );
    renderApp('/orgs', { session: superAgencyAdmin(), queryClient: queryClientWithoutRetries() });
    expect(await screen.findByText(MESSAGES.organizations.failedToLoad)).toBeInTheDocument();
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('link', { name: 'Back Again Agency' })).toBeInTheDocument();
    expect(api.queriesOf('GET /api/organizations')).toHaveLength(2);
  });

  it('shows Access Denied when the server refuses (403) and does not retry', async () => {
    const api = mockApi((call) =>
      call.path === '/api/organizations' ? apiError(403, 'forbidden', MESSAGES.generic.forbidden) : undefined,
    );
    renderApp('/orgs', { session: makeSession({ role: 'agency_user', orgType: 'agency' }) });
    expect(await screen.findByText(MESSAGES.auth.accessDenied)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.generic.forbidden)).toBeInTheDocument();
    expect(api.queriesOf('GET /api/organizations')).toHaveLength(1);
  });

  it('switches between the table and a hierarchy that expands on demand', async () => {
    const user = userEvent.setup();
    const agency = {
      id: orgId(),
      name: 'Northwind Agency',
      org_type: 'agency' as const,
      status: 'active' as const,
      parent_org_id: OWN_ORG_ID,
      child_count: 2,
    };
    const empty = {
      id: orgId(),
      name: 'Quiet Agency',
      org_type: 'agency' as const,
      status: 'inactive' as const,
      parent_org_id: OWN_ORG_ID,
      child_count: 0,
    };
    const tenant = {
      id: orgId(),
      name: 'Harbor Tenant',
      org_type: 'tenant' as const,
      status: 'active' as const,
      parent_org_id: agency.id,
      child_count: 0,
    };
    const api = mockApi((call) => {
      if (call.path === '/api/organizations') return json(200, makeList([makeOrganization({ name: 'Northwind Agency' })]));
      if (call.path === '/api/organizations/tree') {
        const id = call.query.organization_id;
        if (!id) return json(200, makeTree({ descendant_count: 4 }, [agency, empty]));
        if (id === agency.id) return json(200, makeTree({ ...agency, descendant_count: 2 }, [tenant]));
      }
      return undefined;
    });
    renderApp('/orgs', { session: superAgencyAdmin() });
    await screen.findByRole('table', { name: 'Child Organizations' });
    expect(screen.getByRole('button', { name: 'Table' })).toHaveAttribute('aria-pressed', 'true');

    await user.click(screen.getByRole('button', { name: 'Hierarchy' }));
    const tree = await screen.findByRole('region', { name: 'Organization hierarchy' });
    expect(screen.getByRole('button', { name: 'Hierarchy' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(within(tree).getByText('2 children, 4 descendants')).toBeInTheDocument();
    expect(within(tree).getByRole('link', { name: 'Quiet Agency' })).toHaveAttribute('href', `/orgs/${empty.id}`);
    // Only nodes with children expand; children load only when asked.
    expect(within(tree).queryByRole('button', { name: 'Expand Quiet Agency' })).not.toBeInTheDocument();
    expect(api.queriesOf('GET /api/organizations/tree')).toEqual([{}]);

    const expand = within(tree).getByRole('button', { name: 'Expand Northwind Agency' });
    expect(expand).toHaveAttribute('aria-expanded', 'false');
    await user.click(expand);
    expect(await within(tree).findByRole('link', { name: 'Harbor Tenant' })).toHaveAttribute('href', `/orgs/${tenant.id}`);
    expect(within(tree).getByRole('button', { name: 'Collapse Northwind Agency' })).toHaveAttribute('aria-expanded', 'true');
    // A child's row is indented one level further than its parent's, the name beside the chevron.
    const childRow = within(tree).getByRole('link', { name: 'Harbor Tenant' }).closest<HTMLElement>('[data-depth]')!;
    expect(childRow).toHaveAttribute('data-depth', '1');
    expect(childRow.style.paddingLeft).toBe('1.5rem');
    expect(within(tree).getByRole('link', { name: 'Northwind Agency' }).closest('[data-depth]')).toHaveAttribute('data-depth', '0');
    expect(api.queriesOf('GET /api/organizations/tree')).toEqual([{}, { organization_id: agency.id }]);
    expect(screen.getByTestId('location')).toHaveTextContent('/orgs?mode=hierarchy');

    await user.click(screen.getByRole('button', { name: 'Table' }));
    expect(await screen.findByRole('table', { name: 'Child Organizations' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Organization hierarchy' })).not.toBeInTheDocument();
  });

  it('warns an agency admin whose agency has no children, and offers New Organization', async () => {
    mockApi((call) => (call.path === '/api/organizations' ? json(200, makeList([])) : undefined));
    renderApp('/orgs', { session: makeSession({ role: 'agency_admin', orgType: 'agency' }) });
    expect(await screen.findByText('No child organizations')).toBeInTheDocument();
    expect(screen.getByText('No child organizations yet.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New Organization' })).toHaveAttribute('href', '/orgs/create');
  });

  it('offers New Organization only to roles that may create, in types that have children', async () => {
    mockApi((call) => (call.path === '/api/organizations' ? json(200, makeList([])) : undefined));
    const { unmount } = renderApp('/orgs', { session: makeSession({ role: 'agency_manager', orgType: 'agency' }) });
    await screen.findByText('No child organizations yet.');
    expect(screen.queryByRole('link', { name: 'New Organization' })).not.toBeInTheDocument();
    // The warning is for agency admins only.
    expect(screen.queryByText('No child organizations')).not.toBeInTheDocument();
    unmount();

    renderApp('/orgs', { session: makeSession({ role: 'tenant_admin', orgType: 'tenant' }) });
    await screen.findByText('No child organizations yet.');
    expect(screen.queryByRole('link', { name: 'New Organization' })).not.toBeInTheDocument();
  });
});
