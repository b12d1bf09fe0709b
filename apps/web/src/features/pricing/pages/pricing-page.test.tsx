import type { PriceBook, PriceBookItem } from '@console/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiError, json, makeSession, mockApi, OWN_ORG_ID, renderApp, setViewportWidth, type ApiCall } from '@/test/helpers';
import { formatDateTime } from '@/lib/dates';
import { MESSAGES } from '../wording';

const p = MESSAGES.pricingPages;
const BOOK = `GET /api/organizations/${OWN_ORG_ID}/prices`;
const HISTORY = `GET /api/organizations/${OWN_ORG_ID}/prices/history`;
const BOT = '00000000-0000-4000-8000-0000000000a1';
const ETL = '00000000-0000-4000-8000-0000000000a2';
const CRM = '00000000-0000-4000-8000-0000000000a3';
const SET_BOT = `PUT /api/organizations/${OWN_ORG_ID}/prices/${BOT}`;

function item(id: string, name: string, unit: string, prices: Omit<PriceBookItem, 'agent_type'>): PriceBookItem {
  return { agent_type: { id, code: name.toLowerCase().replace(/ /g, '-'), name, unit, status: 'active' }, ...prices };
}

/** An agency's book: a margin on the bot, a book below its own price on the ETL, the CRM passed through. */
function book(overrides: Partial<PriceBook> = {}): PriceBook {
  return {
    organization_id: OWN_ORG_ID,
    catalog: false,
    can_edit: true,
    items: [
      item(BOT, 'Support Bot', 'run', {
        my_price: '0.5000',
        book_price: '0.7500',
        children_price: '0.7500',
        margin: '0.2500',
        floored: false,
      }),
      item(ETL, 'Nightly ETL', '1k rows', {
        my_price: '0.0200',
        book_price: '0.0150',
        children_price: '0.0200',
        margin: '0.0000',
        floored: true,
      }),
      item(CRM, 'CRM Sync', 'sync', { my_price: '1.0000', book_price: null, children_price: '1.0000', margin: '0.0000', floored: false }),
    ],
    ...overrides,
  };
}

/** A page of two changes, of three in all (two pages). */
const history = (page: number) => ({
  items: [
    {
      id: '00000000-0000-4000-8000-0000000000d1',
      agent_type: { id: BOT, code: 'support-bot', name: 'Support Bot' },
      child: null,
      price: '0.7500',
      effective_from: '2026-11-20T10:00:00.000Z',
      changed_by: 'Alice Admin',
    },
    {
      id: '00000000-0000-4000-8000-0000000000d2',
      agent_type: { id: CRM, code: 'crm-sync', name: 'CRM Sync' },
      child: null,
      price: null,
      effective_from: '2026-11-19T10:00:00.000Z',
      changed_by: null,
    },
  ],
  total: 3,
  page,
  page_size: 2,
});

/** Answers the book, its history and a price change (`put`); anything else the shell asks is not found. */
function showPricing(
  options: {
    role?: string;
    orgType?: 'house' | 'super_agency' | 'agency' | 'tenant';
    book?: PriceBook;
    put?: (call: ApiCall) => Response;
  } = {},
) {
  const session = makeSession({ role: options.role ?? 'agency_admin', orgType: options.orgType ?? 'agency' });
  const api = mockApi((call) => {
    const key = `${call.method} ${call.path}`;
    if (key === BOOK) return json(200, options.book ?? book());
    if (key === HISTORY) return json(200, history(Number(call.query.page ?? 1)));
    if (key === `GET /api/organizations/${OWN_ORG_ID}/prices/paid`)
      return json(200, {
        items: [
          {
            agent_type: { id: CRM, code: 'crm-sync', name: 'CRM Sync' },
            before: '0.0200',
            after: '0.0300',
            effective_from: '2026-11-20T09:00:00.000Z',
            set_by: null,
          },
          {
            agent_type: { id: CRM, code: 'crm-sync', name: 'CRM Sync' },
            before: '0.0100',
            after: '0.0200',
            effective_from: '2026-11-18T09:00:00.000Z',
            set_by: { id: '00000000-0000-4000-8000-0000000000c9', name: 'Northwind Partners' },
          },
        ],
      });
    if (key === `GET /api/organizations/${OWN_ORG_ID}/prices/children`)
      return json(200, { organization_id: OWN_ORG_ID, can_edit: false, children: [], items: [] });
    if (key === SET_BOT && options.put) return options.put(call);
    if (key === 'GET /api/users/me') return json(200, session.user);
    return undefined;
  });
  renderApp('/pricing', { session });
  return api;
}

const table = () => screen.findByRole('table', { name: p.tableLabel });
const rowOf = async (name: string) => (await within(await table()).findByText(name)).closest('tr') as HTMLElement;

describe('pricing page', { timeout: 30_000 }, () => {
  beforeAll(() => Promise.all([import('./pricing-page'), import('@/app/shell/app-shell')]), 30_000);

  it('shows a seller the changes of what it pays, by the organization above it or the catalog, newest first', async () => {
    showPricing();
    const paid = await screen.findByRole('table', { name: p.paidLabel });
    const rows = within(paid).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['CRM Sync', '0.02 credits', '0.03 credits', expect.any(String), p.paidByCatalog],
      ['CRM Sync', '0.01 credits', '0.02 credits', expect.any(String), 'Northwind Partners'],
    ]);
  });

  it('lists every agent type with what the organization pays, what its children pay and its margin, and the floored badge', async () => {
    showPricing();
    const prices = await table();
    expect(
      within(prices)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual([p.agent, p.yourPrice, p.childrenPay, p.margin, p.actions]);
    const bot = await rowOf('Support Bot');
    expect(within(bot).getByText('0.5 credits per run')).toBeInTheDocument();
    expect(within(bot).getByText('0.75 credits per run')).toBeInTheDocument();
    // The margin with its unit, as the prices beside it.
    expect(within(bot).getByText('0.25 credits per run')).toBeInTheDocument();
    expect(within(bot).queryByText('0.25')).not.toBeInTheDocument();
    expect(within(bot).queryByText(p.floored)).not.toBeInTheDocument();
    const etl = await rowOf('Nightly ETL');
    expect(within(etl).getByText(p.floored)).toBeInTheDocument();
    expect(within(etl).getByText(p.flooredNote('0.015 credits per 1k rows'))).toBeInTheDocument();
    expect(within(await rowOf('CRM Sync')).getByText(p.passThroughNote)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: p.editLabel('Support Bot') })).toBeInTheDocument();
    // The history, newest first, with who and when.
    const changes = await screen.findByRole('table', { name: p.historyLabel });
    const rows = within(changes).getAllByRole('row').slice(1);
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['Support Bot', '0.75 credits', formatDateTime('2026-11-20T10:00:00.000Z'), 'Alice Admin']);
    expect(within(rows[1]!).getByText(p.passThrough)).toBeInTheDocument();
    expect(within(rows[1]!).getByText(p.someone)).toBeInTheDocument();
  });

  it('pages through the history', async () => {
    const api = showPricing();
    await screen.findByText(p.pageOf(1, 2));
    await userEvent.setup().click(screen.getByRole('button', { name: p.nextPage }));
    await screen.findByText(p.pageOf(2, 2));
    expect(api.queriesOf(HISTORY).map((query) => query.page)).toEqual(['1', '2']);
    expect(screen.getByRole('button', { name: p.nextPage })).toBeDisabled();
  });

  it('shows the cards at 390 px, with the badge and Edit', async () => {
    setViewportWidth(390);
    showPricing();
    const list = await screen.findByRole('list', { name: p.tableLabel });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);
    expect(within(list).getByText(p.floored)).toBeInTheDocument();
    expect(within(list).getByRole('button', { name: p.editLabel('Support Bot') })).toBeInTheDocument();
  });

  it('Edit sends the typed price, shows the margin as it is typed, and asks for the book again', async () => {
    const api = showPricing({ put: () => json(200, { item: book().items[0] }) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: p.editLabel('Support Bot') }));
    const dialog = await screen.findByRole('dialog', { name: p.editTitle('Support Bot') });
    const input = within(dialog).getByLabelText(p.priceLabel('run'));
    expect(input).toHaveValue('0.75');
    await user.clear(input);
    await user.type(input, '0.9');
    expect(within(dialog).getByTestId('margin-preview')).toHaveTextContent(p.marginPreview('0.4'));
    await user.click(within(dialog).getByRole('button', { name: p.save }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.bodiesOf(SET_BOT)).toEqual([{ price: '0.9000' }]);
    expect(await screen.findByText(p.saved('Support Bot'))).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo(BOOK).length).toBeGreaterThan(1));
  });

  it('refuses a price below the own one as it is typed, in one message with the price as the page shows it, and sends nothing', async () => {
    const api = showPricing({ put: () => json(200, { item: book().items[0] }) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: p.editLabel('Support Bot') }));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByLabelText(p.priceLabel('run'));
    await user.clear(input);
    await user.type(input, '0.4');
    // Before any Save: the field says it, once, and no margin is offered.
    await waitFor(() => expect(input).toHaveAccessibleDescription(expect.stringContaining(p.belowOwn('0.5 credits per run'))));
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog).getAllByText(/below your own price/)).toHaveLength(1);
    expect(within(dialog).getByTestId('margin-preview')).toHaveTextContent('');
    await user.click(within(dialog).getByRole('button', { name: p.save }));
    expect(within(dialog).getAllByText(/below your own price/)).toHaveLength(1);
    expect(api.callsTo(SET_BOT)).toHaveLength(0);
  });

  it('says as it is typed that a value is not a price', async () => {
    showPricing();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: p.editLabel('Support Bot') }));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByLabelText(p.priceLabel('run'));
    await user.clear(input);
    await user.type(input, '0.7x');
    await waitFor(() => expect(input).toHaveAccessibleDescription(expect.stringContaining('at most 4 decimal places')));
    expect(input).toHaveAttribute('aria-invalid', 'true');
    await user.type(input, '{Backspace}');
    await waitFor(() => expect(input).not.toHaveAttribute('aria-invalid', 'true'));
    expect(within(dialog).getByTestId('margin-preview')).toHaveTextContent(p.marginPreview('0.2'));
  });

  it("shows the server's refusal (the own price rose meanwhile) in the form", async () => {
    const refusal = MESSAGES.pricing.belowOwnPrice('0.7000');
    const api = showPricing({ put: () => apiError(422, 'below_own_price', refusal) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: p.editLabel('Support Bot') }));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByLabelText(p.priceLabel('run'));
    await user.clear(input);
    await user.type(input, '0.6');
    await user.click(within(dialog).getByRole('button', { name: p.save }));
    expect(await within(dialog).findByText(refusal)).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(api.bodiesOf(SET_BOT)).toEqual([{ price: '0.6000' }]);
  });

  it('checks the price before sending it', async () => {
    const api = showPricing({ put: () => json(200, { item: book().items[0] }) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: p.editLabel('Support Bot') }));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByLabelText(p.priceLabel('run'));
    await user.clear(input);
    await user.type(input, '0.12345');
    await user.click(within(dialog).getByRole('button', { name: p.save }));
    expect(await within(dialog).findByText(/at most 4 decimal places/)).toBeInTheDocument();
    expect(api.callsTo(SET_BOT)).toHaveLength(0);
  });

  it('Pass my price through sends null', async () => {
    const api = showPricing({ put: () => json(200, { item: book().items[0] }) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: p.editLabel('Support Bot') }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('switch', { name: p.passThroughLabel }));
    expect(within(dialog).queryByLabelText(p.priceLabel('run'))).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: p.save }));
    await waitFor(() => expect(api.bodiesOf(SET_BOT)).toEqual([{ price: null }]));
  });

  it("an agency user sees the page from the menu, but no Edit (the server's can_edit)", async () => {
    showPricing({ role: 'agency_user', book: book({ can_edit: false }) });
    const menu = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(menu).getByRole('link', { name: MESSAGES.shell.nav.pricing })).toHaveAttribute('href', '/pricing');
    const prices = await table();
    expect(within(prices).getAllByRole('columnheader')).toHaveLength(4);
    expect(screen.queryByRole('button', { name: /Edit/ })).not.toBeInTheDocument();
  });

  it('an agency admin finds Pricing in the menu', async () => {
    showPricing();
    const menu = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(menu).getByRole('link', { name: MESSAGES.shell.nav.pricing })).toBeInTheDocument();
  });

  it('a tenant has no Pricing in the menu and is sent to the dashboard', async () => {
    const api = showPricing({ role: 'tenant_admin', orgType: 'tenant' });
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent(/^\/dashboard$/));
    const menu = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(menu).queryByRole('link', { name: MESSAGES.shell.nav.pricing })).not.toBeInTheDocument();
    expect(api.callsTo(BOOK)).toHaveLength(0);
  });

  it('the house: its children pay the catalog, with the way to the catalog for its admins, and no margin', async () => {
    const house = book({
      catalog: true,
      can_edit: false,
      items: [
        item(BOT, 'Support Bot', 'run', { my_price: '0.5000', book_price: null, children_price: '0.5000', margin: null, floored: false }),
      ],
    });
    showPricing({ role: 'house_admin', orgType: 'house', book: house });
    expect(await screen.findByText(p.catalogNote)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: p.openCatalog })).toHaveAttribute('href', '/agent-catalog');
    expect(within(await table()).queryByRole('columnheader', { name: p.margin })).not.toBeInTheDocument();
  });

  it('says so when no agent type has a price', async () => {
    showPricing({ book: book({ items: [] }) });
    expect(await screen.findByText(p.empty)).toBeInTheDocument();
  });
});
