import { adjustmentSchema, GRANT_MESSAGES } from '@console/domain';
import { configure, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { format } from 'date-fns';
import { beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '@/test/agent-data';
import { entry, ledgerPage } from '@/test/credit-data';
import { json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { MESSAGES } from '../wording';

const p = MESSAGES.creditPages;
const t = MESSAGES.grantPages.terms;
const ADJUST = 'POST /api/credits/adjustments';
const houseAdmin = () => makeSession({ role: 'house_admin', orgType: 'house', orgName: 'House' });
const added = entry({
  entry_type: 'adjustment_increase',
  amount: '500.00',
  balance_after: '1500.00',
  metadata: { reason: 'Trial credits' },
});

function openDialog() {
  const api = mockApi({
    'GET /api/credits/ledger': () => json(200, ledgerPage([])),
    'GET /api/agent-types': () => json(200, catalog()),
    [ADJUST]: () => json(200, { entry: added }),
  });
  renderApp('/credit-ledger', { session: houseAdmin() });
  return api;
}

describe("the house's adjustment with terms", { timeout: 60_000 }, () => {
  beforeAll(async () => {
    configure({ asyncUtilTimeout: 15_000 });
    await Promise.all([import('@/features/credits/pages/credit-ledger-page'), import('@/app/shell/app-shell')]);
  });

  it('sends the terms of credits added, checked by the domain first', async () => {
    const { bodiesOf, callsTo } = openDialog();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: p.adjustBalance }));
    const dialog = await screen.findByRole('dialog', { name: p.adjustBalance });
    await user.type(within(dialog).getByLabelText('Amount'), '500');
    await user.type(within(dialog).getByLabelText('Reason'), 'Trial credits');
    await user.click(within(dialog).getByRole('button', { name: t.add }));
    fireEvent.change(within(dialog).getByLabelText(t.expiresAt), { target: { value: '2001-01-01T10:00' } });
    await user.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    expect(await within(dialog).findByText(GRANT_MESSAGES.expiryInPast)).toBeInTheDocument();
    expect(callsTo(ADJUST)).toHaveLength(0);

    const local = format(new Date(Date.now() + 7 * 86_400_000), "yyyy-MM-dd'T'HH:mm");
    fireEvent.change(within(dialog).getByLabelText(t.expiresAt), { target: { value: local } });
    await user.type(within(dialog).getByLabelText(t.priority), '10');
    await user.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    expect(await screen.findByText(p.adjusted)).toBeInTheDocument();
    const [body] = bodiesOf(ADJUST);
    expect(body).toEqual({
      direction: 'increase',
      amount: '500.00',
      reason: 'Trial credits',
      terms: { expires_at: new Date(local).toISOString(), agent_types: null, priority: 10 },
    });
    expect(adjustmentSchema.safeParse(body).success).toBe(true);
  });

  it('offers no terms on a decrease, and drops those set before', async () => {
    const { bodiesOf } = openDialog();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: p.adjustBalance }));
    const dialog = await screen.findByRole('dialog', { name: p.adjustBalance });
    await user.click(within(dialog).getByRole('button', { name: t.add }));
    await user.type(within(dialog).getByLabelText(t.priority), '10');
    await user.click(within(dialog).getByLabelText('Decrease'));
    expect(within(dialog).queryByRole('button', { name: t.add })).not.toBeInTheDocument();
    expect(within(dialog).queryByLabelText(t.priority)).not.toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Amount'), '5');
    await user.type(within(dialog).getByLabelText('Reason'), 'Correction');
    await user.click(within(dialog).getByRole('button', { name: 'Save adjustment' }));
    expect(await screen.findByText(p.adjusted)).toBeInTheDocument();
    expect(bodiesOf(ADJUST)[0]).toEqual({ direction: 'decrease', amount: '5.00', reason: 'Correction' });
  });
});
