import { TIMING, type BillingResponse, type OrgType } from '@console/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '@/lib/reload';
import { sessionStore } from '@/lib/session-store';
import { billingOf, OTHER_ORG_ID, OWN_ORG_ID } from '@/test/billing-data';
import { apiError, json, makeSession, mockApi, renderWithProviders } from '@/test/helpers';
import { AgentLimitStatusCard } from './agent-limit-status-card';
import { MESSAGES } from '@/lib/wording';

/** The page reload, replaced: jsdom cannot reload. */
const reloadPage = vi.spyOn(browser, 'reload').mockImplementation(() => {});

const m = MESSAGES.billingPages;
const PUT_LIMIT = `PUT /api/organizations/${OTHER_ORG_ID}/agent-limit`;

function renderCard(
  billing: BillingResponse,
  { orgType = 'tenant' as OrgType, organizationId = billing.organization_id, role = 'agency_admin' } = {},
) {
  sessionStore.set(makeSession({ role, orgType: role.startsWith('tenant') ? 'tenant' : 'agency' }));
  // Any organization but the own one is a direct child of it.
  const organization = { id: organizationId, org_type: orgType, parent_org_id: organizationId === OWN_ORG_ID ? null : OWN_ORG_ID };
  return renderWithProviders(<AgentLimitStatusCard organization={organization} billing={billing} />);
}

async function openDialog(user = userEvent.setup()) {
  await user.click(screen.getByRole('button', { name: m.adjustLimit }));
  return screen.findByRole('dialog', { name: m.adjustTitle });
}

beforeEach(() => {
  reloadPage.mockClear();
});

describe('agent limit status', () => {
  it.each([
    [0, m.badgeGood, m.adviceGood, 'bg-secondary'],
    [74, m.badgeGood, m.adviceGood, 'bg-secondary'],
    [75, m.badgeWarning, m.adviceWarning, 'text-foreground'],
    [89, m.badgeWarning, m.adviceWarning, 'text-foreground'],
    [90, m.badgeCritical, m.adviceCritical, 'bg-destructive'],
    [100, m.badgeCritical, m.adviceCritical, 'bg-destructive'],
  ])('%i of 100 active agents shows %s', (active, badge, advice, badgeClass) => {
    renderCard(billingOf({ limit: 100, active }));
    expect(screen.getByText(badge)).toHaveClass(badgeClass);
    expect(screen.getByText(advice)).toBeInTheDocument();
    expect(screen.getByTestId('agent-usage')).toHaveTextContent(m.agentsUsed(active, 100));
    expect(screen.getByRole('progressbar')).toHaveAccessibleName(m.usagePercent(active));
  });

  it('counts a limit of 0 as 0 percent (Good), and clamps usage above the limit to 100 percent', () => {
    const { unmount } = renderCard(billingOf({ limit: 0, active: 0 }));
    expect(screen.getByText(m.badgeGood)).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAccessibleName(m.usagePercent(0));
    unmount();
    renderCard(billingOf({ limit: 10, active: 15 }));
    expect(screen.getByText(m.badgeCritical)).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAccessibleName(m.usagePercent(100));
  });

  it("says who sets the limit where Adjust Limit is not offered: an agency admin's own organization", () => {
    renderCard(billingOf({ id: OWN_ORG_ID }), { orgType: 'agency', organizationId: OWN_ORG_ID, role: 'agency_admin' });
    expect(screen.queryByRole('button', { name: m.adjustLimit })).not.toBeInTheDocument();
    expect(screen.getByTestId('limit-set-by')).toHaveTextContent(m.limitSetBy('agency'));
  });

  it('says nothing of it where Adjust Limit is offered', () => {
    renderCard(billingOf({ id: OTHER_ORG_ID, manage: true }));
    expect(screen.getByRole('button', { name: m.adjustLimit })).toBeInTheDocument();
    expect(screen.queryByTestId('limit-set-by')).not.toBeInTheDocument();
  });

  it('names the About Agent Limits tooltip and says a tenant limit is set by the parent', async () => {
    renderCard(billingOf(), { orgType: 'tenant' });
    const trigger = screen.getByRole('button', { name: m.aboutAgentLimits });
    await userEvent.setup().hover(trigger);
    expect((await screen.findAllByText(m.aboutTenantLimit)).length).toBeGreaterThan(0);
  });

  it('hides Adjust Limit when the server does not allow it', () => {
    renderCard(billingOf({ id: OTHER_ORG_ID, manage: false }));
    expect(screen.queryByRole('button', { name: m.adjustLimit })).not.toBeInTheDocument();
  });

  it('hides Adjust Limit for a tenant viewing its own limit, and shows it for a parent admin', () => {
    const { unmount } = renderCard(billingOf({ id: OWN_ORG_ID, manage: true }), { role: 'tenant_admin' });
    expect(screen.queryByRole('button', { name: m.adjustLimit })).not.toBeInTheDocument();
    unmount();
    renderCard(billingOf({ id: OTHER_ORG_ID, manage: true }));
    expect(screen.getByRole('button', { name: m.adjustLimit })).toBeInTheDocument();
  });
});

describe('adjust agent limit dialog', () => {
  it('shows the current limit read-only and keeps Update disabled while the value is unchanged', async () => {
    mockApi({});
    renderCard(billingOf({ id: OTHER_ORG_ID, limit: 10, manage: true }));
    const user = userEvent.setup();
    const dialog = await openDialog(user);
    const current = within(dialog).getByLabelText(m.currentLimit);
    expect(current).toHaveValue('10');
    expect(current).toHaveAttribute('readonly');
    const input = within(dialog).getByLabelText(m.newLimitLabel);
    const update = within(dialog).getByRole('button', { name: m.updateLimit });
    expect(input).toHaveValue(10);
    expect(input).toHaveFocus();
    expect(update).toBeDisabled();
    await user.clear(input);
    await user.type(input, '12');
    expect(update).toBeEnabled();
    await user.clear(input);
    await user.type(input, '10');
    expect(update).toBeDisabled();
  });

  it.each([
    ['2.5', MESSAGES.billing.invalidValue],
    ['-3', MESSAGES.billing.negative],
    ['2000000', MESSAGES.billing.invalidValue],
  ])('refuses %s with "%s" without calling the server', async (value, message) => {
    const api = mockApi({});
    renderCard(billingOf({ id: OTHER_ORG_ID, limit: 10, manage: true }));
    const user = userEvent.setup();
    const dialog = await openDialog(user);
    const input = within(dialog).getByLabelText(m.newLimitLabel);
    await user.clear(input);
    await user.type(input, value);
    await user.click(within(dialog).getByRole('button', { name: m.updateLimit }));
    expect(await within(dialog).findByText(message)).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(api.fetch).not.toHaveBeenCalled();
  });

  it('offers the range the server accepts: 3 active agents make 3 the lowest limit, not 0', async () => {
    mockApi({});
    renderCard(billingOf({ id: OTHER_ORG_ID, limit: 5, active: 3, childrenTotal: 0, max: 12, manage: true }));
    const dialog = await openDialog();
    expect(dialog).toHaveAccessibleDescription(m.adjustDescription(3, 12));
    expect(dialog).toHaveTextContent('Allowed range: 3 to 12');
    expect(within(dialog).getByLabelText(m.newLimitLabel)).toHaveAttribute('min', '3');
  });

  it("starts the range at the children's total when it is above the active agents", async () => {
    mockApi({});
    renderCard(billingOf({ id: OTHER_ORG_ID, limit: 8, active: 1, childrenTotal: 4, max: 12, manage: true }));
    const dialog = await openDialog();
    expect(dialog).toHaveTextContent('Allowed range: 4 to 12');
  });

  it('sends 0 for an empty (non-numeric) entry', async () => {
    const api = mockApi({ [PUT_LIMIT]: () => json(200, billingOf({ id: OTHER_ORG_ID, limit: 0, manage: true })) });
    renderCard(billingOf({ id: OTHER_ORG_ID, limit: 10, manage: true }));
    const user = userEvent.setup();
    const dialog = await openDialog(user);
    await user.clear(within(dialog).getByLabelText(m.newLimitLabel));
    await user.click(within(dialog).getByRole('button', { name: m.updateLimit }));
    await waitFor(() => expect(api.bodiesOf(PUT_LIMIT)).toEqual([{ activated_agent_limit: 0 }]));
  });

  it("shows the server's refusal in the dialog and in a toast, and does not reload", async () => {
    const refusal = MESSAGES.billing.aboveCapacity(20);
    mockApi({ [PUT_LIMIT]: () => apiError(422, 'above_parent_capacity', refusal) });
    renderCard(billingOf({ id: OTHER_ORG_ID, limit: 10, manage: true }));
    const user = userEvent.setup();
    const dialog = await openDialog(user);
    const input = within(dialog).getByLabelText(m.newLimitLabel);
    await user.clear(input);
    await user.type(input, '25');
    await user.click(within(dialog).getByRole('button', { name: m.updateLimit }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(refusal);
    expect(await screen.findByText(`Failed to update agent limit: ${refusal}`)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: m.adjustTitle })).toBeInTheDocument();
    expect(reloadPage).not.toHaveBeenCalled();
  });

  it('shows An unexpected error occurred when the answer cannot be read', async () => {
    mockApi({ [PUT_LIMIT]: () => new Response('not json', { status: 200 }) });
    renderCard(billingOf({ id: OTHER_ORG_ID, limit: 10, manage: true }));
    const user = userEvent.setup();
    const dialog = await openDialog(user);
    const input = within(dialog).getByLabelText(m.newLimitLabel);
    await user.clear(input);
    await user.type(input, '11');
    await user.click(within(dialog).getByRole('button', { name: m.updateLimit }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(MESSAGES.generic.unexpected);
  });

  it('saves, toasts the new limit and reloads the page after 1.5 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = mockApi({ [PUT_LIMIT]: () => json(200, billingOf({ id: OTHER_ORG_ID, limit: 15, manage: true })) });
    renderCard(billingOf({ id: OTHER_ORG_ID, limit: 10, manage: true }));
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const dialog = await openDialog(user);
    const input = within(dialog).getByLabelText(m.newLimitLabel);
    await user.clear(input);
    await user.type(input, '15');
    await user.click(within(dialog).getByRole('button', { name: m.updateLimit }));

    expect(await screen.findByText(MESSAGES.billing.updated)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.billing.newLimit(15))).toBeInTheDocument();
    expect(api.bodiesOf(PUT_LIMIT)).toEqual([{ activated_agent_limit: 15 }]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: m.adjustTitle })).not.toBeInTheDocument());
    expect(reloadPage).not.toHaveBeenCalled();

    await vi.advanceTimersByTimeAsync(TIMING.agentLimitReloadMs - 100);
    expect(reloadPage).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });
});
