import type { SpendControls } from '@console/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiError, json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { billingOf, OTHER_ORG_ID, OWN_ORG_ID, organizationOf, spendControlsOf } from '@/test/billing-data';
import { formatDateTime } from '@/lib/dates';
import { MESSAGES } from '../wording';

const s = MESSAGES.spendPages;
const PATH = `/api/organizations/${OTHER_ORG_ID}/spend-controls`;

const capped = spendControlsOf({
  organization_id: OTHER_ORG_ID,
  spend_cap: { cap: '500.00', month: '2025-03', charged: '450.00' },
  top_up: { below: '100.00', amount: '50.00', monthly_max: '200.00', terms: null },
  topped_up_this_month: '50.00',
  last_top_up: { at: '2025-03-10T12:00:00.000Z', outcome: 'parent_short' },
  can_edit: true,
});

/** A direct child tenant of the viewer's agency, with the given spend controls; `put` answers the save. */
function mockChild(controls: SpendControls, put: () => Response = () => json(200, controls)) {
  return mockApi({
    [`GET /api/organizations/${OTHER_ORG_ID}`]: () =>
      json(200, {
        organization: {
          ...organizationOf({ id: OTHER_ORG_ID, type: 'tenant', name: 'Acme Dental' }),
          ancestors: [{ id: OWN_ORG_ID, name: 'Northwind' }],
        },
      }),
    [`GET /api/organizations/${OTHER_ORG_ID}/billing`]: () => json(200, billingOf({ id: OTHER_ORG_ID })),
    [`GET ${PATH}`]: () => json(200, controls),
    [`PUT ${PATH}`]: put,
  });
}

const session = () => makeSession({ role: 'agency_admin', orgType: 'agency' });

async function openEdit() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: s.editAria }));
  return { user, dialog: await screen.findByRole('dialog') };
}

beforeAll(() => Promise.all([import('@/app/shell/app-shell'), import('../pages/billing-page')]), 30_000);

describe('spend controls card', { timeout: 20_000 }, () => {
  it('shows the cap with its month and bar, the top-up rule with the parent, this month and the last outcome', async () => {
    mockChild(capped);
    renderApp(`/orgs/${OTHER_ORG_ID}/billing`, { session: session() });
    expect(await screen.findByTestId('spend-cap-charged')).toHaveTextContent(s.chargedOf('450.00 credits', '500.00 credits', '2025-03'));
    const bar = screen.getByRole('progressbar', { name: s.capUsedPercent(90) });
    expect(bar).toHaveAttribute('aria-valuenow', '90');
    expect(bar.firstElementChild).toHaveClass('bg-amber-500');
    expect(screen.getByTestId('top-up-rule')).toHaveTextContent(
      s.topUpRule('100.00 credits', '50.00 credits', 'Northwind', '200.00 credits'),
    );
    expect(screen.getByText(s.toppedUpThisMonth('50.00 credits'))).toBeInTheDocument();
    expect(screen.getByTestId('last-top-up')).toHaveTextContent(
      s.lastTopUp(formatDateTime('2025-03-10T12:00:00.000Z'), s.outcomes.parent_short),
    );
  });

  it('says No cap and No automatic top-up, with no Edit when the viewer may not change them', async () => {
    mockChild(spendControlsOf({ organization_id: OTHER_ORG_ID }));
    renderApp(`/orgs/${OTHER_ORG_ID}/billing`, { session: session() });
    expect(await screen.findByText(s.noTopUp)).toBeInTheDocument();
    expect(screen.getByText(s.noCap)).toBeInTheDocument();
    expect(screen.queryByRole('progressbar', { name: /monthly cap/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: s.editAria })).not.toBeInTheDocument();
  });

  it('turns the bar red at the cap', async () => {
    mockChild({ ...capped, spend_cap: { cap: '500.00', month: '2025-03', charged: '500.00' } });
    renderApp(`/orgs/${OTHER_ORG_ID}/billing`, { session: session() });
    const bar = await screen.findByRole('progressbar', { name: s.capUsedPercent(100) });
    expect(bar.firstElementChild).toHaveClass('bg-destructive');
  });

  it('saves a changed cap and top-up', async () => {
    const api = mockChild(capped);
    renderApp(`/orgs/${OTHER_ORG_ID}/billing`, { session: session() });
    const { user, dialog } = await openEdit();
    const cap = within(dialog).getByLabelText(s.capLabel);
    await user.clear(cap);
    await user.type(cap, '750');
    const amount = within(dialog).getByLabelText(s.amountLabel);
    await user.clear(amount);
    await user.type(amount, '75.5');
    // A day cap beside the month's; the week's stays empty (none).
    await user.type(within(dialog).getByLabelText(s.dailySpendCapLabel), '40');
    await user.click(within(dialog).getByRole('button', { name: s.save }));
    await waitFor(() => expect(api.callsTo(`PUT ${PATH}`)).toHaveLength(1));
    expect(api.callsTo(`PUT ${PATH}`)[0]?.body).toEqual({
      spend_cap: '750.00',
      weekly_spend_cap: null,
      daily_spend_cap: '40.00',
      top_up: { below: '100.00', amount: '75.50', monthly_max: '200.00', terms: null },
    });
    // The save ends after the billing queries it refreshes: on a loaded machine that outlasts the default wait.
    expect(await screen.findByText(s.saved, undefined, { timeout: 15_000 })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("sends the top-up's terms: its credits expire after the days given, at the priority given", async () => {
    const api = mockChild(capped);
    renderApp(`/orgs/${OTHER_ORG_ID}/billing`, { session: session() });
    const { user, dialog } = await openEdit();
    await user.type(within(dialog).getByLabelText(s.topUpExpiryLabel), '30');
    await user.type(within(dialog).getByLabelText(s.topUpPriorityLabel), '5');
    await user.click(within(dialog).getByRole('button', { name: s.save }));
    await waitFor(() => expect(api.callsTo(`PUT ${PATH}`)).toHaveLength(1));
    expect(api.callsTo(`PUT ${PATH}`)[0]?.body).toMatchObject({
      top_up: {
        below: '100.00',
        amount: '50.00',
        monthly_max: '200.00',
        terms: { expires_after_days: 30, priority: 5, agent_types: null },
      },
    });
  });

  it('sends null for an empty cap and a switched-off top-up', async () => {
    const api = mockChild(capped);
    renderApp(`/orgs/${OTHER_ORG_ID}/billing`, { session: session() });
    const { user, dialog } = await openEdit();
    await user.clear(within(dialog).getByLabelText(s.capLabel));
    await user.click(within(dialog).getByRole('switch', { name: s.topUpSwitch }));
    expect(within(dialog).queryByLabelText(s.belowLabel)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: s.save }));
    await waitFor(() => expect(api.callsTo(`PUT ${PATH}`)).toHaveLength(1));
    expect(api.callsTo(`PUT ${PATH}`)[0]?.body).toEqual({ spend_cap: null, weekly_spend_cap: null, daily_spend_cap: null, top_up: null });
  });

  it('shows field errors from the schema and sends nothing', async () => {
    const api = mockChild(capped);
    renderApp(`/orgs/${OTHER_ORG_ID}/billing`, { session: session() });
    const { user, dialog } = await openEdit();
    const cap = within(dialog).getByLabelText(s.capLabel);
    await user.clear(cap);
    await user.type(cap, '-5');
    const amount = within(dialog).getByLabelText(s.amountLabel);
    await user.clear(amount);
    await user.type(amount, '300');
    await user.click(within(dialog).getByRole('button', { name: s.save }));
    expect(await within(dialog).findByText(MESSAGES.spend.capInvalid)).toBeInTheDocument();
    expect(within(dialog).getByText(MESSAGES.spend.topUpAboveMonthlyMax)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(s.amountLabel)).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo(`PUT ${PATH}`)).toHaveLength(0);
  });

  it("speaks of the top-up's line when the line is not an amount, and says what is missing in an empty field", async () => {
    const api = mockChild(capped);
    renderApp(`/orgs/${OTHER_ORG_ID}/billing`, { session: session() });
    const { user, dialog } = await openEdit();
    const below = within(dialog).getByLabelText(s.belowLabel);
    await user.clear(below);
    await user.type(below, '-5');
    await user.click(within(dialog).getByRole('button', { name: s.save }));
    await waitFor(() => expect(below).toHaveAccessibleDescription(expect.stringContaining(MESSAGES.spend.topUpLineInvalid)));
    expect(within(dialog).queryByText(MESSAGES.spend.capInvalid)).not.toBeInTheDocument();

    await user.clear(below);
    await user.clear(within(dialog).getByLabelText(s.amountLabel));
    await user.clear(within(dialog).getByLabelText(s.monthlyMaxLabel));
    await user.click(within(dialog).getByRole('button', { name: s.save }));
    await waitFor(() => expect(below).toHaveAccessibleDescription(expect.stringContaining(s.topUpMissing.below)));
    expect(within(dialog).getByLabelText(s.amountLabel)).toHaveAccessibleDescription(expect.stringContaining(s.topUpMissing.amount));
    expect(within(dialog).getByLabelText(s.monthlyMaxLabel)).toHaveAccessibleDescription(
      expect.stringContaining(s.topUpMissing.monthly_max),
    );
    expect(within(dialog).queryByText(MESSAGES.credits.amountInvalid)).not.toBeInTheDocument();
    expect(api.callsTo(`PUT ${PATH}`)).toHaveLength(0);
  });

  it('says before saving that a line above the balance moves credits at once, and saves only when asked again', async () => {
    // The child holds 250.00 (billingOf): a line of 300 tops it up as soon as the rule is saved.
    const api = mockChild(capped);
    renderApp(`/orgs/${OTHER_ORG_ID}/billing`, { session: session() });
    const { user, dialog } = await openEdit();
    const below = within(dialog).getByLabelText(s.belowLabel);
    await user.clear(below);
    await user.type(below, '300');
    await user.click(within(dialog).getByRole('button', { name: s.save }));
    const warning = await within(dialog).findByRole('status');
    expect(warning).toHaveTextContent(s.topUpNowTitle);
    expect(warning).toHaveTextContent(s.topUpNow('Acme Dental', '250.00 credits', '300.00 credits', '50.00 credits'));
    expect(api.callsTo(`PUT ${PATH}`)).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: s.saveAndTopUp }));
    await waitFor(() => expect(api.callsTo(`PUT ${PATH}`)).toHaveLength(1));
    expect(api.callsTo(`PUT ${PATH}`)[0]?.body).toMatchObject({ top_up: { below: '300.00', amount: '50.00', monthly_max: '200.00' } });
  });

  it("shows the server's refusal in the dialog", async () => {
    mockChild(capped, () => apiError(422, 'validation_failed', 'The child is not active.'));
    renderApp(`/orgs/${OTHER_ORG_ID}/billing`, { session: session() });
    const { user, dialog } = await openEdit();
    await user.click(within(dialog).getByRole('button', { name: s.save }));
    expect(await within(dialog).findByText('The child is not active.')).toBeInTheDocument();
    expect(within(dialog).getByText(s.saveFailed)).toBeInTheDocument();
  });
  it("lists the month's top-ups with what each was for, and reverses one the server lets the viewer take back", async () => {
    const made = '00000000-0000-4000-9000-0000000000a1';
    let reversed = false;
    const controls = () =>
      spendControlsOf({
        ...capped,
        top_ups: [
          {
            at: '2025-03-12T09:00:00.000Z',
            reason: 'crossed',
            balance: '10.00',
            refused: null,
            outcome: 'monthly_max',
            amount: null,
            transaction_id: null,
            reversed_by: null,
            can_reverse: false,
          },
          {
            at: '2025-03-11T09:00:00.000Z',
            reason: 'refused',
            balance: '50.00',
            refused: '120.00',
            outcome: 'topped_up',
            amount: '50.00',
            transaction_id: made,
            reversed_by: reversed ? '00000000-0000-4000-9000-0000000000a2' : null,
            can_reverse: !reversed,
          },
        ],
      });
    const api = mockApi({
      [`GET /api/organizations/${OTHER_ORG_ID}`]: () =>
        json(200, {
          organization: {
            ...organizationOf({ id: OTHER_ORG_ID, type: 'tenant', name: 'Acme Dental' }),
            ancestors: [{ id: OWN_ORG_ID, name: 'Northwind' }],
          },
        }),
      [`GET /api/organizations/${OTHER_ORG_ID}/billing`]: () => json(200, billingOf({ id: OTHER_ORG_ID })),
      [`GET ${PATH}`]: () => json(200, controls()),
      [`POST /api/credits/allocations/${made}/reversal`]: () => {
        reversed = true;
        return json(200, {
          transaction_id: '00000000-0000-4000-9000-0000000000a2',
          reverses_transaction_id: made,
          from_balance: '950.00',
          to_balance: '70.00',
        });
      },
    });
    renderApp(`/orgs/${OTHER_ORG_ID}/billing`, { session: session() });
    const list = await screen.findByTestId('top-up-history');
    const rows = within(list).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent(s.topUpForCrossed('10.00 credits'));
    expect(rows[0]).toHaveTextContent(s.outcomes.monthly_max);
    expect(rows[1]).toHaveTextContent(s.topUpForRefused('120.00 credits', '50.00 credits'));
    expect(rows[1]).toHaveTextContent(s.topUpMoved('50.00 credits'));
    expect(within(rows[0]!).queryByRole('button')).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(within(rows[1]!).getByRole('button', { name: MESSAGES.creditPages.reverseLabel('50.00', 'Acme Dental') }));
    const dialog = await screen.findByRole('dialog', { name: MESSAGES.creditPages.reverseTitle });
    expect(within(dialog).getByText(MESSAGES.creditPages.reverseSummary('50.00', 'Acme Dental', 'Northwind'))).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Reason'), 'Never used');
    await user.click(within(dialog).getByRole('button', { name: MESSAGES.creditPages.confirmReversal }));
    await waitFor(() => expect(api.callsTo(`POST /api/credits/allocations/${made}/reversal`)).toHaveLength(1));
    expect(api.callsTo(`POST /api/credits/allocations/${made}/reversal`)[0]?.body).toEqual({ reason: 'Never used' });
    // Refreshed without a reload: marked reversed, no second Reverse.
    expect(await within(await screen.findByTestId('top-up-history')).findByText(s.topUpReversed)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: MESSAGES.creditPages.reverseLabel('50.00', 'Acme Dental') })).not.toBeInTheDocument();
  });
});
