import type { ChildPrices, PriceBook } from '@console/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiError, json, makeSession, mockApi, OWN_ORG_ID, renderApp, type ApiCall } from '@/test/helpers';
import { MESSAGES } from '../wording';

const p = MESSAGES.pricingPages;
const BOT = '00000000-0000-4000-8000-0000000000a1';
const CHILD = '00000000-0000-4000-8000-0000000000c1';
const SIBLING = '00000000-0000-4000-8000-0000000000c2';
const LIST = `GET /api/organizations/${OWN_ORG_ID}/prices/children`;
const ONE = `/api/organizations/${OWN_ORG_ID}/prices/children/${CHILD}/${BOT}`;
const SIBLING_ONE = `/api/organizations/${OWN_ORG_ID}/prices/children/${SIBLING}/${BOT}`;

const BOOK: PriceBook = {
  organization_id: OWN_ORG_ID,
  catalog: false,
  can_edit: true,
  items: [
    {
      agent_type: { id: BOT, code: 'support-bot', name: 'Support Bot', unit: 'run', status: 'active' },
      my_price: '0.5000',
      book_price: '0.7500',
      children_price: '0.7500',
      margin: '0.2500',
      floored: false,
    },
  ],
};

function childPrices(overrides: Partial<ChildPrices> = {}): ChildPrices {
  return {
    organization_id: OWN_ORG_ID,
    can_edit: true,
    children: [
      { id: CHILD, name: 'Acme Dental' },
      { id: SIBLING, name: 'Bright Smiles' },
    ],
    items: [
      {
        child: { id: CHILD, name: 'Acme Dental' },
        agent_type: { id: BOT, code: 'support-bot', name: 'Support Bot', unit: 'run', status: 'active' },
        price: '0.6000',
        child_pays: '0.6000',
        my_price: '0.5000',
        floored: false,
        effective_from: '2026-11-20T10:00:00.000Z',
      },
    ],
    ...overrides,
  };
}

/** Two changes of a child price: set, then removed. */
const HISTORY_ITEMS = [
  {
    id: '00000000-0000-4000-8000-0000000000d1',
    agent_type: { id: BOT, code: 'support-bot', name: 'Support Bot' },
    child: { id: CHILD, name: 'Acme Dental' },
    price: null,
    effective_from: '2026-11-21T10:00:00.000Z',
    changed_by: 'Alice Admin',
  },
  {
    id: '00000000-0000-4000-8000-0000000000d2',
    agent_type: { id: BOT, code: 'support-bot', name: 'Support Bot' },
    child: { id: CHILD, name: 'Acme Dental' },
    price: '0.6000',
    effective_from: '2026-11-20T10:00:00.000Z',
    changed_by: 'Alice Admin',
  },
];

function show(options: { role?: string; list?: ChildPrices; write?: (call: ApiCall) => Response } = {}) {
  const session = makeSession({ role: options.role ?? 'agency_admin', orgType: 'agency' });
  const api = mockApi((call) => {
    const key = `${call.method} ${call.path}`;
    if (key === `GET /api/organizations/${OWN_ORG_ID}/prices`) return json(200, BOOK);
    if (key === `GET /api/organizations/${OWN_ORG_ID}/prices/history`)
      return json(200, { items: HISTORY_ITEMS, total: 2, page: 1, page_size: 20 });
    if (key === LIST) return json(200, options.list ?? childPrices());
    if ((call.method === 'PUT' || call.method === 'DELETE') && options.write) return options.write(call);
    if (key === 'GET /api/users/me') return json(200, session.user);
    return undefined;
  });
  renderApp('/pricing', { session });
  return api;
}

const table = () => screen.findByRole('table', { name: p.childPricesLabel });

describe('prices for one child on the pricing page', { timeout: 30_000 }, () => {
  beforeAll(() => Promise.all([import('./pricing-page'), import('@/app/shell/app-shell')]), 30_000);

  it('lists each child price with what the child pays, and Set, Edit and Remove for those the server lets', async () => {
    show();
    const rows = within(await table())
      .getAllByRole('row')
      .slice(1);
    expect(
      within(rows[0]!)
        .getAllByRole('cell')
        .slice(0, 4)
        .map((td) => td.textContent),
    ).toEqual(['Acme Dental', 'Support Bot', '0.6 credits per run', '0.6 credits per run']);
    expect(screen.getByRole('button', { name: p.editChildLabel('Acme Dental', 'Support Bot') })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: `${p.removeChildPrice} Support Bot Acme Dental` })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: p.setChildPrice })).toBeInTheDocument();
  });

  it('shows the list but no way to change it when the server says the viewer may not', async () => {
    show({ role: 'agency_user', list: childPrices({ can_edit: false }) });
    await table();
    expect(screen.queryByRole('button', { name: p.setChildPrice })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: p.editChildLabel('Acme Dental', 'Support Bot') })).not.toBeInTheDocument();
  });

  it('sets a price for a chosen child and agent, and asks for the list again', async () => {
    const api = show({ write: () => json(200, childPrices()) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: p.setChildPrice }));
    const dialog = await screen.findByRole('dialog', { name: p.childPriceTitle });
    await user.selectOptions(within(dialog).getByLabelText(p.childLabel), 'Bright Smiles');
    await user.selectOptions(within(dialog).getByLabelText(p.agentLabel), 'Support Bot');
    await user.type(within(dialog).getByLabelText(p.priceLabel('run')), '0.8');
    expect(within(dialog).getByTestId('child-margin-preview')).toHaveTextContent(p.marginPreview('0.3'));
    await user.click(within(dialog).getByRole('button', { name: p.save }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.bodiesOf(`PUT ${SIBLING_ONE}`)).toEqual([{ price: '0.8000' }]);
    expect(await screen.findByText(p.childPriceSaved('Bright Smiles'))).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo(LIST).length).toBeGreaterThan(1));
  });

  it('refuses a price below the own one under the field as it is typed, and sends nothing', async () => {
    const api = show({ write: () => json(200, childPrices()) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: p.editChildLabel('Acme Dental', 'Support Bot') }));
    const dialog = await screen.findByRole('dialog', { name: p.childPriceEditTitle('Acme Dental', 'Support Bot') });
    const input = within(dialog).getByLabelText(p.priceLabel('run'));
    expect(input).toHaveValue('0.6');
    await user.clear(input);
    await user.type(input, '0.4');
    await waitFor(() => expect(input).toHaveAccessibleDescription(expect.stringContaining(p.belowOwn('0.5 credits per run'))));
    expect(within(dialog).getAllByText(/below your own price/)).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: p.save }));
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo(`PUT ${ONE}`)).toHaveLength(0);
  });

  it("shows the server's refusal (the own price rose meanwhile) under the field", async () => {
    const refusal = MESSAGES.pricing.childBelowOwnPrice('0.7000');
    const api = show({ write: () => apiError(422, 'below_own_price', refusal) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: p.editChildLabel('Acme Dental', 'Support Bot') }));
    const dialog = await screen.findByRole('dialog', { name: p.childPriceEditTitle('Acme Dental', 'Support Bot') });
    const input = within(dialog).getByLabelText(p.priceLabel('run'));
    await user.clear(input);
    await user.type(input, '0.65');
    await user.click(within(dialog).getByRole('button', { name: p.save }));
    expect(await within(dialog).findByText(refusal)).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(api.bodiesOf(`PUT ${ONE}`)).toEqual([{ price: '0.6500' }]);
  });

  it('names the child in the history, and a removal as the way back to the price for all children', async () => {
    show();
    const changes = await screen.findByRole('table', { name: p.historyLabel });
    const rows = within(changes).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText(p.historyForChild('Acme Dental'))).toBeInTheDocument();
    expect(within(rows[0]!).getByText(p.historyBookAgain)).toBeInTheDocument();
    expect(within(rows[1]!).getByText('0.6 credits')).toBeInTheDocument();
  });

  it('removes a child price once confirmed', async () => {
    const api = show({ write: () => json(200, childPrices({ items: [] })) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `${p.removeChildPrice} Support Bot Acme Dental` }));
    const confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: p.removeChildPrice }));
    await waitFor(() => expect(api.callsTo(`DELETE ${ONE}`)).toHaveLength(1));
    expect(await screen.findByText(p.childPriceRemoved('Acme Dental'))).toBeInTheDocument();
  });
});
