import { allocationSchema, GRANT_MESSAGES } from '@console/domain';
import { configure, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { format } from 'date-fns';
import { beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '@/test/agent-data';
import { json, makeSession, mockApi, renderApp } from '@/test/helpers';
import { CHILD_ID, organization, orgList, OTHER_CHILD_ID, OWN_ORG_ID } from '../test-support';
import { MESSAGES } from '../wording';

const p = MESSAGES.creditPages;
const t = MESSAGES.grantPages.terms;
const ALLOCATE = 'POST /api/credits/allocations';
const RESULT = { transaction_id: '00000000-0000-4000-9000-0000000000f1', from_balance: '900.00', to_balance: '100.00' };
const house = organization({ name: 'House', child_count: 2 });
const agencyOne = organization({ id: CHILD_ID, name: 'Agency One', org_type: 'super_agency', parent_org_id: OWN_ORG_ID });
const agencyTwo = organization({ id: OTHER_CHILD_ID, name: 'Agency Two', org_type: 'super_agency', parent_org_id: OWN_ORG_ID });

/** A datetime-local value `hours` from now, in the viewer's time zone, as the field holds it. */
const localIn = (hours: number) => format(new Date(Date.now() + hours * 3_600_000), "yyyy-MM-dd'T'HH:mm");

function mockAllocation(answer: () => Response = () => json(200, RESULT)) {
  return mockApi({
    [`GET /api/organizations/${OWN_ORG_ID}`]: () => json(200, { organization: house }),
    'GET /api/organizations': () => json(200, orgList(house, [agencyOne, agencyTwo])),
    'GET /api/agent-types': () => json(200, catalog()),
    [ALLOCATE]: answer,
  });
}

async function fillAllocation(user: ReturnType<typeof userEvent.setup>) {
  await user.selectOptions(await screen.findByLabelText('Child organization'), CHILD_ID);
  await user.type(screen.getByLabelText('Amount'), '100');
}

const submit = (user: ReturnType<typeof userEvent.setup>) => user.click(screen.getByRole('button', { name: p.allocateCredits }));

describe('allocation terms', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    configure({ asyncUtilTimeout: 15_000 });
    await Promise.all([import('./allocate-credits-page'), import('@/app/shell/app-shell')]);
  });

  it('are closed at first, and an allocation without them sends no terms', async () => {
    const { bodiesOf, callsTo } = mockAllocation();
    renderApp(`/orgs/${OWN_ORG_ID}/allocate-credits`, { session: makeSession({ role: 'house_admin', orgType: 'house' }) });
    const user = userEvent.setup();
    await fillAllocation(user);
    expect(screen.getByRole('button', { name: t.add })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByLabelText(t.expiresAt)).not.toBeInTheDocument();
    await submit(user);
    await user.click(await screen.findByRole('button', { name: p.confirmAllocation }));
    await screen.findByRole('status', { name: p.allocatedTitle });
    expect(bodiesOf(ALLOCATE)[0]).not.toHaveProperty('terms');
    // The catalog is asked only once the terms are opened.
    expect(callsTo('GET /api/agent-types')).toHaveLength(0);
  });

  it('send an expiry as an instant, the chosen agent types by code and the priority, shown in the review first', async () => {
    const { bodiesOf } = mockAllocation();
    renderApp(`/orgs/${OWN_ORG_ID}/allocate-credits`, { session: makeSession({ role: 'house_admin', orgType: 'house' }) });
    const user = userEvent.setup();
    await fillAllocation(user);
    await user.click(screen.getByRole('button', { name: t.add }));
    const terms = screen.getByRole('group', { name: t.title });
    expect(within(terms).getByLabelText(t.expiresAt)).toHaveFocus();
    const local = localIn(24);
    fireEvent.change(within(terms).getByLabelText(t.expiresAt), { target: { value: local } });
    expect(within(terms).getByLabelText(t.everyAgent)).toBeChecked();
    await user.click(within(terms).getByLabelText(t.someAgents));
    const agents = await within(terms).findByRole('group', { name: t.agentsLabel });
    // Retired agent types are not offered.
    expect(within(agents).queryByLabelText('Legacy Bot')).not.toBeInTheDocument();
    await user.click(within(agents).getByLabelText('Support Bot'));
    await user.type(within(terms).getByLabelText(t.priority), '50');
    await submit(user);

    const review = await screen.findByRole('region', { name: p.reviewTitle });
    expect(review).toHaveTextContent('only for Support Bot; priority 50.');
    await user.click(within(review).getByRole('button', { name: p.confirmAllocation }));
    await screen.findByRole('status', { name: p.allocatedTitle });
    const [body] = bodiesOf(ALLOCATE);
    expect(body).toMatchObject({
      to_org_id: CHILD_ID,
      amount: '100.00',
      terms: { expires_at: new Date(local).toISOString(), agent_types: ['support-bot'], priority: 50 },
    });
    // What the console sends is what the server reads.
    expect(allocationSchema.safeParse(body).success).toBe(true);
  });

  it('refuse an expiry in the past, no agent chosen and a priority out of range, and send nothing', async () => {
    const { callsTo } = mockAllocation();
    renderApp(`/orgs/${OWN_ORG_ID}/allocate-credits`, { session: makeSession({ role: 'house_admin', orgType: 'house' }) });
    const user = userEvent.setup();
    await fillAllocation(user);
    await user.click(screen.getByRole('button', { name: t.add }));
    fireEvent.change(screen.getByLabelText(t.expiresAt), { target: { value: localIn(-2) } });
    await user.click(screen.getByLabelText(t.someAgents));
    await screen.findByRole('group', { name: t.agentsLabel });
    await user.type(screen.getByLabelText(t.priority), '101');
    await submit(user);
    expect(await screen.findByText(GRANT_MESSAGES.expiryInPast)).toBeInTheDocument();
    expect(screen.getByLabelText(t.expiresAt)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText(GRANT_MESSAGES.agentTypesEmpty)).toBeInTheDocument();
    expect(screen.getByText(GRANT_MESSAGES.priorityRange)).toBeInTheDocument();

    await user.clear(screen.getByLabelText(t.priority));
    await user.type(screen.getByLabelText(t.priority), '2.5');
    await submit(user);
    expect(await screen.findByText(GRANT_MESSAGES.priorityRange)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: p.reviewTitle })).not.toBeInTheDocument();
    expect(callsTo(ALLOCATE)).toHaveLength(0);
  });

  it('are dropped by Remove terms: the credits go as open credits', async () => {
    const { bodiesOf } = mockAllocation();
    renderApp(`/orgs/${OWN_ORG_ID}/allocate-credits`, { session: makeSession({ role: 'house_admin', orgType: 'house' }) });
    const user = userEvent.setup();
    await fillAllocation(user);
    await user.click(screen.getByRole('button', { name: t.add }));
    await user.type(screen.getByLabelText(t.priority), '500');
    await user.click(screen.getByRole('button', { name: t.remove }));
    expect(screen.getByRole('button', { name: t.add })).toHaveFocus();
    await submit(user);
    await user.click(await screen.findByRole('button', { name: p.confirmAllocation }));
    await screen.findByRole('status', { name: p.allocatedTitle });
    expect(bodiesOf(ALLOCATE)[0]).not.toHaveProperty('terms');
  });

  it("show the server's refusal of a term on its field and above the button", async () => {
    const message = GRANT_MESSAGES.unknownAgentType('support-bot');
    mockAllocation(() => json(422, { error: { code: 'unprocessable', message, fields: { 'terms.agent_types': message } } }));
    renderApp(`/orgs/${OWN_ORG_ID}/allocate-credits`, { session: makeSession({ role: 'house_admin', orgType: 'house' }) });
    const user = userEvent.setup();
    await fillAllocation(user);
    await user.click(screen.getByRole('button', { name: t.add }));
    await user.click(screen.getByLabelText(t.someAgents));
    await user.click(await screen.findByLabelText('Support Bot'));
    await submit(user);
    await user.click(await screen.findByRole('button', { name: p.confirmAllocation }));
    expect(await screen.findByText(MESSAGES.credits.allocateFailed(message))).toBeInTheDocument();
    const agents = screen.getByRole('group', { name: t.agentsLabel });
    expect(within(agents).getByText(message)).toBeInTheDocument();
    expect(screen.getByLabelText('Support Bot')).toBeChecked();
  });
});
