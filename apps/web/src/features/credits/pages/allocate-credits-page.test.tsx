import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { apiError, json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { CHILD_ID, organization, orgList, OTHER_CHILD_ID, OWN_ORG_ID } from '../test-support';
import { MESSAGES } from '../wording';

const c = MESSAGES.credits;
const p = MESSAGES.creditPages;
const ALLOCATE = 'POST /api/credits/allocations';
const houseAdmin = () => makeSession({ role: 'house_admin', orgType: 'house', orgName: 'House' });
const house = organization({ name: 'House', credit_balance: '1000.00', child_count: 2 });
const agencyOne = organization({
  id: CHILD_ID,
  name: 'Agency One',
  org_type: 'super_agency',
  parent_org_id: OWN_ORG_ID,
  credit_balance: '0.00',
});
const agencyTwo = organization({ id: OTHER_CHILD_ID, name: 'Agency Two', org_type: 'super_agency', parent_org_id: OWN_ORG_ID });
const RESULT = { transaction_id: '00000000-0000-4000-9000-0000000000f1', from_balance: '749.50', to_balance: '250.50' };

function mockOrganizations(extra: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    [`GET /api/organizations/${OWN_ORG_ID}`]: () => json(200, { organization: house }),
    [`GET /api/organizations/${CHILD_ID}`]: () => json(200, { organization: agencyOne }),
    'GET /api/organizations': () => json(200, orgList(house, [agencyOne, agencyTwo])),
    ...extra,
  });
}

async function fillAndSubmit(user: ReturnType<typeof userEvent.setup>, amount: string, notes = '') {
  await user.selectOptions(await screen.findByLabelText('Child organization'), CHILD_ID);
  const amountInput = screen.getByLabelText('Amount');
  await user.clear(amountInput);
  await user.type(amountInput, amount);
  if (notes) await user.type(screen.getByLabelText('Notes (optional)'), notes);
  await user.click(screen.getByRole('button', { name: p.allocateCredits }));
}

/** Confirms the review step the form leads to. */
async function confirmReview(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: p.confirmAllocation }));
}

describe('allocate credits page', { timeout: 60_000 }, () => {
  // The page and the shell are lazy chunks: load them once, so no single case pays for it.
  beforeAll(async () => {
    // A shared, busy machine: give the first render of a lazy page more time.
    configure({ asyncUtilTimeout: 15_000 });
    await Promise.all([import('./allocate-credits-page'), import('@/app/shell/app-shell')]);
  });

  it('lists the active direct children of the own organization and shows its balance', async () => {
    const { queriesOf } = mockOrganizations();
    renderApp(`/orgs/${OWN_ORG_ID}/allocate-credits`, { session: houseAdmin() });
    const select = await screen.findByLabelText('Child organization');
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Select a child organization', 'Agency One (Super Agency) — 0.00 credits', 'Agency Two (Super Agency) — 1,000.00 credits']);
    expect(select).toHaveValue('');
    expect(screen.getByText('1,000.00 credits')).toBeInTheDocument();
    expect(queriesOf('GET /api/organizations')[0]).toEqual({
      view: 'children',
      status: 'active',
      organization_id: OWN_ORG_ID,
      page_size: '100',
    });
    expect(screen.getByLabelText('Amount')).toHaveAttribute('step', '0.01');
    expect(screen.getByLabelText('Amount')).toHaveAttribute('min', '0.01');
  });

  it('shows the validation messages and sends nothing', async () => {
    const { callsTo } = mockOrganizations();
    renderApp(`/orgs/${OWN_ORG_ID}/allocate-credits`, { session: houseAdmin() });
    const user = userEvent.setup();
    await screen.findByLabelText('Child organization');
    await user.click(screen.getByRole('button', { name: p.allocateCredits }));
    expect(await screen.findByText(c.selectChild)).toBeInTheDocument();
    expect(screen.getByText(c.amountNotNumber)).toBeInTheDocument();

    await fillAndSubmit(user, '0');
    expect(await screen.findByText(c.amountPositive)).toBeInTheDocument();
    expect(screen.queryByText(c.selectChild)).not.toBeInTheDocument();

    await fillAndSubmit(user, '-5');
    expect(await screen.findByText(c.amountPositive)).toBeInTheDocument();

    await fillAndSubmit(user, '1.234');
    expect(await screen.findByText(c.amountInvalid)).toBeInTheDocument();
    expect(callsTo(ALLOCATE)).toHaveLength(0);
  });

  it('allocates with an Idempotency-Key, shows the result and refreshes the balances', async () => {
    let allocated = false;
    const { callsTo } = mockOrganizations({
      [`GET /api/organizations/${OWN_ORG_ID}`]: () =>
        json(200, { organization: allocated ? { ...house, credit_balance: '749.50' } : house }),
      [ALLOCATE]: () => {
        allocated = true;
        return json(200, RESULT);
      },
    });
    renderApp(`/orgs/${OWN_ORG_ID}/allocate-credits`, { session: houseAdmin() });
    const user = userEvent.setup();
    await fillAndSubmit(user, '250.5', 'Q1 budget');
    await confirmReview(user);

    const result = await screen.findByRole('status', { name: p.allocatedTitle });
    expect(result).toHaveTextContent(RESULT.transaction_id);
    expect(result).toHaveTextContent('House balance749.50 credits');
    expect(result).toHaveTextContent('Agency One balance250.50 credits');
    const [call] = callsTo(ALLOCATE);
    expect(call!.body).toEqual({ from_org_id: OWN_ORG_ID, to_org_id: CHILD_ID, amount: '250.50', notes: 'Q1 budget' });
    expect(call!.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The organization and its children are read again: the shown balance is the new one.
    expect(await screen.findByText('749.50 credits', { selector: 'span' })).toBeInTheDocument();
    await waitFor(() => expect(callsTo('GET /api/organizations').length).toBeGreaterThan(1));
    expect(screen.getByLabelText('Amount')).toHaveValue(null);
  });

  it('shows what moves and what the source keeps before anything is sent, and allocates only on Confirm', async () => {
    const northwind = { ...house, name: 'Northwind Partners', credit_balance: '1700.00' };
    const acme = { ...agencyOne, name: 'Acme Dental' };
    const { callsTo } = mockOrganizations({
      [`GET /api/organizations/${OWN_ORG_ID}`]: () => json(200, { organization: northwind }),
      [`GET /api/organizations/${CHILD_ID}`]: () => json(200, { organization: acme }),
      'GET /api/organizations': () => json(200, orgList(northwind, [acme, agencyTwo])),
      [ALLOCATE]: () => json(200, { ...RESULT, from_balance: '1200.00', to_balance: '500.00' }),
    });
    renderApp(`/orgs/${OWN_ORG_ID}/allocate-credits`, { session: houseAdmin() });
    const user = userEvent.setup();
    await fillAndSubmit(user, '500');

    const review = await screen.findByRole('region', { name: p.reviewTitle });
    expect(review).toHaveTextContent('Move 500.00 credits from Northwind Partners to Acme Dental; Northwind Partners keeps 1,200.00.');
    expect(screen.getByRole('heading', { name: p.reviewTitle })).toHaveFocus();
    expect(screen.queryByLabelText('Amount')).not.toBeInTheDocument();
    expect(callsTo(ALLOCATE)).toHaveLength(0);

    await confirmReview(user);
    await screen.findByRole('status', { name: p.allocatedTitle });
    expect(callsTo(ALLOCATE)).toHaveLength(1);
    expect(callsTo(ALLOCATE)[0]!.body).toMatchObject({ to_org_id: CHILD_ID, amount: '500.00' });
    expect(screen.queryByRole('region', { name: p.reviewTitle })).not.toBeInTheDocument();
  });

  it('computes what is kept exactly, where floats would not', async () => {
    const small = { ...house, credit_balance: '0.30' };
    mockOrganizations({
      [`GET /api/organizations/${OWN_ORG_ID}`]: () => json(200, { organization: small }),
      'GET /api/organizations': () => json(200, orgList(small, [agencyOne, agencyTwo])),
    });
    renderApp(`/orgs/${OWN_ORG_ID}/allocate-credits`, { session: houseAdmin() });
    await fillAndSubmit(userEvent.setup(), '0.1');
    expect(await screen.findByRole('region', { name: p.reviewTitle })).toHaveTextContent(
      'Move 0.10 credits from House to Agency One; House keeps 0.20.',
    );
  });

  it('goes back to the form with every value kept, sends nothing, and still guards the unsaved form', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    try {
      const { callsTo } = mockOrganizations();
      renderApp(`/orgs/${OWN_ORG_ID}/allocate-credits`, { session: houseAdmin() });
      const user = userEvent.setup();
      await fillAndSubmit(user, '12.5', 'Pilot');
      await screen.findByRole('region', { name: p.reviewTitle });

      // Leaving from the review step asks too: nothing has been allocated yet.
      await user.click(screen.getByRole('link', { name: 'Back' }));
      expect(confirm).toHaveBeenCalledWith(MESSAGES.forms.unsavedChanges);
      expect(screen.getByTestId('location')).toHaveTextContent(`/orgs/${OWN_ORG_ID}/allocate-credits`);

      await user.click(screen.getByRole('button', { name: p.backToEdit }));
      expect(screen.queryByRole('region', { name: p.reviewTitle })).not.toBeInTheDocument();
      expect(screen.getByLabelText('Child organization')).toHaveValue(CHILD_ID);
      expect(screen.getByLabelText('Amount')).toHaveDisplayValue('12.5');
      expect(screen.getByLabelText('Amount')).toHaveFocus();
      expect(screen.getByLabelText('Notes (optional)')).toHaveValue('Pilot');
      expect(callsTo(ALLOCATE)).toHaveLength(0);
    } finally {
      confirm.mockRestore();
    }
  });

  it('refuses more than the source holds in the form, before any review', async () => {
    const { callsTo } = mockOrganizations();
    renderApp(`/orgs/${OWN_ORG_ID}/allocate-credits`, { session: houseAdmin() });
    await fillAndSubmit(userEvent.setup(), '1000.01');
    const amount = screen.getByLabelText('Amount');
    await waitFor(() => expect(amount).toHaveAccessibleDescription(expect.stringContaining(c.insufficient('1000.00'))));
    expect(amount).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('region', { name: p.reviewTitle })).not.toBeInTheDocument();
    expect(screen.queryByText(/keeps -/)).not.toBeInTheDocument();
    expect(callsTo(ALLOCATE)).toHaveLength(0);
  });

  it('takes exactly what the source holds to the review, keeping 0.00', async () => {
    mockOrganizations();
    renderApp(`/orgs/${OWN_ORG_ID}/allocate-credits`, { session: houseAdmin() });
    await fillAndSubmit(userEvent.setup(), '1000');
    const review = await screen.findByRole('region', { name: p.reviewTitle });
    expect(review).toHaveTextContent('Move 1,000.00 credits from House to Agency One; House keeps 0.00.');
    expect(screen.getByRole('button', { name: p.confirmAllocation })).toBeEnabled();
  });

  it('shows the refusal message of the server', async () => {
    mockOrganizations({ [ALLOCATE]: () => apiError(422, 'not_direct_child', c.notDirectChild) });
    renderApp(`/orgs/${OWN_ORG_ID}/allocate-credits`, { session: houseAdmin() });
    const user = userEvent.setup();
    await fillAndSubmit(user, '10');
    await confirmReview(user);
    expect(await screen.findByText(c.allocateFailed(c.notDirectChild))).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: p.allocatedTitle })).not.toBeInTheDocument();
  });

  it('reuses the Idempotency-Key when the same submission is retried after a network error', async () => {
    const answers: (() => Response)[] = [
      () => {
        throw new TypeError('Failed to fetch');
      },
      () => json(200, RESULT),
      () => apiError(422, 'insufficient_credits', c.insufficient('749.50')),
    ];
    const { callsTo } = mockOrganizations({ [ALLOCATE]: () => answers[callsTo(ALLOCATE).length - 1]!() });
    renderApp(`/orgs/${OWN_ORG_ID}/allocate-credits`, { session: houseAdmin() });
    const user = userEvent.setup();
    await fillAndSubmit(user, '250.5');
    await confirmReview(user);
    expect(await screen.findByText(/^Failed to allocate credits: Network error/)).toBeInTheDocument();
    // The failure leads back to the form with the values kept: the same submission again.
    expect(screen.getByLabelText('Amount')).toHaveDisplayValue('250.5');
    await user.click(screen.getByRole('button', { name: p.allocateCredits }));
    await confirmReview(user);
    await screen.findByRole('status', { name: p.allocatedTitle });
    await fillAndSubmit(user, '1000');
    await confirmReview(user);
    expect(await screen.findByText(c.allocateFailed(c.insufficient('749.50')))).toBeInTheDocument();

    const keys = callsTo(ALLOCATE).map((call) => call.headers.get('Idempotency-Key'));
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('asks before Back leaves an amount typed but not allocated, and stays on No', async () => {
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
    try {
      mockOrganizations({});
      renderApp(`/organizations/${CHILD_ID}/allocate-credits`, { session: houseAdmin() });
      await screen.findByLabelText('Child organization');
      const user = userEvent.setup();
      await user.type(screen.getByLabelText('Amount'), '5');
      await user.click(screen.getByRole('link', { name: 'Back' }));
      expect(confirm).toHaveBeenCalledWith(MESSAGES.forms.unsavedChanges);
      expect(screen.getByTestId('location')).toHaveTextContent(`/organizations/${CHILD_ID}/allocate-credits`);
      expect(screen.getByLabelText('Amount')).toHaveDisplayValue('5');
    } finally {
      confirm.mockRestore();
    }
  });

  it('preselects a child given in the URL and allocates from the own organization', async () => {
    const { callsTo } = mockOrganizations({ [ALLOCATE]: () => json(200, RESULT) });
    renderApp(`/organizations/${CHILD_ID}/allocate-credits`, { session: houseAdmin() });
    const select = await screen.findByLabelText('Child organization');
    expect(select).toHaveValue(CHILD_ID);
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', `/organizations/${CHILD_ID}`);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Amount'), '5');
    await user.click(screen.getByRole('button', { name: p.allocateCredits }));
    await confirmReview(user);
    await screen.findByRole('status', { name: p.allocatedTitle });
    expect(callsTo(ALLOCATE)[0]!.body).toMatchObject({ from_org_id: OWN_ORG_ID, to_org_id: CHILD_ID, amount: '5.00' });
  });

  it('says why an inactive direct child given in the URL is not preselected', async () => {
    const asleep = { ...agencyOne, status: 'inactive' as const };
    mockOrganizations({
      [`GET /api/organizations/${CHILD_ID}`]: () => json(200, { organization: asleep }),
      'GET /api/organizations': () => json(200, orgList(house, [agencyTwo])),
    });
    renderApp(`/organizations/${CHILD_ID}/allocate-credits`, { session: houseAdmin() });
    expect(await screen.findByText(p.childNotActive('Agency One', 'inactive'))).toBeInTheDocument();
    expect(screen.getByLabelText('Child organization')).toHaveValue('');
  });

  it('answers a grandchild in the URL with the "not a direct child" refusal', async () => {
    const grandchild = organization({
      id: '00000000-0000-4000-8000-0000000000c7',
      name: 'Far Tenant',
      org_type: 'agency',
      parent_org_id: CHILD_ID,
    });
    mockOrganizations({ [`GET /api/organizations/${grandchild.id}`]: () => json(200, { organization: grandchild }) });
    renderApp(`/organizations/${grandchild.id}/allocate-credits`, { session: houseAdmin() });
    expect(await screen.findByText(c.notDirectChild)).toBeInTheDocument();
    expect(screen.queryByText(c.onlyOwnOrganization)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Allocate from House' })).toHaveAttribute(
      'href',
      `/organizations/${OWN_ORG_ID}/allocate-credits`,
    );
  });

  it('says when there is no active child to allocate to', async () => {
    mockOrganizations({ 'GET /api/organizations': () => json(200, orgList(house, [])) });
    renderApp(`/orgs/${OWN_ORG_ID}/allocate-credits`, { session: houseAdmin() });
    expect(await screen.findByText(p.noActiveChildren)).toBeInTheDocument();
    expect(screen.queryByLabelText('Child organization')).not.toBeInTheDocument();
  });

  it('shows Access Denied to a role without the allocate permission and calls nothing', async () => {
    const api = mockApi({});
    renderApp(`/orgs/${OWN_ORG_ID}/allocate-credits`, { session: makeSession({ role: 'agency_manager', orgType: 'agency' }) });
    expect(await screen.findByText(MESSAGES.auth.accessDenied)).toBeInTheDocument();
    expect(screen.queryByLabelText('Amount')).not.toBeInTheDocument();
    expect(api.fetch).not.toHaveBeenCalled();
  });

  it('shows Access Denied without retrying when the organization answers 403', async () => {
    const { callsTo } = mockOrganizations({
      [`GET /api/organizations/${CHILD_ID}`]: () => apiError(403, 'forbidden', MESSAGES.generic.forbidden),
    });
    renderApp(`/orgs/${CHILD_ID}/allocate-credits`, { session: houseAdmin() });
    expect(await screen.findByText(MESSAGES.auth.accessDenied)).toBeInTheDocument();
    expect(callsTo(`GET /api/organizations/${CHILD_ID}`)).toHaveLength(1);
  });
});
