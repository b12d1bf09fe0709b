import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { makeList, makeOrganization } from '@/test/organization-data';

beforeAll(async () => {
  await Promise.all([import('./organizations-admin-page'), import('@/app/shell/app-shell')]);
});

describe('/organizations (house roles)', { timeout: 30_000 }, () => {
  it('lists the children and every descendant, refreshes, and shows the JWT debugger', async () => {
    const user = userEvent.setup();
    const superAgency = makeOrganization({ name: 'Acme Super Agency', org_type: 'super_agency' });
    const agency = makeOrganization({ name: 'Northwind Agency', parent_org_id: superAgency.id });
    const api = mockApi((call) => {
      if (call.path !== '/api/organizations') return undefined;
      return call.query.view === 'children' ? json(200, makeList([superAgency])) : json(200, makeList([superAgency, agency], { total: 2 }));
    });
    renderApp('/organizations', { session: makeSession({ role: 'house_admin', orgType: 'house', orgName: 'The House' }) });

    const children = await screen.findByRole('table', { name: 'Child Organizations' });
    expect(await within(children).findByRole('link', { name: 'Acme Super Agency' })).toHaveAttribute(
      'href',
      `/organizations/${superAgency.id}`,
    );
    const all = screen.getByRole('table', { name: 'All Organizations' });
    expect(await within(all).findByRole('link', { name: 'Northwind Agency' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New Organization' })).toHaveAttribute('href', '/organizations/create');
    expect(api.queriesOf('GET /api/organizations')).toEqual(
      expect.arrayContaining([
        { view: 'children', page: '1', page_size: '50' },
        { view: 'descendants', page: '1', page_size: '50' },
      ]),
    );

    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(api.queriesOf('GET /api/organizations')).toHaveLength(4));

    expect(screen.queryByText('JWT Debugger')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show JWT Debugger' }));
    expect(screen.getByText('JWT Debugger')).toBeInTheDocument();
    expect(screen.getByLabelText('Header')).toHaveTextContent('"alg": "HS256"');
    expect(screen.getByLabelText('Claims')).toHaveTextContent('"org_type": "house"');
    expect(screen.getByLabelText('Normalized claims')).toHaveTextContent('"role": "house_admin"');
    expect(screen.getByLabelText('Normalized claims')).toHaveTextContent('"isHouseRole": true');
    await user.click(screen.getByRole('button', { name: 'Hide JWT Debugger' }));
    expect(screen.queryByText('JWT Debugger')).not.toBeInTheDocument();
  });

  it('pages the All Organizations table on its own', async () => {
    const user = userEvent.setup();
    const api = mockApi((call) => {
      if (call.path !== '/api/organizations') return undefined;
      const page = Number(call.query.page);
      return call.query.view === 'children'
        ? json(200, makeList([makeOrganization({ name: 'Only Child' })]))
        : json(200, makeList([makeOrganization({ name: `Row of page ${page}` })], { total: 75, page, total_pages: 2 }));
    });
    renderApp('/organizations', { session: makeSession({ role: 'house_admin', orgType: 'house' }) });
    const all = await screen.findByRole('region', { name: 'All Organizations' });
    await within(all).findByText('Showing 1 to 50 of 75 organizations');
    await user.click(within(all).getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('link', { name: 'Row of page 2' })).toBeInTheDocument();
    const descendants = api.queriesOf('GET /api/organizations').filter((q) => q.view === 'descendants');
    expect(descendants.at(-1)).toEqual({ view: 'descendants', page: '2', page_size: '50' });
    // The children table stays on its first page.
    expect(api.queriesOf('GET /api/organizations').filter((q) => q.view === 'children')).toEqual([
      { view: 'children', page: '1', page_size: '50' },
    ]);
  });
});
