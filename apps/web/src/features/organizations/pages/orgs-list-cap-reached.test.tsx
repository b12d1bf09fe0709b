import { ORG_ATTENTION_LABELS } from '@console/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { json, makeSession, mockApi, renderApp, setViewportWidth } from '@/test/helpers';
import { makeList, makeListItem, makeOrganization } from '@/test/organization-data';

const agencyAdmin = () => makeSession({ role: 'agency_admin', orgType: 'agency', orgName: 'Northwind Digital' });

beforeAll(async () => {
  await Promise.all([import('./orgs-list-page'), import('@/app/shell/app-shell')]);
});

describe('/orgs: a child stopped by its spend cap (issue 46)', { timeout: 30_000 }, () => {
  it('marks the row "Cap reached" with the events refused this month, and the Show filter asks the server for those only', async () => {
    const user = userEvent.setup();
    const harbor = makeListItem({
      ...makeOrganization({ name: 'Harbor Realty', org_type: 'tenant', credit_balance: '938.01' }),
      cap_standing: { reached: true, refused_this_month: 322 },
    });
    const acme = makeListItem({
      ...makeOrganization({ name: 'Acme Dental', org_type: 'tenant', credit_balance: '1200.00' }),
      cap_standing: { reached: false, refused_this_month: 0 },
    });
    const api = mockApi((call) => {
      if (call.path !== '/api/organizations') return undefined;
      return json(200, makeList(call.query.attention === 'cap_reached' ? [harbor] : [acme, harbor]));
    });
    renderApp('/orgs', { session: agencyAdmin() });

    const table = await screen.findByRole('table', { name: 'Child Organizations' });
    const harborRow = await within(table).findByRole('row', { name: /Harbor Realty/ });
    expect(within(harborRow).getByText(ORG_ATTENTION_LABELS.cap_reached)).toBeInTheDocument();
    expect(harborRow).toHaveTextContent('322 refused this month');
    const acmeRow = within(table).getByRole('row', { name: /Acme Dental/ });
    expect(within(acmeRow).queryByText(ORG_ATTENTION_LABELS.cap_reached)).toBeNull();
    expect(acmeRow).not.toHaveTextContent('refused this month');

    await user.selectOptions(screen.getByLabelText('Show'), 'cap_reached');
    await waitFor(() =>
      expect(api.queriesOf('GET /api/organizations').at(-1)).toEqual({
        view: 'children',
        attention: 'cap_reached',
        page: '1',
        page_size: '50',
      }),
    );
    expect(screen.getByTestId('location')).toHaveTextContent('/orgs?attention=cap_reached');
    await waitFor(() => expect(within(table).queryByRole('row', { name: /Acme Dental/ })).toBeNull());
    expect(within(table).getByRole('row', { name: /Harbor Realty/ })).toHaveTextContent(ORG_ATTENTION_LABELS.cap_reached);
  });

  it('shows the marker on a narrow screen, where each row is a card', async () => {
    setViewportWidth(390);
    try {
      const harbor = makeListItem({
        ...makeOrganization({ name: 'Harbor Realty', org_type: 'tenant' }),
        cap_standing: { reached: true, refused_this_month: 1 },
      });
      mockApi((call) => (call.path === '/api/organizations' ? json(200, makeList([harbor])) : undefined));
      renderApp('/orgs', { session: agencyAdmin() });
      const cards = await screen.findByRole('list', { name: 'Child Organizations' });
      expect(cards).toHaveTextContent(ORG_ATTENTION_LABELS.cap_reached);
      expect(cards).toHaveTextContent('1 refused this month');
    } finally {
      setViewportWidth(1280);
    }
  });
});
