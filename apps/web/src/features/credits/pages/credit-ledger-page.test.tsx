import { ENTRY_TYPES, PAGING, TIMING, ledgerSentence } from '@console/domain';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { addDays, startOfDay } from 'date-fns';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { EntryTypeBadge } from '@/components/credits/entry-type-badge';
import { catalog, TYPE_IDS } from '@/test/agent-data';
import { entry, ledgerPage } from '@/test/credit-data';
import { makeList, makeOrganization } from '@/test/organization-data';
import {
  apiError,
  crumbsOf,
  json,
  makeSession,
  mockApi as mockRoutes,
  OWN_ORG_ID,
  goBack,
  renderApp,
  setViewportWidth,
  type ApiRoutes,
} from '@/test/helpers';
import { MESSAGES } from '../wording';

const c = MESSAGES.credits;
const p = MESSAGES.creditPages;
const LEDGER = 'GET /api/credits/ledger';
/** The page also reads the agent catalog, for the agent filter and the agents' names. */
const CHILD_ID = '00000000-0000-4000-8000-0000000000c1';
const child = makeOrganization({ id: CHILD_ID, name: 'Agency One', org_type: 'agency' });
/** The page also reads the organizations of the selector. */
const mockApi = (routes: ApiRoutes) =>
  mockRoutes({
    'GET /api/agent-types': () => json(200, catalog()),
    'GET /api/organizations': () => json(200, makeList([child])),
    [`GET /api/organizations/${CHILD_ID}`]: () => json(200, { organization: child }),
    ...routes,
  });
const houseAdmin = () => makeSession({ role: 'house_admin', orgType: 'house', orgName: 'House' });

const sent = entry({
  entry_type: 'allocation_sent',
  amount: '-250.00',
  balance_after: '12345.50',
  metadata: { to_org_id: '00000000-0000-4000-8000-0000000000c1', to_org_name: 'Agency One', notes: 'Q1 budget' },
  created_at: '2024-01-05T15:04:00.000Z',
});
const received = entry({
  entry_type: 'allocation_received',
  amount: '1000.00',
  balance_after: '12595.50',
  metadata: { from_org_id: '00000000-0000-4000-8000-0000000000ab', from_org_name: 'House' },
});
const consumption = entry({ entry_type: 'consumption', amount: '-3.25', metadata: { usage: { tokens: 1200, model: 'gpt' } } });
const adjustment = entry({
  entry_type: 'adjustment_increase',
  amount: '500.00',
  metadata: { reason: 'Top-up for launch', notes: 'Top-up for launch' },
});

describe('credit ledger page', { timeout: 60_000 }, () => {
  // The page and the shell are lazy chunks: load them once, so no single case pays for it.
  beforeAll(async () => {
    // A shared, busy machine: give the first render of a lazy page more time.
    configure({ asyncUtilTimeout: 15_000 });
    await Promise.all([import('./credit-ledger-page'), import('@/app/shell/app-shell')]);
  });

  it("shows the balance, the panel and the entries in the table with the server's descriptions", async () => {
    const { queriesOf } = mockApi({
      [LEDGER]: () => json(200, ledgerPage([sent, received, consumption, adjustment], { credit_balance: '12345.50' })),
    });
    renderApp('/credit-ledger', { session: houseAdmin() });

    expect(await screen.findByTestId('credit-balance')).toHaveTextContent('12,345.50 credits');
    expect(screen.getByRole('heading', { level: 2, name: c.panelTitle })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Credit transactions' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Date', 'Type', 'Description', 'By', 'With', 'Amount', 'Balance']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(4);
    const first = within(rows[0]!)
      .getAllByRole('cell')
      .map((td) => td.textContent);
    expect(first).toEqual([
      expect.stringMatching(/^Jan 5, 2024 \d{1,2}:04 (AM|PM)$/),
      'Allocation sent',
      'Someone allocated 250.00 credits to another organization: Q1 budget',
      '—',
      '—',
      '-250.00 credits',
      '12,345.50 credits',
    ]);
    expect(within(rows[1]!).getByText('Received 1,000.00 credits from another organization')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Usage, charged 3.25 credits (tokens 1200, model gpt)')).toBeInTheDocument();
    expect(within(rows[3]!).getByText('Someone added 500.00 credits: Top-up for launch')).toBeInTheDocument();
    // One call for the caller's own organization, 20 a page.
    expect(queriesOf(LEDGER)[0]).toEqual({ limit: String(PAGING.ledgerPageSize) });
    expect(screen.queryByText(c.lowBalance)).not.toBeInTheDocument();
  });

  it('links Allocate Credits to the own organization and shows Adjust balance to a house admin', async () => {
    mockApi({ [LEDGER]: () => json(200, ledgerPage([])) });
    renderApp('/credit-ledger', { session: houseAdmin() });
    expect(await screen.findByRole('link', { name: p.allocateCredits })).toHaveAttribute('href', `/orgs/${OWN_ORG_ID}/allocate-credits`);
    expect(screen.getByRole('button', { name: p.adjustBalance })).toBeInTheDocument();
  });

  it('hides Allocate Credits for a tenant and for a manager, and Adjust balance for everyone but house admins', async () => {
    mockApi({ [LEDGER]: () => json(200, ledgerPage([])) });
    const view = renderApp('/credit-ledger', { session: makeSession({ role: 'tenant_admin', orgType: 'tenant' }) });
    await screen.findByText(c.emptyTitle);
    expect(screen.getByRole('button', { name: p.exportTransactions })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: p.allocateCredits })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: p.adjustBalance })).not.toBeInTheDocument();
    view.unmount();

    renderApp('/credit-ledger', { session: makeSession({ role: 'agency_manager', orgType: 'agency' }) });
    await screen.findByText(c.emptyTitle);
    expect(screen.queryByRole('link', { name: p.allocateCredits })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: p.adjustBalance })).not.toBeInTheDocument();
  });

  it('asks for no organization list, and shows no picker, where the server refuses the list or there is nothing below', async () => {
    for (const session of [
      makeSession({ role: 'agency_user', orgType: 'agency' }),
      makeSession({ role: 'house_user', orgType: 'house', orgName: 'House' }),
      makeSession({ role: 'tenant_admin', orgType: 'tenant' }),
    ]) {
      const { callsTo } = mockApi({ [LEDGER]: () => json(200, ledgerPage([])) });
      const view = renderApp('/credit-ledger', { session });
      await screen.findByText(c.emptyTitle);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(callsTo('GET /api/organizations')).toEqual([]);
      expect(screen.queryByRole('combobox', { name: 'Organization' })).not.toBeInTheDocument();
      view.unmount();
    }
  });

  it('offers the organization picker to a role that may list a subtree', async () => {
    const { callsTo } = mockApi({ [LEDGER]: () => json(200, ledgerPage([])) });
    renderApp('/credit-ledger', { session: makeSession({ role: 'agency_manager', orgType: 'agency' }) });
    expect(await screen.findByRole('combobox', { name: 'Organization' })).toBeInTheDocument();
    await waitFor(() => expect(callsTo('GET /api/organizations')).toHaveLength(1));
  });

  it('says how old the balance is beside it, and Refresh asks for the newest entries again', async () => {
    const { callsTo } = mockApi({ [LEDGER]: () => json(200, ledgerPage([sent])) });
    renderApp('/credit-ledger', { session: houseAdmin() });
    await screen.findByTestId('credit-balance');
    const freshness = screen.getByTestId('freshness');
    expect(freshness).toHaveTextContent(MESSAGES.live.updatedAgo(0));
    await userEvent.setup().click(within(freshness).getByRole('button', { name: MESSAGES.live.refresh }));
    await waitFor(() => expect(callsTo(LEDGER)).toHaveLength(2));
  });

  it('at 390 px shows the list, with amount and balance after, no table and no view switch, and a one-month calendar', async () => {
    setViewportWidth(390);
    mockApi({ [LEDGER]: () => json(200, ledgerPage([sent])) });
    renderApp('/credit-ledger', { session: houseAdmin() });
    const item = within(await screen.findByRole('list', { name: 'Credit transactions' })).getByRole('listitem');
    expect(item).toHaveTextContent('-250.00 credits');
    expect(item).toHaveTextContent('Balance after: 12,345.50 credits');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'View' })).not.toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: p.filters }));
    await user.click(screen.getByLabelText('Date range'));
    expect(await screen.findAllByRole('grid')).toHaveLength(1);
  });

  it('at 390 px folds the filters behind a Filters button, which says how many are set, so the first entry comes first', async () => {
    setViewportWidth(390);
    mockApi({ [LEDGER]: () => json(200, ledgerPage([sent])) });
    renderApp('/credit-ledger?type=consumption&q=rent', { session: houseAdmin() });
    await screen.findByRole('list', { name: 'Credit transactions' });
    const toggle = screen.getByRole('button', { name: `${p.filters} ${p.filtersOn(2)}` });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByLabelText('Type')).not.toBeVisible();
    expect(screen.getByLabelText('Min amount')).not.toBeVisible();
    await userEvent.setup().click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByLabelText('Type')).toBeVisible();
    expect(screen.getByLabelText('Min amount')).toBeVisible();
  });

  it('shows every filter, with no Filters button, on a wide screen', async () => {
    mockApi({ [LEDGER]: () => json(200, ledgerPage([sent])) });
    renderApp('/credit-ledger', { session: houseAdmin() });
    await screen.findByRole('table', { name: 'Credit transactions' });
    expect(screen.queryByRole('button', { name: new RegExp(`^${p.filters}`) })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Type')).toBeVisible();
  });

  it('shows the list view with badge, date, amount, balance after and metadata', async () => {
    mockApi({ [LEDGER]: () => json(200, ledgerPage([sent])) });
    renderApp('/credit-ledger', { session: houseAdmin() });
    await screen.findByRole('table');
    await userEvent.setup().click(screen.getByRole('button', { name: 'List' }));

    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
    const item = within(screen.getByRole('list', { name: 'Credit transactions' })).getByRole('listitem');
    expect(within(item).getByText('Allocation sent')).toHaveAttribute('data-entry-type', 'allocation_sent');
    expect(item).toHaveTextContent(/Jan 5, 2024 \d{1,2}:04 (AM|PM)/);
    expect(item).toHaveTextContent('-250.00 credits');
    expect(item).toHaveTextContent('Balance after: 12,345.50 credits');
    expect(item).toHaveTextContent('NotesQ1 budget');
    expect(item).toHaveTextContent('ToAgency One');
    expect(item).toHaveTextContent('To organization ID00000000-0000-4000-8000-0000000000c1');
  });

  it('gives each type its own badge colour and an unknown type grey', async () => {
    const entries = ENTRY_TYPES.map((type) => entry({ entry_type: type }));
    mockApi({ [LEDGER]: () => json(200, ledgerPage(entries)) });
    renderApp('/credit-ledger', { session: houseAdmin() });
    const table = await screen.findByRole('table');
    const colourOf = (badge: Element) => /\bbg-(\w+)-100\b/.exec(badge.className)?.[1];
    const colours = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => colourOf(row.querySelector('[data-entry-type]')!));
    expect(new Set(colours).size).toBe(ENTRY_TYPES.length);
    expect(colours).not.toContain('gray');
    // The ledger's contract admits only these types; a badge given any other shows it grey.
    const unknown = render(<EntryTypeBadge type="bonus_points" />).container.querySelector('[data-entry-type]')!;
    expect(unknown).toHaveAttribute('data-entry-type', 'unknown');
    expect(colourOf(unknown)).toBe('gray');
    expect(unknown).toHaveTextContent('Bonus points');
  });

  it('filters by type and sends the date range with the end day inclusive', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['Date'] });
    vi.setSystemTime(new Date(2024, 0, 20, 12, 0));
    const { queriesOf } = mockApi({ [LEDGER]: () => json(200, ledgerPage([sent])) });
    renderApp('/credit-ledger', { session: houseAdmin() });
    await screen.findByRole('table');
    const user = userEvent.setup();

    await user.selectOptions(screen.getByLabelText('Type'), 'consumption');
    await waitFor(() => expect(queriesOf(LEDGER).at(-1)).toEqual({ entry_type: 'consumption', limit: '20' }));

    await user.click(screen.getByLabelText('Date range'));
    // Two months are shown.
    expect(await screen.findAllByRole('grid')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: /January 5th, 2024/ }));
    await user.click(screen.getByRole('button', { name: /January 7th, 2024/ }));
    const from = startOfDay(new Date(2024, 0, 5)).toISOString();
    const to = addDays(startOfDay(new Date(2024, 0, 7)), 1).toISOString();
    await waitFor(() => expect(queriesOf(LEDGER).at(-1)).toEqual({ entry_type: 'consumption', from, to, limit: '20' }));
    expect(screen.getByLabelText('Date range')).toHaveTextContent('Jan 5, 2024 – Jan 7, 2024');

    await user.click(screen.getByRole('button', { name: 'Clear dates' }));
    expect(screen.getByLabelText('Date range')).toHaveTextContent('Pick a date range');
    await user.selectOptions(screen.getByLabelText('Type'), 'refund');
    await waitFor(() => expect(queriesOf(LEDGER).at(-1)).toEqual({ entry_type: 'refund', limit: '20' }));
  });

  it('shows the empty state', async () => {
    mockApi({ [LEDGER]: () => json(200, ledgerPage([])) });
    renderApp('/credit-ledger', { session: houseAdmin() });
    expect(await screen.findByText(c.emptyTitle)).toBeInTheDocument();
    expect(screen.getByText(c.emptyBody)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: p.loadMore })).not.toBeInTheDocument();
  });

  it('loads more with the cursor of the previous page', async () => {
    const older = entry({ entry_type: 'refund', amount: '7.00', metadata: { usage: { ticket: 'R-1' } } });
    const { queriesOf } = mockApi({
      [LEDGER]: ({ url }) =>
        json(200, url.searchParams.get('cursor') === '41' ? ledgerPage([older]) : ledgerPage([sent], { next_cursor: '41' })),
    });
    renderApp('/credit-ledger', { session: houseAdmin() });
    await screen.findByText('Someone allocated 250.00 credits to another organization: Q1 budget');
    await userEvent.setup().click(screen.getByRole('button', { name: p.loadMore }));

    expect(await screen.findByText('Someone refunded 7.00 credits (ticket R-1)')).toBeInTheDocument();
    expect(screen.getByText('Someone allocated 250.00 credits to another organization: Q1 budget')).toBeInTheDocument();
    expect(queriesOf(LEDGER)[1]).toEqual({ cursor: '41', limit: '20' });
    expect(screen.queryByRole('button', { name: p.loadMore })).not.toBeInTheDocument();
  });

  it('exports the CSV of the current filters as a download', async () => {
    const createObjectURL = vi.fn((blob: Blob) => {
      void blob;
      return 'blob:ledger';
    });
    const revokeObjectURL = vi.fn();
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      expect(this.download).toBe('credit-ledger-2024-01-20.csv');
      expect(this.href).toBe('blob:ledger');
    });
    const csv = 'created_at,entry_type,amount\r\n2024-01-05T15:04:00.000Z,refund,7.00\r\n';
    const { queriesOf } = mockApi({
      [LEDGER]: () => json(200, ledgerPage([sent])),
      'GET /api/credits/ledger/export': () =>
        new Response(csv, {
          status: 200,
          headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="credit-ledger-2024-01-20.csv"' },
        }),
    });
    renderApp('/credit-ledger', { session: houseAdmin() });
    await screen.findByRole('table');
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Type'), 'refund');
    await user.click(screen.getByRole('button', { name: p.exportTransactions }));

    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect(queriesOf('GET /api/credits/ledger/export')[0]).toEqual({ entry_type: 'refund' });
    expect(await createObjectURL.mock.calls[0]![0].text()).toBe(csv);
    expect(await screen.findByText(p.exported)).toBeInTheDocument();
    await waitFor(() => expect(revokeObjectURL).toHaveBeenCalledWith('blob:ledger'));
    click.mockRestore();
  });

  it("warns about a balance below the organization's own threshold, and not at it", async () => {
    mockApi({ [LEDGER]: () => json(200, ledgerPage([], { credit_balance: '499.99', low_balance_threshold: '500.00' })) });
    const view = renderApp('/credit-ledger', { session: houseAdmin() });
    expect(await screen.findByText(c.lowBalance)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.thresholdPages.below('500.00 credits'))).toBeInTheDocument();
    expect(screen.getByTestId('credit-balance')).toHaveTextContent('499.99 credits');
    view.unmount();

    mockApi({ [LEDGER]: () => json(200, ledgerPage([], { credit_balance: '500.00', low_balance_threshold: '500.00' })) });
    const second = renderApp('/credit-ledger', { session: houseAdmin() });
    expect(await screen.findByTestId('credit-balance')).toHaveTextContent('500.00 credits');
    expect(screen.queryByText(c.lowBalance)).not.toBeInTheDocument();
    second.unmount();

    // A threshold of 0 never warns, whatever the balance.
    mockApi({ [LEDGER]: () => json(200, ledgerPage([], { credit_balance: '0.00', low_balance_threshold: '0.00' })) });
    renderApp('/credit-ledger', { session: houseAdmin() });
    expect(await screen.findByTestId('credit-balance')).toHaveTextContent('0.00 credits');
    expect(screen.queryByText(c.lowBalance)).not.toBeInTheDocument();
  });

  it("shows the server's sentence of a metered consumption entry, which names the agent from the catalog", async () => {
    const metered = entry({
      entry_type: 'consumption',
      amount: '-1.25',
      agent_type_id: TYPE_IDS.bot,
      units: '2.5000',
      external_ref: 'evt-1',
      metadata: { agent: 'support-bot', units: '2.5000', event_id: 'evt-1', usage: { ticket: 'T-9' } },
    });
    metered.description = ledgerSentence({ ...metered, actor: null, counterparty: null, agent: { name: 'Support Bot', unit: 'run' } });
    const unknown = entry({
      entry_type: 'consumption',
      amount: '-0.50',
      agent_type_id: '00000000-0000-4000-8000-0000000000f9',
      units: '1.0000',
      metadata: { agent: 'gone-bot' },
    });
    mockApi({ [LEDGER]: () => json(200, ledgerPage([metered, unknown])) });
    renderApp('/credit-ledger', { session: houseAdmin() });
    expect(await screen.findByText('Support Bot used 2.5 × run, charged 1.25 credits (ticket T-9)')).toBeInTheDocument();
    expect(screen.getByText('gone-bot used 1 units, charged 0.50 credits')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'List' }));
    const items = within(screen.getByRole('list', { name: 'Credit transactions' })).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('Support Bot used 2.5 × run, charged 1.25 credits (ticket T-9)');
    expect(items[0]).toHaveTextContent('Event IDevt-1');
  });

  it("shows a batch's consumption entry as one line: the agent, its events, units and charge, with its price and when they occurred", async () => {
    const batch = entry({
      entry_type: 'consumption',
      amount: '-12.34',
      agent_type_id: TYPE_IDS.bot,
      units: '1234.5000',
      metadata: {
        agent: 'support-bot',
        events: 1000,
        units: '1234.5000',
        price: '0.0100',
        first_occurred_at: '2024-01-20T10:00:00.000Z',
        last_occurred_at: '2024-01-20T10:05:00.000Z',
      },
    });
    batch.description = ledgerSentence({ ...batch, actor: null, counterparty: null, agent: { name: 'Support Bot', unit: 'run' } });
    mockApi({ [LEDGER]: () => json(200, ledgerPage([batch])) });
    renderApp('/credit-ledger', { session: houseAdmin() });
    expect(await screen.findByText('Support Bot: 1,000 events, 1,234.5 × run, charged 12.34 credits')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'List' }));
    const item = within(screen.getByRole('list', { name: 'Credit transactions' })).getAllByRole('listitem')[0]!;
    expect(item).toHaveTextContent('Price0.0100');
    expect(item).toHaveTextContent(/Occurred.+–.+/);
  });

  it('opens a consumption entry to the usage events it charged, a page at a time', async () => {
    const metered = entry({ entry_type: 'consumption', amount: '-1.25', agent_type_id: TYPE_IDS.bot, units: '5.0000' });
    const event = (id: string, charged: string) => ({
      id,
      organization_id: metered.organization_id,
      agent: 'support-bot',
      agent_type_id: TYPE_IDS.bot,
      unit: '1k tokens',
      units: '2.5000',
      price: '0.2500',
      credits_charged: charged,
      occurred_at: '2024-01-05T15:04:00.000Z',
      received_at: '2024-01-05T15:04:01.000Z',
      ledger_entry_id: metered.id,
      metadata: id === 'run-2' ? { ticket: 'T-9' } : {},
    });
    const next = '00000000-0000-4000-8000-00000000e001';
    const { queriesOf } = mockApi({
      [LEDGER]: () => json(200, ledgerPage([metered, sent])),
      'GET /api/usage-events': ({ url }) =>
        json(
          200,
          url.searchParams.get('cursor') === next
            ? { events: [event('run-1', '0.62')], next_cursor: null }
            : { events: [event('run-2', '0.63')], next_cursor: next },
        ),
    });
    renderApp('/credit-ledger', { session: houseAdmin() });
    const user = userEvent.setup();
    const rows = within(await screen.findByRole('table')).getAllByRole('row');
    // Only the consumption entry opens to events.
    expect(within(rows[2]!).queryByRole('button', { name: new RegExp(p.entryEvents) })).not.toBeInTheDocument();
    await user.click(within(rows[1]!).getByRole('button', { name: `${p.entryEvents}: ${metered.description}` }));
    const dialog = await screen.findByRole('dialog', { name: p.entryEventsTitle });
    expect(await within(dialog).findByText('run-2')).toBeInTheDocument();
    expect(within(dialog).getByText('0.63 credits')).toBeInTheDocument();
    expect(within(dialog).getByText('{"ticket":"T-9"}')).toBeInTheDocument();
    // The units in the agent's own unit, and the price per unit in credits.
    expect(within(dialog).getByText(/support-bot · 2\.5000 1k tokens at 0\.2500 credits per 1k tokens · occurred/)).toBeInTheDocument();
    expect(queriesOf('GET /api/usage-events')[0]).toEqual({
      organization_id: metered.organization_id,
      ledger_entry_id: metered.id,
      limit: '50',
    });
    await user.click(within(dialog).getByRole('button', { name: p.loadMore }));
    expect(await within(dialog).findByText('run-1')).toBeInTheDocument();
    expect(queriesOf('GET /api/usage-events')[1]).toMatchObject({ cursor: next });
    expect(within(dialog).queryByRole('button', { name: p.loadMore })).not.toBeInTheDocument();
    // Narrowed to the days the events occurred on: the list starts again from its first page.
    fireEvent.change(within(dialog).getByLabelText(p.entryEventsFrom), { target: { value: '2024-01-20' } });
    fireEvent.change(within(dialog).getByLabelText(p.entryEventsTo), { target: { value: '2024-01-21' } });
    await waitFor(() =>
      expect(queriesOf('GET /api/usage-events').at(-1)).toEqual({
        organization_id: metered.organization_id,
        ledger_entry_id: metered.id,
        from: '2024-01-20',
        to: '2024-01-21',
        limit: '50',
      }),
    );
  });

  it("shows an event's units and charge, and no price where the server withholds it", async () => {
    const metered = entry({ entry_type: 'consumption', amount: '-0.63', agent_type_id: TYPE_IDS.bot, units: '2.5000' });
    mockApi({
      [LEDGER]: () => json(200, ledgerPage([metered])),
      'GET /api/usage-events': () =>
        json(200, {
          events: [
            {
              id: 'run-9',
              organization_id: metered.organization_id,
              agent: 'support-bot',
              agent_type_id: TYPE_IDS.bot,
              unit: 'run',
              units: '2.5000',
              price: null,
              credits_charged: '0.63',
              occurred_at: '2024-01-05T15:04:00.000Z',
              received_at: '2024-01-05T15:04:01.000Z',
              ledger_entry_id: metered.id,
              metadata: {},
            },
          ],
          next_cursor: null,
        }),
    });
    renderApp('/credit-ledger', { session: houseAdmin() });
    const user = userEvent.setup();
    const rows = within(await screen.findByRole('table')).getAllByRole('row');
    await user.click(within(rows[1]!).getByRole('button', { name: `${p.entryEvents}: ${metered.description}` }));
    const dialog = await screen.findByRole('dialog', { name: p.entryEventsTitle });
    expect(await within(dialog).findByText(/support-bot · 2\.5000 run · occurred/)).toBeInTheDocument();
    expect(within(dialog).getByText('0.63 credits')).toBeInTheDocument();
    expect(dialog).not.toHaveTextContent(/ at |null/);
  });

  it('exports the usage events of the same organization, agent and dates', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:events'), revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { queriesOf } = mockApi({
      [LEDGER]: () => json(200, ledgerPage([sent])),
      'GET /api/usage-events/export': () =>
        new Response('occurred_at,received_at,id\r\n', {
          status: 200,
          headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="usage-events-2024-01-20.csv"' },
        }),
    });
    renderApp(`/credit-ledger?agent=${TYPE_IDS.bot}&type=consumption`, { session: houseAdmin() });
    await screen.findByRole('table');
    await userEvent.setup().click(screen.getByRole('button', { name: p.exportEvents }));
    expect(await screen.findByText(p.eventsExported)).toBeInTheDocument();
    expect(queriesOf('GET /api/usage-events/export')[0]).toEqual({ agent_type_id: TYPE_IDS.bot });
    expect(click).toHaveBeenCalledTimes(1);
    click.mockRestore();
  });

  it('filters by agent from the catalog, and keeps every filter in the URL', async () => {
    const { queriesOf } = mockApi({ [LEDGER]: () => json(200, ledgerPage([sent])) });
    renderApp('/credit-ledger', { session: houseAdmin() });
    await screen.findByRole('table');
    const user = userEvent.setup();
    const select = screen.getByLabelText('Agent');
    await waitFor(() =>
      expect(
        within(select)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['All agents', 'Support Bot', 'Nightly ETL', 'Reporter', 'Legacy Bot (retired)']),
    );
    await user.selectOptions(select, 'Nightly ETL');
    await waitFor(() => expect(queriesOf(LEDGER).at(-1)).toEqual({ agent_type_id: TYPE_IDS.etl, limit: '20' }));
    await user.selectOptions(screen.getByLabelText('Type'), 'consumption');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(`/credit-ledger?agent=${TYPE_IDS.etl}&type=consumption`));
    await user.selectOptions(select, 'All agents');
    await waitFor(() => expect(queriesOf(LEDGER).at(-1)).toEqual({ entry_type: 'consumption', limit: '20' }));
  });

  it('adds a history entry for each chosen filter, so Back restores the one before; typed text replaces its entry', async () => {
    const { queriesOf } = mockApi({ [LEDGER]: () => json(200, ledgerPage([sent])) });
    renderApp('/credit-ledger', { session: houseAdmin() });
    await screen.findByRole('table');
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Type'), 'consumption');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/credit-ledger?type=consumption'));
    await user.selectOptions(screen.getByLabelText('Type'), 'refund');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/credit-ledger?type=refund'));
    await user.type(screen.getByLabelText('Search'), 'budget');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/credit-ledger?type=refund&q=budget'));

    goBack();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/credit-ledger\?type=consumption$/));
    expect(screen.getByLabelText('Type')).toHaveValue('consumption');
    expect(screen.getByLabelText('Search')).toHaveValue('');
    // The earlier filter's entries come from the cache, or from the server when the cache has none.
    expect(queriesOf(LEDGER).filter((query) => query.entry_type === 'consumption')).not.toHaveLength(0);
    goBack();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/credit-ledger$/));
    expect(screen.getByLabelText('Type')).toHaveValue('all');
  });

  it('opens with the filters of its URL', async () => {
    const { queriesOf } = mockApi({ [LEDGER]: () => json(200, ledgerPage([sent])) });
    renderApp(`/credit-ledger?type=consumption&agent=${TYPE_IDS.bot}&from=2024-01-05&to=2024-01-07`, { session: houseAdmin() });
    await screen.findByRole('table');
    expect(queriesOf(LEDGER)[0]).toEqual({
      entry_type: 'consumption',
      agent_type_id: TYPE_IDS.bot,
      from: startOfDay(new Date(2024, 0, 5)).toISOString(),
      to: addDays(startOfDay(new Date(2024, 0, 7)), 1).toISOString(),
      limit: '20',
    });
    expect(screen.getByLabelText('Type')).toHaveValue('consumption');
    await waitFor(() => expect(screen.getByLabelText('Agent')).toHaveValue(TYPE_IDS.bot));
    expect(screen.getByLabelText('Date range')).toHaveTextContent('Jan 5, 2024 – Jan 7, 2024');
    // Values that mean nothing are left out rather than sent.
    const view = renderApp('/credit-ledger?type=bonus&agent=nope&from=2024-02-30', { session: houseAdmin() });
    await waitFor(() => expect(queriesOf(LEDGER).at(-1)).toEqual({ limit: '20' }));
    view.unmount();
  });

  it('retries a failed load 3 times 2 s apart, then toasts Error with the load failure message', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { callsTo } = mockApi({ [LEDGER]: () => apiError(500, 'internal', MESSAGES.generic.internal) });
    renderApp('/credit-ledger', { session: houseAdmin() });
    await waitFor(() => expect(callsTo(LEDGER)).toHaveLength(1));
    await vi.advanceTimersByTimeAsync(TIMING.loadRetryDelayMs * 3);
    await waitFor(() => expect(callsTo(LEDGER)).toHaveLength(4));
    expect(await screen.findByText(MESSAGES.shell.errorTitle, { selector: '[data-title]' })).toBeInTheDocument();
    expect(screen.getAllByText(c.loadFailed).length).toBeGreaterThan(0);
    await vi.advanceTimersByTimeAsync(TIMING.loadRetryDelayMs * 3);
    expect(callsTo(LEDGER)).toHaveLength(4);
  });

  it('shows Access Denied on 403 without retrying', async () => {
    const { callsTo } = mockApi({ [LEDGER]: () => apiError(403, 'forbidden', MESSAGES.generic.forbidden) });
    renderApp('/credit-ledger', { session: houseAdmin() });
    expect(await screen.findByText(MESSAGES.auth.accessDenied)).toBeInTheDocument();
    expect(callsTo(LEDGER)).toHaveLength(1);
  });

  it('lets a house admin adjust the balance with a reason, then refreshes the ledger', async () => {
    const topUp = entry({
      entry_type: 'adjustment_increase',
      amount: '1000.00',
      balance_after: '2000.00',
      metadata: { reason: 'Launch budget' },
    });
    let adjusted = false;
    const { callsTo } = mockApi({
      [LEDGER]: () => json(200, adjusted ? ledgerPage([topUp], { credit_balance: '2000.00' }) : ledgerPage([])),
      'POST /api/credits/adjustments': () => {
        adjusted = true;
        return json(200, { entry: topUp });
      },
    });
    renderApp('/credit-ledger', { session: houseAdmin() });
    await screen.findByText(c.emptyTitle);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: p.adjustBalance }));
    const dialog = await screen.findByRole('dialog', { name: p.adjustBalance });

    await user.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    expect(await within(dialog).findByText(c.amountNotNumber)).toBeInTheDocument();
    expect(within(dialog).getByText('Give a reason of at least 3 characters.')).toBeInTheDocument();
    expect(callsTo('POST /api/credits/adjustments')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Amount'), '1000');
    await user.type(within(dialog).getByLabelText('Reason'), 'Launch budget');
    await user.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));

    expect(await screen.findByText(p.adjusted)).toBeInTheDocument();
    expect(callsTo('POST /api/credits/adjustments')[0]!.body).toEqual({
      direction: 'increase',
      amount: '1000.00',
      reason: 'Launch budget',
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByText('Someone added 1,000.00 credits: Launch budget')).toBeInTheDocument();
    expect(screen.getByTestId('credit-balance')).toHaveTextContent('2,000.00 credits');
  });

  it('offers Reverse on a recent allocation of the own organization, reviews it, asks a reason and posts it', async () => {
    const recent = entry({
      entry_type: 'allocation_sent',
      amount: '-250.00',
      transaction_group: '00000000-0000-4000-9000-0000000000f1',
      metadata: { to_org_id: CHILD_ID, to_org_name: 'Agency One' },
      counterparty: { id: CHILD_ID, name: 'Agency One', in_scope: true },
      created_at: new Date(Date.now() - 60 * 60_000).toISOString(),
    });
    let reversed = false;
    const { callsTo } = mockApi({
      [LEDGER]: () => json(200, ledgerPage([reversed ? { ...recent, reversed_by: '00000000-0000-4000-9000-0000000000f2' } : recent])),
      [`POST /api/credits/allocations/${recent.transaction_group}/reversal`]: () => {
        reversed = true;
        return json(200, {
          transaction_id: '00000000-0000-4000-9000-0000000000f2',
          reverses_transaction_id: recent.transaction_group,
          from_balance: '1250.00',
          to_balance: '0.00',
        });
      },
    });
    renderApp('/credit-ledger', { session: houseAdmin() });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: p.reverseLabel('250.00', 'Agency One') }));
    const dialog = await screen.findByRole('dialog', { name: p.reverseTitle });
    expect(within(dialog).getByText(p.reverseSummary('250.00', 'Agency One', 'House'))).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: p.confirmReversal }));
    expect(await within(dialog).findByText(c.reversalReason)).toBeInTheDocument();
    expect(callsTo(`POST /api/credits/allocations/${recent.transaction_group}/reversal`)).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Reason'), 'Wrong agency');
    await user.click(within(dialog).getByRole('button', { name: p.confirmReversal }));
    expect(await screen.findByText(c.reversed)).toBeInTheDocument();
    expect(callsTo(`POST /api/credits/allocations/${recent.transaction_group}/reversal`)[0]!.body).toEqual({ reason: 'Wrong agency' });
    // Refreshed: the allocation is marked, and offers no second reversal.
    expect(await screen.findByText(p.reversed)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: p.reverseLabel('250.00', 'Agency One') })).not.toBeInTheDocument();
  });

  it('offers no Reverse on an allocation past 24 hours, a received one, or to a manager; shows the refusal in the dialog', async () => {
    const old = entry({
      entry_type: 'allocation_sent',
      amount: '-10.00',
      counterparty: { id: CHILD_ID, name: 'Agency One', in_scope: true },
      created_at: new Date(Date.now() - 25 * 60 * 60_000).toISOString(),
    });
    const fresh = entry({
      entry_type: 'allocation_sent',
      amount: '-20.00',
      transaction_group: '00000000-0000-4000-9000-0000000000f3',
      counterparty: { id: CHILD_ID, name: 'Agency One', in_scope: true },
      created_at: new Date().toISOString(),
    });
    const incoming = { ...received, created_at: new Date().toISOString() };
    mockApi({
      [LEDGER]: () => json(200, ledgerPage([fresh, old, incoming])),
      [`POST /api/credits/allocations/${fresh.transaction_group}/reversal`]: () =>
        apiError(422, 'insufficient_credits', c.reversalNotCovered('Agency One', '5.00')),
    });
    const { unmount } = renderApp('/credit-ledger', { session: makeSession({ role: 'house_manager', orgType: 'house' }) });
    await screen.findByRole('table', { name: 'Credit transactions' });
    expect(screen.queryByRole('button', { name: /^Reverse/ })).not.toBeInTheDocument();
    unmount();

    renderApp('/credit-ledger', { session: houseAdmin() });
    const buttons = await screen.findAllByRole('button', { name: /^Reverse the allocation/ });
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual([p.reverseLabel('20.00', 'Agency One')]);
    const user = userEvent.setup();
    await user.click(buttons[0]!);
    const dialog = await screen.findByRole('dialog', { name: p.reverseTitle });
    await user.type(within(dialog).getByLabelText('Reason'), 'Too much');
    await user.click(within(dialog).getByRole('button', { name: p.confirmReversal }));
    expect(await within(dialog).findByText(p.reverseFailed(c.reversalNotCovered('Agency One', '5.00')))).toBeInTheDocument();
  });

  it('shows the refusal of an adjustment in the dialog', async () => {
    mockApi({
      [LEDGER]: () => json(200, ledgerPage([], { credit_balance: '5.00' })),
      'POST /api/credits/adjustments': () => apiError(422, 'insufficient_credits', c.insufficient('5.00')),
    });
    renderApp('/credit-ledger', { session: houseAdmin() });
    await screen.findByText(c.emptyTitle);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: p.adjustBalance }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByLabelText('Decrease'));
    await user.type(within(dialog).getByLabelText('Amount'), '10');
    await user.type(within(dialog).getByLabelText('Reason'), 'Correction');
    await user.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    expect(await within(dialog).findByText(p.adjustFailed(c.insufficient('5.00')))).toBeInTheDocument();
  });
  it('names who moved the credits and links the other organization when it is in scope', async () => {
    const withParties = entry({
      entry_type: 'allocation_sent',
      amount: '-50.00',
      actor: { id: '00000000-0000-4000-8000-0000000000f1', name: 'Ana Ruiz', email: 'ana@example.test' },
      counterparty: { id: CHILD_ID, name: 'Agency One', in_scope: true },
      metadata: { to_org_id: CHILD_ID, to_org_name: 'Agency One' },
    });
    const fromParent = entry({
      entry_type: 'allocation_received',
      amount: '10.00',
      counterparty: { id: '00000000-0000-4000-8000-0000000000ab', name: 'Parent', in_scope: false },
      metadata: { from_org_id: '00000000-0000-4000-8000-0000000000ab', from_org_name: 'Parent' },
    });
    mockApi({ [LEDGER]: () => json(200, ledgerPage([withParties, fromParent])) });
    renderApp('/credit-ledger', { session: houseAdmin() });
    const table = await screen.findByRole('table', { name: 'Credit transactions' });
    const [first, second] = within(table).getAllByRole('row').slice(1);
    expect(within(first!).getByText('Ana Ruiz')).toHaveAttribute('title', 'ana@example.test');
    expect(within(first!).getByRole('link', { name: 'Agency One' })).toHaveAttribute('href', `/credit-ledger?org=${CHILD_ID}`);
    expect(within(second!).getByText('Parent')).toBeInTheDocument();
    expect(within(second!).queryByRole('link', { name: 'Parent' })).not.toBeInTheDocument();
  });

  it("opens another organization's ledger from the URL and the selector, without the own organization's actions", async () => {
    const { queriesOf } = mockApi({ [LEDGER]: () => json(200, ledgerPage([])) });
    renderApp(`/credit-ledger?org=${CHILD_ID}`, { session: houseAdmin() });
    await screen.findByText(c.emptyTitle);
    expect(queriesOf(LEDGER)[0]).toEqual({ organization_id: CHILD_ID, limit: '20' });
    expect(await screen.findByText('Transaction history of Agency One')).toBeInTheDocument();
    // Nothing on another organization's ledger says it is the viewer's own.
    expect(screen.getByText('The credit entries of Agency One.')).toBeInTheDocument();
    expect(screen.queryByText(/your organization/i)).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: p.allocateCredits })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: p.adjustBalance })).not.toBeInTheDocument();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Organization' }), '');
    await waitFor(() => expect(queriesOf(LEDGER).at(-1)).toEqual({ limit: '20' }));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/credit-ledger$/);
  });

  it("says in one line what the server withholds of another organization's prices and earnings", async () => {
    const GRANDCHILD_ID = '00000000-0000-4000-8000-0000000000c3';
    const grandchild = makeOrganization({ id: GRANDCHILD_ID, name: 'Tenant Three', org_type: 'tenant', parent_org_id: CHILD_ID });
    mockApi({
      [LEDGER]: () => json(200, ledgerPage([])),
      [`GET /api/organizations/${GRANDCHILD_ID}`]: () => json(200, { organization: grandchild }),
    });
    // A child's prices are its seller's (the viewer's) to see; how it earns is its own.
    const view = renderApp(`/credit-ledger?org=${CHILD_ID}`, { session: houseAdmin() });
    expect(await screen.findByText(p.earningsWithheld('Agency One'))).toBeInTheDocument();
    view.unmount();
    // Below a child, the price holds the child's margin too.
    renderApp(`/credit-ledger?org=${GRANDCHILD_ID}`, { session: houseAdmin() });
    expect(await screen.findByText(p.pricesWithheld('Tenant Three'))).toBeInTheDocument();
    expect(screen.queryByText(p.earningsWithheld('Tenant Three'))).not.toBeInTheDocument();
  });

  it('shows nothing withheld on the own ledger', async () => {
    mockApi({ [LEDGER]: () => json(200, ledgerPage([])) });
    renderApp('/credit-ledger', { session: houseAdmin() });
    await screen.findByText(c.emptyTitle);
    expect(screen.queryByText(/is its own: shown here/)).not.toBeInTheDocument();
  });

  it('filters by amounts and searches the text, kept in the URL', async () => {
    const { queriesOf } = mockApi({ [LEDGER]: () => json(200, ledgerPage([sent])) });
    renderApp('/credit-ledger', { session: houseAdmin() });
    await screen.findByRole('table', { name: 'Credit transactions' });
    await userEvent.type(screen.getByLabelText('Min amount'), '10');
    await userEvent.type(screen.getByLabelText('Max amount'), '500.5');
    await userEvent.type(screen.getByLabelText('Search'), 'budget');
    // Among the requests, not necessarily the last: the live refresh may ask again meanwhile.
    await waitFor(() => expect(queriesOf(LEDGER)).toContainEqual({ amount_min: '10', amount_max: '500.5', q: 'budget', limit: '20' }));
    expect(screen.getByTestId('location')).toHaveTextContent('min=10');
    expect(screen.getByTestId('location')).toHaveTextContent('q=budget');
  });

  describe('breadcrumbs', () => {
    const GRANDCHILD_ID = '00000000-0000-4000-8000-0000000000c2';
    const grandchild = makeOrganization({
      id: GRANDCHILD_ID,
      name: 'Tenant Two',
      org_type: 'tenant',
      parent_org_id: CHILD_ID,
      ancestors: [
        { id: OWN_ORG_ID, name: 'House' },
        { id: CHILD_ID, name: 'Agency One' },
      ],
    });

    it("lead down to another organization's ledger, each organization a link, then the page", async () => {
      const { callsTo } = mockApi({
        [LEDGER]: () => json(200, ledgerPage([])),
        [`GET /api/organizations/${GRANDCHILD_ID}`]: () => json(200, { organization: grandchild }),
      });
      renderApp(`/credit-ledger?org=${GRANDCHILD_ID}`, { session: houseAdmin() });
      const trail = await screen.findByRole('navigation', { name: 'Breadcrumb' });
      expect(crumbsOf(trail)).toEqual(['House', 'Agency One', 'Tenant Two', MESSAGES.shell.nav.creditLedger]);
      expect(within(trail).getByRole('link', { name: 'House' })).toHaveAttribute('href', `/orgs/${OWN_ORG_ID}`);
      expect(within(trail).getByRole('link', { name: 'Agency One' })).toHaveAttribute('href', `/orgs/${CHILD_ID}`);
      expect(within(trail).getByRole('link', { name: 'Tenant Two' })).toHaveAttribute('href', `/orgs/${GRANDCHILD_ID}`);
      expect(within(trail).getByText(MESSAGES.shell.nav.creditLedger)).toHaveAttribute('aria-current', 'page');
      expect(screen.getByText('Transaction history of Tenant Two')).toBeInTheDocument();
      // The trail, the heading and the selector share one read.
      expect(callsTo(`GET /api/organizations/${GRANDCHILD_ID}`)).toHaveLength(1);
    });

    it("are not shown on the viewer's own ledger", async () => {
      mockApi({ [LEDGER]: () => json(200, ledgerPage([])) });
      renderApp(`/credit-ledger?org=${OWN_ORG_ID}`, { session: houseAdmin() });
      await screen.findByText(c.emptyTitle);
      expect(screen.queryByRole('navigation', { name: 'Breadcrumb' })).not.toBeInTheDocument();
    });

    it('ask nothing of an organization the viewer may not read, and show no trail', async () => {
      const { calls } = mockApi({ [LEDGER]: () => json(200, ledgerPage([])) });
      // A user-level role reads the ledgers of its subtree but no organization but its own.
      renderApp(`/credit-ledger?org=${CHILD_ID}`, { session: makeSession({ role: 'house_user', orgType: 'house', orgName: 'House' }) });
      await screen.findByText(c.emptyTitle);
      expect(screen.getByText('Transaction history of the selected organization')).toBeInTheDocument();
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(screen.queryByRole('navigation', { name: 'Breadcrumb' })).not.toBeInTheDocument();
      expect(calls.filter((call) => call.path.startsWith('/api/organizations/'))).toEqual([]);
    });
  });
});
