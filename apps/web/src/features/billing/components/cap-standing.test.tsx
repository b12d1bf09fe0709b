import type { SpendControls } from '@console/domain';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { billingOf, OTHER_ORG_ID, OWN_ORG_ID, organizationOf, spendControlsOf } from '@/test/billing-data';
import { MESSAGES } from '../wording';

const s = MESSAGES.spendPages;
const PATH = `/api/organizations/${OTHER_ORG_ID}/spend-controls`;

/** Harbor Realty as the demo leaves it: a monthly cap of 61.99 charged in full, and 322 events refused at it this month. */
const stopped = spendControlsOf({
  organization_id: OTHER_ORG_ID,
  spend_cap: { cap: '61.99', month: '2025-03', charged: '61.99' },
  weekly_spend_cap: { cap: null, window_start: '2025-03-10', charged: '40.00' },
  daily_spend_cap: { cap: null, window_start: '2025-03-14', charged: '5.00' },
  cap_standing: { reached: true, refused_this_month: 322 },
  can_edit: true,
});

function mockChild(controls: SpendControls) {
  return mockApi({
    [`GET /api/organizations/${OTHER_ORG_ID}`]: () =>
      json(200, {
        organization: {
          ...organizationOf({ id: OTHER_ORG_ID, type: 'tenant', name: 'Harbor Realty' }),
          ancestors: [{ id: OWN_ORG_ID, name: 'Northwind Digital' }],
        },
      }),
    [`GET /api/organizations/${OTHER_ORG_ID}/billing`]: () => json(200, billingOf({ id: OTHER_ORG_ID })),
    [`GET ${PATH}`]: () => json(200, controls),
    [`PUT ${PATH}`]: () => json(200, controls),
  });
}

const session = () => makeSession({ role: 'agency_admin', orgType: 'agency' });

beforeAll(() => Promise.all([import('@/app/shell/app-shell'), import('../pages/billing-page')]), 30_000);

describe('a child stopped by its spend cap (issue 46)', { timeout: 20_000 }, () => {
  it('says on the card that the cap is reached, new usage is refused, and how many events were refused this month', async () => {
    mockChild(stopped);
    renderApp(`/orgs/${OTHER_ORG_ID}/billing`, { session: session() });
    expect(await screen.findByTestId('cap-standing')).toHaveTextContent('Cap reached: new usage is refused (322 events this month)');
    expect(screen.getByTestId('spend-cap-charged')).toHaveTextContent(s.chargedOf('61.99 credits', '61.99 credits', '2025-03'));
  });

  it('tells refusals earlier this month at a cap that no longer stops it, and nothing without refusals', async () => {
    mockChild({
      ...stopped,
      spend_cap: { cap: '100.00', month: '2025-03', charged: '61.99' },
      cap_standing: { reached: false, refused_this_month: 1 },
    });
    const view = renderApp(`/orgs/${OTHER_ORG_ID}/billing`, { session: session() });
    expect(await screen.findByTestId('cap-standing')).toHaveTextContent(
      '1 event was refused at a spend cap this month; the caps let usage through now.',
    );
    view.unmount();
    mockChild(spendControlsOf({ organization_id: OTHER_ORG_ID, spend_cap: { cap: '100.00', month: '2025-03', charged: '10.00' } }));
    renderApp(`/orgs/${OTHER_ORG_ID}/billing`, { session: session() });
    await screen.findByTestId('spend-cap-charged');
    expect(screen.queryByTestId('cap-standing')).toBeNull();
  });

  it('warns before saving a cap at or below what its window has already charged, and not for a cap above it', async () => {
    const user = userEvent.setup();
    mockChild({
      ...stopped,
      spend_cap: { cap: '100.00', month: '2025-03', charged: '61.99' },
      cap_standing: { reached: false, refused_this_month: 0 },
    });
    renderApp(`/orgs/${OTHER_ORG_ID}/billing`, { session: session() });
    await user.click(await screen.findByRole('button', { name: s.editAria }));
    const dialog = await screen.findByRole('dialog');
    // The cap as it stands (100.00, above the month's 61.99) says nothing.
    expect(within(dialog).queryByRole('alert')).toBeNull();
    const month = within(dialog).getByLabelText(s.capLabel);
    await user.clear(month);
    await user.type(month, '50');
    expect(within(dialog).getByRole('alert')).toHaveTextContent(s.capAtOrBelowCharged('month', '61.99 credits'));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      'This month has already charged 61.99 credits, as much as this monthly cap or more. Once saved, new usage is refused at once, until the month ends (UTC).',
    );
    await user.clear(month);
    await user.type(month, '61.99');
    expect(within(dialog).getByRole('alert')).toHaveTextContent(s.capAtOrBelowCharged('month', '61.99 credits'));
    await user.clear(month);
    await user.type(month, '62');
    expect(within(dialog).queryByRole('alert')).toBeNull();
    // A weekly cap below this week's 40.00, and a daily one above today's 5.00.
    await user.type(within(dialog).getByLabelText(s.weeklySpendCapLabel), '30');
    await user.type(within(dialog).getByLabelText(s.dailySpendCapLabel), '6');
    const alert = within(dialog).getByRole('alert');
    expect(alert).toHaveTextContent(s.capAtOrBelowCharged('week', '40.00 credits'));
    expect(alert).not.toHaveTextContent(/This (day|month) has/);
  });
});
