import { MESSAGES as DOMAIN, type AlertLine, type AlertLinesResponse } from '@console/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi, renderWithProviders } from '@/test/helpers';
import { OWN_ORG_ID } from '@/test/billing-data';
import { MESSAGES } from '@/lib/wording';
import { AlertLinesCard } from './alert-lines-card';

const a = MESSAGES.alertLinePages;
const PATH = `/api/organizations/${OWN_ORG_ID}/alert-lines`;
const LINE = '00000000-0000-4000-9000-0000000000b1';
const THRESHOLD = '00000000-0000-4000-9000-0000000000b2';

const threshold: AlertLine = {
  id: THRESHOLD,
  kind: 'balance',
  bound: '100.00',
  window: null,
  low_balance_threshold: true,
  crossed: false,
  value: '250.00',
  crossed_at: null,
  description: 'Alert when the balance is below 100.00 credits',
};
const capLine: AlertLine = {
  id: LINE,
  kind: 'cap_percent',
  bound: '80.00',
  window: 'week',
  low_balance_threshold: false,
  crossed: true,
  value: '85.50',
  crossed_at: '2025-03-10T12:00:00.000Z',
  description: 'Alert at 80 % of the weekly spend cap used',
};

function mockLines(answer: Partial<AlertLinesResponse>, save: () => Response = () => json(201, capLine)) {
  const body: AlertLinesResponse = { organization_id: OWN_ORG_ID, lines: [threshold, capLine], can_manage: true, max: 20, ...answer };
  return mockApi({
    [`GET ${PATH}`]: () => json(200, body),
    [`POST ${PATH}`]: save,
    [`PUT ${PATH}/${LINE}`]: save,
    [`DELETE ${PATH}/${LINE}`]: () => new Response(null, { status: 204 }),
  });
}

describe('alert lines card', { timeout: 20_000 }, () => {
  it('lists each line with its bound, whether it is crossed and the value now', async () => {
    mockLines({});
    renderWithProviders(<AlertLinesCard organizationId={OWN_ORG_ID} />);
    const rows = await screen.findAllByTestId('alert-line');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent(threshold.description);
    expect(rows[0]).toHaveTextContent(a.threshold);
    expect(rows[0]).toHaveTextContent(a.now('250.00 credits'));
    expect(within(rows[0]!).getByText(a.armed)).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent(capLine.description);
    expect(rows[1]).toHaveTextContent(a.now('85.50 %'));
    expect(within(rows[1]!).getByText(a.crossed)).toBeInTheDocument();
  });

  it('offers Add, Edit and Delete only when the server says the viewer may change the lines', async () => {
    mockLines({ can_manage: false });
    renderWithProviders(<AlertLinesCard organizationId={OWN_ORG_ID} />);
    await screen.findAllByTestId('alert-line');
    expect(screen.queryByRole('button', { name: a.add })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: a.editAria(capLine.description) })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: `${a.delete} ${capLine.description}` })).not.toBeInTheDocument();
  });

  it('adds a percent-of-cap line with its window', async () => {
    const api = mockLines({ lines: [] });
    renderWithProviders(<AlertLinesCard organizationId={OWN_ORG_ID} />);
    expect(await screen.findByText(a.none)).toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: a.add }));
    const dialog = await screen.findByRole('dialog');
    await user.selectOptions(within(dialog).getByLabelText(a.kindLabel), 'cap_percent');
    await user.type(within(dialog).getByLabelText(a.boundLabel.cap_percent), '80');
    await user.selectOptions(within(dialog).getByLabelText(a.windowLabel), 'week');
    await user.click(within(dialog).getByRole('button', { name: a.save }));
    await waitFor(() => expect(api.callsTo(`POST ${PATH}`)).toHaveLength(1));
    expect(api.callsTo(`POST ${PATH}`)[0]?.body).toEqual({ kind: 'cap_percent', bound: '80.00', window: 'week' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("edits a line's bound, shows the schema's message for a bad one, and the server's refusal", async () => {
    const api = mockLines({}, () => apiError(422, 'rule_violation', DOMAIN.alertLines.kindFixed));
    renderWithProviders(<AlertLinesCard organizationId={OWN_ORG_ID} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: a.editAria(capLine.description) }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText(a.kindLabel)).toBeDisabled();
    const bound = within(dialog).getByLabelText(a.boundLabel.cap_percent);
    expect(bound).toHaveValue('80');
    await user.clear(bound);
    await user.type(bound, '150');
    await user.click(within(dialog).getByRole('button', { name: a.save }));
    expect(await within(dialog).findByText(DOMAIN.alertLines.percentInvalid)).toBeInTheDocument();
    expect(api.callsTo(`PUT ${PATH}/${LINE}`)).toHaveLength(0);
    await user.clear(bound);
    await user.type(bound, '90');
    await user.click(within(dialog).getByRole('button', { name: a.save }));
    expect(await within(dialog).findByText(DOMAIN.alertLines.kindFixed)).toBeInTheDocument();
    expect(api.callsTo(`PUT ${PATH}/${LINE}`)[0]?.body).toEqual({ kind: 'cap_percent', bound: '90.00', window: 'week' });
  });

  it('deletes a line after asking', async () => {
    const api = mockLines({});
    renderWithProviders(<AlertLinesCard organizationId={OWN_ORG_ID} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `${a.delete} ${capLine.description}` }));
    const confirm = await screen.findByRole('alertdialog');
    await user.click(within(confirm).getByRole('button', { name: a.delete }));
    await waitFor(() => expect(api.callsTo(`DELETE ${PATH}/${LINE}`)).toHaveLength(1));
  });
});
