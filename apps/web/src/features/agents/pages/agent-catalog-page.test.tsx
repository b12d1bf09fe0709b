import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { agentTypeOf, catalog, TYPE_IDS } from '@/test/agent-data';
import { apiError, json, makeSession, mockApi, queryClientWithoutRetries, renderApp, type ApiRoutes } from '@/test/helpers';
import { MESSAGES } from '../wording';

const a = MESSAGES.agentPages;
const TYPES = 'GET /api/agent-types';
const houseAdmin = () => makeSession({ role: 'house_admin', orgType: 'house', orgName: 'House' });

function showCatalog(routes: ApiRoutes = {}) {
  const api = mockApi({ [TYPES]: () => json(200, catalog()), ...routes });
  renderApp('/agent-catalog', { session: houseAdmin() });
  return api;
}

describe('agent catalog', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    configure({ asyncUtilTimeout: 15_000 });
    await Promise.all([import('./agent-catalog-page'), import('@/app/shell/app-shell')]);
  });

  it('house admins reach it from the menu and see every type with code, name, kind, unit, price and status', async () => {
    mockApi({ [TYPES]: () => json(200, catalog()), 'GET /api/users/me': () => json(200, houseAdmin().user) });
    renderApp('/settings', { session: houseAdmin() });
    const menu = await screen.findByRole('navigation', { name: 'Main' });
    await userEvent.setup().click(within(menu).getByRole('link', { name: a.catalogTitle }));
    const table = await screen.findByRole('table', { name: a.catalogTitle });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Code', 'Name', 'Kind', 'Unit', 'Price', 'Status', 'Actions']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .map((td) => td.textContent)
        .slice(0, 6),
    ).toEqual(['support-bot', 'Support Bot', 'Assistant', 'run', '0.5 credits per run', a.statusActive]);
    expect(within(rows[1]!).getByRole('cell', { name: '0.0125 credits per 1k rows' })).toBeInTheDocument();
    // A retired type can still be edited, not retired again.
    expect(within(rows[3]!).getByText(a.statusRetired)).toBeInTheDocument();
    expect(within(rows[3]!).queryByRole('button', { name: /Retire/ })).not.toBeInTheDocument();
    expect(within(rows[0]!).getByRole('button', { name: `${a.retire} Support Bot` })).toBeInTheDocument();
  });

  it('is neither in the menu nor reachable for anyone else', async () => {
    for (const [role, orgType] of [
      ['house_manager', 'house'],
      ['super_agency_admin', 'super_agency'],
      ['tenant_admin', 'tenant'],
    ] as const) {
      const session = makeSession({ role, orgType });
      const api = mockApi(() => undefined);
      const view = renderApp('/agent-catalog', { session });
      await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard$/));
      expect(
        within(screen.getByRole('navigation', { name: 'Main' })).queryByRole('link', { name: a.catalogTitle }),
      ).not.toBeInTheDocument();
      expect(api.callsTo(TYPES)).toHaveLength(0);
      view.unmount();
    }
  });

  it('New agent type checks every field, then adds the type with an exact price', async () => {
    let types = catalog().agent_types;
    const created = agentTypeOf('bot', {
      id: '00000000-0000-4000-8000-0000000000a9',
      code: 'summarizer',
      name: 'Summarizer',
      kind: 'analytics',
      unit: '1k tokens',
      price: '0.2500',
    });
    const api = showCatalog({
      [TYPES]: () => json(200, { agent_types: types }),
      'POST /api/agent-types': () => {
        types = [...types, created];
        return json(201, { agent_type: created });
      },
    });
    await screen.findByRole('table', { name: a.catalogTitle });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: a.newType }));
    const dialog = await screen.findByRole('dialog', { name: a.newType });
    await user.type(within(dialog).getByLabelText(a.code), 'Bad Code');
    await user.type(within(dialog).getByLabelText(a.price), '0.12345');
    await user.click(within(dialog).getByRole('button', { name: a.create }));
    expect(await within(dialog).findByText(/A code is 2 to 40 lowercase letters/)).toBeInTheDocument();
    expect(within(dialog).getByText('Enter a name.')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose a kind.')).toBeInTheDocument();
    expect(within(dialog).getByText(/Enter the unit it is metered in/)).toBeInTheDocument();
    expect(within(dialog).getByText('Enter a price of at least 0 with at most 4 decimal places.')).toBeInTheDocument();
    expect(within(dialog).getByLabelText(a.code)).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo('POST /api/agent-types')).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText(a.code));
    await user.type(within(dialog).getByLabelText(a.code), 'summarizer');
    await user.type(within(dialog).getByLabelText(a.name), 'Summarizer');
    await user.selectOptions(within(dialog).getByLabelText(a.kind), 'analytics');
    await user.type(within(dialog).getByLabelText(a.unit), '1k tokens');
    await user.clear(within(dialog).getByLabelText(a.price));
    await user.type(within(dialog).getByLabelText(a.price), '0.25');
    await user.click(within(dialog).getByRole('button', { name: a.create }));

    expect(await screen.findByText(a.created('Summarizer'))).toBeInTheDocument();
    expect(api.bodiesOf('POST /api/agent-types')).toEqual([
      { code: 'summarizer', name: 'Summarizer', kind: 'analytics', unit: '1k tokens', price: '0.2500' },
    ]);
    expect(await screen.findByRole('row', { name: /Summarizer/ })).toHaveTextContent('0.25 credits per 1k tokens');
  });

  it('Edit says a new price applies to later usage, and sends only what changed', async () => {
    const api = showCatalog({
      [`PATCH /api/agent-types/${TYPE_IDS.bot}`]: () => json(200, { agent_type: agentTypeOf('bot', { price: '0.7500' }) }),
    });
    await screen.findByRole('table', { name: a.catalogTitle });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: `${a.editType} Support Bot` }));
    const dialog = await screen.findByRole('dialog', { name: a.editTitle('Support Bot') });
    expect(within(dialog).getByText(a.priceChangeNote)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(a.code)).toHaveAttribute('readonly');
    expect(within(dialog).getByLabelText(a.price)).toHaveValue('0.5');
    expect(within(dialog).getByRole('button', { name: a.save })).toBeDisabled();
    await user.clear(within(dialog).getByLabelText(a.price));
    await user.type(within(dialog).getByLabelText(a.price), '0.75');
    await user.click(within(dialog).getByRole('button', { name: a.save }));
    expect(await screen.findByText(a.updated('Support Bot'))).toBeInTheDocument();
    expect(api.bodiesOf(`PATCH /api/agent-types/${TYPE_IDS.bot}`)).toEqual([{ price: '0.7500' }]);
  });

  it('shows the refusal of a save in the dialog', async () => {
    showCatalog({ 'POST /api/agent-types': () => apiError(409, 'conflict', 'An agent type with this code already exists.') });
    await screen.findByRole('table', { name: a.catalogTitle });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: a.newType }));
    const dialog = await screen.findByRole('dialog', { name: a.newType });
    await user.type(within(dialog).getByLabelText(a.code), 'etl');
    await user.type(within(dialog).getByLabelText(a.name), 'ETL again');
    await user.selectOptions(within(dialog).getByLabelText(a.kind), 'automation');
    await user.type(within(dialog).getByLabelText(a.unit), 'run');
    await user.type(within(dialog).getByLabelText(a.price), '1');
    await user.click(within(dialog).getByRole('button', { name: a.create }));
    expect(await within(dialog).findByText('An agent type with this code already exists.')).toBeInTheDocument();
    expect(within(dialog).getByText(a.saveFailed)).toBeInTheDocument();
  });

  it('Retire asks first, then retires the type', async () => {
    let retired = false;
    const api = showCatalog({
      [TYPES]: () =>
        json(200, {
          agent_types: catalog().agent_types.map((t) =>
            t.id === TYPE_IDS.etl && retired ? { ...t, status: 'retired', retired_at: '2025-03-05T00:00:00.000Z' } : t,
          ),
        }),
      [`POST /api/agent-types/${TYPE_IDS.etl}/retire`]: () => {
        retired = true;
        return json(200, { agent_type: agentTypeOf('etl', { status: 'retired', retired_at: '2025-03-05T00:00:00.000Z' }) });
      },
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `${a.retire} Nightly ETL` }));
    const confirm = await screen.findByRole('alertdialog', { name: a.retireTitle('Nightly ETL') });
    expect(confirm).toHaveTextContent(a.retireBody);
    await user.click(within(confirm).getByRole('button', { name: a.retire }));
    expect(await screen.findByText(a.retired('Nightly ETL'))).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: `${a.retire} Nightly ETL` })).not.toBeInTheDocument());
    expect(api.callsTo(`POST /api/agent-types/${TYPE_IDS.etl}/retire`)).toHaveLength(1);
  });

  it('shows the load failure with Retry', async () => {
    let fail = true;
    mockApi({ [TYPES]: () => (fail ? apiError(500, 'internal', MESSAGES.generic.internal) : json(200, catalog())) });
    renderApp('/agent-catalog', { session: houseAdmin(), queryClient: queryClientWithoutRetries() });
    expect(await screen.findByText(a.loadCatalogFailed)).toBeInTheDocument();
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('table', { name: a.catalogTitle })).toBeInTheDocument();
  });
});
