import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { formatDateTime } from '@/lib/dates';
import { MESSAGES } from '../wording';
import { OWN_ORG_ID } from '@/test/billing-data';
import { CHAT, grantListOf, grantOf, inDays, VOICE } from '@/test/grant-data';
import { json, mockApi, renderWithProviders, setViewportWidth } from '@/test/helpers';
import { CreditGrantsCard } from './credit-grants-card';

const w = MESSAGES.grantPages.list;
const GRANTS = `GET /api/organizations/${OWN_ORG_ID}/credit-grants`;
const SOON = inDays(1);
const LATER = inDays(30);

const promo = grantOf({
  id: '00000000-0000-4000-9000-00000000a002',
  amount: '100.00',
  remaining: '60.00',
  agent_types: [VOICE],
  priority: 50,
  expires_at: LATER,
});
const trial = grantOf({ id: '00000000-0000-4000-9000-00000000a003', amount: '20.00', remaining: '20.00', expires_at: SOON });
const expired = grantOf({
  id: '00000000-0000-4000-9000-00000000a004',
  amount: '10.00',
  remaining: '0.00',
  expires_at: inDays(-2),
  expired_at: inDays(-2),
});
const parts = {
  total: '230.00',
  open: '150.00',
  spendable: [
    { ...VOICE, amount: '230.00' },
    { ...CHAT, amount: '170.00' },
  ],
  soonest_expiry: { at: SOON, amount: '20.00' },
};

function mockGrants() {
  return mockApi({
    [GRANTS]: (call) => json(200, grantListOf(parts, call.query.all === 'true' ? [trial, promo, expired] : [trial, promo])),
  });
}

describe('Credit grants card', { timeout: 20_000 }, () => {
  it('lists the grants in the order they are drawn, with what each agent type can spend now', async () => {
    setViewportWidth(1280);
    const api = mockGrants();
    renderWithProviders(<CreditGrantsCard organizationId={OWN_ORG_ID} />);
    const table = await screen.findByRole('table', { name: w.label });
    const [head, first, second] = within(table).getAllByRole('row');
    expect(head).toHaveTextContent(`${w.amount}${w.remaining}${w.agents}${w.priority}${w.expires}${w.from}`);
    // Priority 50 is drawn before the trial that expires sooner.
    expect(first).toHaveTextContent(`100.0060.00${VOICE.name}50${formatDateTime(LATER)}Northwind Agency`);
    expect(second).toHaveTextContent(`20.0020.00${MESSAGES.grantPages.terms.everyAgent}0${formatDateTime(SOON)}`);
    const spendable = screen.getByRole('list', { name: w.spendableLabel });
    expect(
      within(spendable)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([`${VOICE.name}230.00 credits`, `${CHAT.name}170.00 credits`]);
    expect(screen.getByText(w.openRow('150.00 credits'))).toBeInTheDocument();
    expect(api.queriesOf(GRANTS)).toEqual([{ all: 'false' }]);
  });

  it('shows the used-up and expired grants too when asked', async () => {
    setViewportWidth(1280);
    const api = mockGrants();
    renderWithProviders(<CreditGrantsCard organizationId={OWN_ORG_ID} />);
    await screen.findByRole('table', { name: w.label });
    await userEvent.setup().click(screen.getByRole('switch', { name: w.showAll }));
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(4));
    expect(screen.getAllByRole('row')[3]).toHaveTextContent(w.expired(formatDateTime(expired.expired_at)));
    expect(api.queriesOf(GRANTS).at(-1)).toEqual({ all: 'true' });
  });

  it('is a list of cards at 390 px, every figure named', async () => {
    setViewportWidth(390);
    mockGrants();
    renderWithProviders(<CreditGrantsCard organizationId={OWN_ORG_ID} />);
    const list = await screen.findByRole('list', { name: w.label });
    const [first] = within(list).getAllByRole('listitem');
    expect(first).toHaveTextContent(`${w.remaining}60.00`);
    expect(first).toHaveTextContent(`${w.agents}${VOICE.name}`);
    expect(first).toHaveTextContent(`${w.from}Northwind Agency`);
  });

  it('says so when every credit is open', async () => {
    setViewportWidth(1280);
    mockApi({ [GRANTS]: () => json(200, grantListOf()) });
    renderWithProviders(<CreditGrantsCard organizationId={OWN_ORG_ID} />);
    expect(await screen.findByText(w.empty)).toBeInTheDocument();
    expect(screen.getByText(w.noAgents)).toBeInTheDocument();
  });
});
