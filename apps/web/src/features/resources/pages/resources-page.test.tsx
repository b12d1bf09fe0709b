import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ActivationList, OrgType } from '@console/domain';
import { activationListOf, activationOf, agentTypeOf, catalog, TYPE_IDS } from '@/test/agent-data';
import { billingOf, capacityOf, CHILD_IDS, OTHER_ORG_ID, OWN_ORG_ID, organizationOf } from '@/test/billing-data';
import { apiError, json, makeSession, mockApi, queryClientWithoutRetries, renderApp, setViewportWidth } from '@/test/helpers';
import { AWAITING_FIRST_REPORT } from '@/lib/agents';
import { MESSAGES } from '../wording';

const m = MESSAGES.billingPages;
const a = MESSAGES.agentPages;

beforeAll(
  () => Promise.all([import('@/app/shell/app-shell'), import('./resources-page'), import('./organization-resources-page')]),
  30_000,
);

function routes(
  id: string,
  type: 'agency' | 'tenant',
  capacity = capacityOf({ id, limit: 20, childLimits: [10, 7], inactiveFirst: true }),
  agents: ActivationList = activationListOf([], { organizationId: id }),
) {
  return {
    [`GET /api/organizations/${id}`]: () =>
      json(200, { organization: organizationOf({ id, type, name: 'Northwind', limit: 20, balance: '1500.00', childCount: 2 }) }),
    [`GET /api/organizations/${id}/capacity`]: () => json(200, capacity),
    [`GET /api/organizations/${id}/agents`]: () => json(200, agents),
  };
}

describe('resources', { timeout: 20_000 }, () => {
  it('/resources shows the own organization: overview figures, the Agents tab and the capacity', async () => {
    mockApi(routes(OWN_ORG_ID, 'agency'));
    renderApp('/resources', { session: makeSession({ role: 'agency_admin', orgType: 'agency' }) });
    expect(await screen.findByRole('heading', { level: 1, name: m.resourcesTitle })).toBeInTheDocument();
    expect(await screen.findByText('1,500.00 credits')).toBeInTheDocument();
    expect(screen.getByText(m.activatedAgentLimit).closest('[class*="rounded-xl"]')).toHaveTextContent('20');
    expect(screen.getByText(m.childOrganizations).closest('[class*="rounded-xl"]')).toHaveTextContent('2');

    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: m.tabAgents }));
    expect(await screen.findByText(a.noActivations)).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: m.tabCapacity }));
    const badge = await screen.findByTestId('capacity-used-badge');
    expect(badge).toHaveTextContent('85%');
    expect(badge).toHaveClass('bg-destructive');
    expect(screen.getByTestId('capacity-left')).toHaveTextContent('3');
    expect(screen.getByRole('link', { name: 'Child 1' })).toHaveAttribute('href', `/orgs/${CHILD_IDS[0]}/resources`);

    const links = screen.getByRole('navigation', { name: m.quickLinks });
    expect(within(links).getByRole('link', { name: m.linkLedger })).toHaveAttribute('href', '/credit-ledger');
    expect(within(links).getByRole('link', { name: m.linkBilling })).toHaveAttribute('href', `/orgs/${OWN_ORG_ID}/billing`);
    expect(within(links).getByRole('link', { name: m.linkTeam })).toHaveAttribute('href', '/team');
    expect(within(links).getByRole('link', { name: m.linkOrganizations })).toHaveAttribute('href', '/orgs');
  });

  it('a user-level role gets no quick link to Team or Organizations, and the children by name only, as the server refuses them', async () => {
    mockApi(routes(OWN_ORG_ID, 'agency'));
    renderApp('/resources', { session: makeSession({ role: 'agency_user', orgType: 'agency' }) });
    const links = await screen.findByRole('navigation', { name: m.quickLinks });
    expect(
      within(links)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([m.linkLedger, m.linkBilling]);

    await userEvent.setup().click(screen.getByRole('tab', { name: m.tabCapacity }));
    expect(await screen.findByText('Child 1')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Child 1' })).not.toBeInTheDocument();
  });

  it('a tenant admin gets the Team quick link but none to Organizations, since a tenant has nothing below it', async () => {
    mockApi(routes(OWN_ORG_ID, 'tenant'));
    renderApp('/resources', { session: makeSession({ role: 'tenant_admin', orgType: 'tenant' }) });
    const links = await screen.findByRole('navigation', { name: m.quickLinks });
    expect(
      within(links)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([m.linkLedger, m.linkBilling, m.linkTeam]);
  });

  it('the Allocate Credits dialog lists only the active direct children and leads to the allocation page', async () => {
    mockApi(routes(OWN_ORG_ID, 'agency'));
    renderApp('/resources', { session: makeSession({ role: 'agency_admin', orgType: 'agency' }) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: m.allocateCredits }));
    const dialog = await screen.findByRole('dialog', { name: m.allocateCredits });
    const choice = await within(dialog).findByRole('link', { name: /Child 2/ });
    expect(within(dialog).queryByRole('link', { name: /Child 1/ })).not.toBeInTheDocument();
    expect(choice).toHaveAttribute('href', `/orgs/${CHILD_IDS[1]}/allocate-credits`);
  });

  it('offers no Allocate Credits for a tenant', async () => {
    mockApi(routes(OWN_ORG_ID, 'tenant'));
    renderApp('/resources', { session: makeSession({ role: 'tenant_admin', orgType: 'tenant' }) });
    expect(await screen.findByText('1,500.00 credits')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: m.allocateCredits })).not.toBeInTheDocument();
  });

  it('{base}/:id/resources shows another organization under the URL base, without allocation', async () => {
    mockApi(routes(OTHER_ORG_ID, 'agency', capacityOf({ id: OTHER_ORG_ID, limit: 20, childLimits: [4] })));
    renderApp(`/organizations/${OTHER_ORG_ID}/resources`, { session: makeSession({ role: 'house_admin', orgType: 'house' }) });
    expect(await screen.findByText('1,500.00 credits')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: m.allocateCredits })).not.toBeInTheDocument();
    const links = screen.getByRole('navigation', { name: m.quickLinks });
    expect(within(links).getByRole('link', { name: m.linkLedger })).toHaveAttribute('href', `/credit-ledger?org=${OTHER_ORG_ID}`);
    expect(within(links).getByRole('link', { name: m.linkBilling })).toHaveAttribute('href', `/organizations/${OTHER_ORG_ID}/billing`);
    expect(within(links).getByRole('link', { name: m.linkTeam })).toHaveAttribute('href', `/users?organization_id=${OTHER_ORG_ID}`);
    await userEvent.setup().click(screen.getByRole('tab', { name: m.tabCapacity }));
    const badge = await screen.findByTestId('capacity-used-badge');
    expect(badge).toHaveTextContent('20%');
    expect(badge).toHaveClass('bg-secondary');
  });

  it('shows Error loading resource information, and Access Denied on 403', async () => {
    mockApi({ [`GET /api/organizations/${OTHER_ORG_ID}`]: () => apiError(403, 'forbidden', MESSAGES.generic.forbidden) });
    renderApp(`/orgs/${OTHER_ORG_ID}/resources`, { session: makeSession() });
    expect(await screen.findByText(MESSAGES.auth.accessDenied)).toBeInTheDocument();
  });

  it('shows Error loading capacity data when the capacity fails', async () => {
    mockApi({
      ...routes(OWN_ORG_ID, 'agency'),
      [`GET /api/organizations/${OWN_ORG_ID}/capacity`]: () => apiError(404, 'not_found', MESSAGES.generic.notFound),
    });
    renderApp('/resources', { session: makeSession({ role: 'agency_user', orgType: 'agency' }) });
    await userEvent.setup().click(await screen.findByRole('tab', { name: m.tabCapacity }));
    expect(await screen.findByText(MESSAGES.organizations.notFound)).toBeInTheDocument();
  });
});

const agentsTab = async () => {
  await userEvent.setup().click(await screen.findByRole('tab', { name: m.tabAgents }));
  return screen.findByRole('tabpanel', { name: m.tabAgents });
};

function showAgents(options: {
  role?: string;
  orgType?: OrgType;
  agents: ActivationList;
  extra?: Record<string, () => Response>;
  path?: string;
  id?: string;
}) {
  const id = options.id ?? OWN_ORG_ID;
  const session = makeSession({ role: options.role ?? 'agency_admin', orgType: options.orgType ?? 'agency' });
  const api = mockApi({
    ...routes(id, 'agency', undefined, options.agents),
    'GET /api/agent-types': () => json(200, catalog()),
    ...options.extra,
  });
  renderApp(options.path ?? '/resources', { session });
  return api;
}

describe('resources: agents', { timeout: 30_000 }, () => {
  it('lists the live agents with status, kind, last active, health and the usage and credits of 30 days', async () => {
    const lastActive = new Date(Date.now() - 5 * 60_000).toISOString();
    showAgents({
      agents: activationListOf([
        activationOf('bot', { last_active_at: lastActive }),
        activationOf('etl', {
          status: 'error',
          health_score: 60,
          last_active_at: lastActive,
          usage_30d: { events: 2, units: '10.4000', credits: '0.12' },
        }),
        activationOf('reporter', {
          status: 'inactive',
          health_score: null,
          last_active_at: lastActive,
          usage_30d: { events: 0, units: '0.0000', credits: '0.00' },
        }),
      ]),
    });
    const panel = await agentsTab();
    expect(await within(panel).findByTestId('agents-used')).toHaveTextContent(m.agentsUsed(3, 5));
    const table = within(panel).getByRole('table', { name: a.agentsTitle });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Agent', 'Status', 'Kind', 'Last active', 'Health', 'Usage, 30 days', 'Credits, 30 days', 'Monthly cap', 'Actions']);
    const rows = within(table).getAllByRole('row').slice(1);
    const cells = (row: HTMLElement) =>
      within(row)
        .getAllByRole('cell')
        .map((td) => td.textContent);
    expect(cells(rows[0]!)).toEqual([
      'Support Botsupport-bot',
      'Active',
      'Assistant',
      '5 minutes ago',
      '95',
      '1,203 events7.5 × run',
      '3.75 credits',
      MESSAGES.spendPages.noCap,
      `${MESSAGES.spendPages.setCap}${a.deactivate}`,
    ]);
    expect(cells(rows[1]!)).toEqual([
      'Nightly ETLetl',
      'Error',
      'Automation',
      '5 minutes ago',
      '60',
      '2 events10.4 × 1k rows',
      '0.12 credits',
      MESSAGES.spendPages.noCap,
      `${MESSAGES.spendPages.setCap}${a.deactivate}`,
    ]);
    expect(cells(rows[2]!).slice(1, 5)).toEqual(['Inactive', 'Analytics', '5 minutes ago', a.notReported]);
    expect(within(rows[1]!).getByRole('progressbar', { name: a.healthLabel(60) })).toHaveAttribute('data-tone', 'red');
  });

  it('a just-activated agent, which counts against the limit, reads Awaiting first report rather than Inactive until its runtime reports', async () => {
    showAgents({ agents: activationListOf([activationOf('bot', { status: 'inactive', health_score: null, last_active_at: null })]) });
    const panel = await agentsTab();
    expect(await within(panel).findByTestId('agents-used')).toHaveTextContent(m.agentsUsed(1, 5));
    const table = within(panel).getByRole('table', { name: a.agentsTitle });
    const row = within(table).getAllByRole('row')[1]!;
    const cells = within(row)
      .getAllByRole('cell')
      .map((td) => td.textContent);
    expect(cells.slice(1, 5)).toEqual([AWAITING_FIRST_REPORT, 'Assistant', a.never, a.notReported]);
    expect(within(row).queryByText('Inactive')).not.toBeInTheDocument();
  });

  it('shows each agent as a card with every figure on a narrow screen', async () => {
    setViewportWidth(390);
    try {
      showAgents({
        agents: activationListOf([
          activationOf('bot'),
          activationOf('etl', { status: 'error', health_score: 60, last_active_at: '2025-03-01T00:05:00.000Z' }),
        ]),
      });
      const panel = await agentsTab();
      const list = await within(panel).findByRole('list', { name: a.agentsTitle });
      expect(within(panel).queryByRole('table')).not.toBeInTheDocument();
      const cards = within(list).getAllByRole('listitem');
      expect(cards).toHaveLength(2);
      expect(cards[1]).toHaveTextContent('Nightly ETL');
      expect(cards[1]).toHaveTextContent('Error');
      expect(cards[1]).toHaveTextContent('1,203 events · 7.5 × 1k rows');
      expect(cards[1]).toHaveTextContent('3.75 credits');
      expect(within(cards[1]!).getByRole('progressbar', { name: a.healthLabel(60) })).toBeInTheDocument();
      expect(within(cards[1]!).getByRole('button', { name: `${a.deactivate} Nightly ETL` })).toBeInTheDocument();
    } finally {
      setViewportWidth(1024);
    }
  });

  it('Activate offers the active catalog agents not yet activated here, with used / limit, and refreshes every count after it', async () => {
    let agents = activationListOf([activationOf('bot')], { limit: 4 });
    const created = activationOf('etl', { status: 'inactive', health_score: null, last_active_at: null });
    const api = showAgents({
      agents,
      extra: {
        [`GET /api/organizations/${OWN_ORG_ID}/agents`]: () => json(200, agents),
        [`POST /api/organizations/${OWN_ORG_ID}/agents`]: () => {
          agents = activationListOf([activationOf('bot'), created], { limit: 4 });
          return json(201, { activation: created });
        },
      },
    });
    const panel = await agentsTab();
    const user = userEvent.setup();
    await user.click(await within(panel).findByRole('button', { name: a.activate }));
    const dialog = await screen.findByRole('dialog', { name: a.activateTitle });
    expect(dialog).toHaveTextContent(m.agentsUsed(1, 4));
    // Support Bot is live already and Legacy Bot is retired.
    const choices = await within(dialog).findAllByRole('radio');
    expect(choices.map((radio) => radio.closest('label')!.textContent)).toEqual([
      expect.stringMatching(/^Nightly ETLAutomation · 0\.0125 credits per 1k rows$/),
      expect.stringMatching(/^ReporterAnalytics · 2 credits per report$/),
    ]);
    expect(within(dialog).getByRole('button', { name: a.activateButton })).toBeDisabled();
    await user.click(within(dialog).getByRole('radio', { name: /Nightly ETL/ }));
    await user.click(within(dialog).getByRole('button', { name: a.activateButton }));

    expect(await screen.findByText(a.activated('Nightly ETL'))).toBeInTheDocument();
    expect(api.bodiesOf(`POST /api/organizations/${OWN_ORG_ID}/agents`)).toEqual([{ agent_type_id: TYPE_IDS.etl }]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await within(panel).findByRole('row', { name: /Nightly ETL/ })).toBeInTheDocument();
    expect(within(panel).getByTestId('agents-used')).toHaveTextContent(m.agentsUsed(2, 4));
    // The organization (its active count on the Overview) was asked again too.
    await waitFor(() => expect(api.callsTo(`GET /api/organizations/${OWN_ORG_ID}`).length).toBeGreaterThan(1));
  });

  it('shows the refusal of an activation in the picker', async () => {
    showAgents({
      agents: activationListOf([], { limit: 2 }),
      extra: {
        [`POST /api/organizations/${OWN_ORG_ID}/agents`]: () =>
          apiError(422, 'agent_limit_reached', 'The activated agent limit (2) is reached.'),
      },
    });
    const panel = await agentsTab();
    const user = userEvent.setup();
    await user.click(await within(panel).findByRole('button', { name: a.activate }));
    const dialog = await screen.findByRole('dialog', { name: a.activateTitle });
    await user.click(await within(dialog).findByRole('radio', { name: /Reporter/ }));
    await user.click(within(dialog).getByRole('button', { name: a.activateButton }));
    expect(await within(dialog).findByText('The activated agent limit (2) is reached.')).toBeInTheDocument();
    expect(within(dialog).getByText(a.activateFailed)).toBeInTheDocument();
  });

  it('at the limit, Activate is disabled and the Critical advice says why', async () => {
    showAgents({ agents: activationListOf([activationOf('bot'), activationOf('etl')], { limit: 2 }) });
    const panel = await agentsTab();
    expect(await within(panel).findByRole('button', { name: a.activate })).toBeDisabled();
    expect(within(panel).getByText(m.adviceCritical)).toBeInTheDocument();
    expect(within(panel).getByText(MESSAGES.agents.limitReached(2, 2))).toBeInTheDocument();
    expect(within(panel).getByText(m.badgeCritical)).toBeInTheDocument();
  });

  it('Deactivate asks first, then deactivates and says so', async () => {
    let agents = activationListOf([activationOf('bot'), activationOf('etl')]);
    const api = showAgents({
      agents,
      extra: {
        [`GET /api/organizations/${OWN_ORG_ID}/agents`]: () => json(200, agents),
        [`DELETE /api/organizations/${OWN_ORG_ID}/agents/${activationOf('bot').id}`]: () => {
          agents = activationListOf([activationOf('etl')]);
          return json(200, { activation: activationOf('bot') });
        },
      },
    });
    const panel = await agentsTab();
    const user = userEvent.setup();
    await user.click(await within(panel).findByRole('button', { name: `${a.deactivate} Support Bot` }));
    const confirm = await screen.findByRole('alertdialog', { name: a.deactivateTitle('Support Bot') });
    expect(confirm).toHaveTextContent(a.deactivateBody);
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo(`DELETE /api/organizations/${OWN_ORG_ID}/agents/${activationOf('bot').id}`)).toHaveLength(0);

    await user.click(within(panel).getByRole('button', { name: `${a.deactivate} Support Bot` }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: a.deactivate }));
    expect(await screen.findByText(a.deactivated('Support Bot'))).toBeInTheDocument();
    await waitFor(() => expect(within(panel).queryByRole('row', { name: /Support Bot/ })).not.toBeInTheDocument());
  });

  it('a manager reads the agents but is offered neither Activate nor Deactivate', async () => {
    showAgents({ role: 'agency_manager', agents: activationListOf([activationOf('bot')]) });
    const panel = await agentsTab();
    expect(await within(panel).findByRole('row', { name: /Support Bot/ })).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: a.activate })).not.toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: /Deactivate/ })).not.toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: /Set the monthly cap/ })).not.toBeInTheDocument();
  });

  it("a parent's admin manages a direct child's agents", async () => {
    showAgents({
      role: 'house_admin',
      orgType: 'house',
      id: OTHER_ORG_ID,
      path: `/organizations/${OTHER_ORG_ID}/resources`,
      agents: activationListOf([activationOf('bot', {}, OTHER_ORG_ID)], { organizationId: OTHER_ORG_ID }),
    });
    const panel = await agentsTab();
    expect(await within(panel).findByRole('button', { name: a.activate })).toBeEnabled();
    expect(within(panel).getByRole('button', { name: `${a.deactivate} Support Bot` })).toBeInTheDocument();
  });

  it("nobody manages a grandchild's agents, nor the people of a suspended organization their own", async () => {
    const grandchild = '00000000-0000-4000-8000-0000000000e1';
    const session = makeSession({ role: 'house_admin', orgType: 'house' });
    mockApi({
      [`GET /api/organizations/${grandchild}`]: () => json(200, { organization: organizationOf({ id: grandchild, parent: OTHER_ORG_ID }) }),
      [`GET /api/organizations/${grandchild}/agents`]: () =>
        json(200, activationListOf([activationOf('bot', {}, grandchild)], { organizationId: grandchild })),
    });
    const view = renderApp(`/organizations/${grandchild}/resources`, { session });
    let panel = await agentsTab();
    expect(await within(panel).findByRole('row', { name: /Support Bot/ })).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: a.activate })).not.toBeInTheDocument();
    view.unmount();

    const frozen = makeSession({ role: 'agency_admin', orgType: 'agency' });
    frozen.user.organization = { ...frozen.user.organization, status: 'suspended' };
    mockApi({ ...routes(OWN_ORG_ID, 'agency', undefined, activationListOf([activationOf('bot')])) });
    renderApp('/resources', { session: frozen });
    panel = await agentsTab();
    expect(await within(panel).findByRole('row', { name: /Support Bot/ })).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: a.activate })).not.toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: /Deactivate/ })).not.toBeInTheDocument();
  });

  it('shows Error loading agents with Retry, which loads them again', async () => {
    let fail = true;
    const api = mockApi({
      ...routes(OWN_ORG_ID, 'agency'),
      [`GET /api/organizations/${OWN_ORG_ID}/agents`]: () =>
        fail ? apiError(500, 'internal', MESSAGES.generic.internal) : json(200, activationListOf([activationOf('bot')])),
    });
    renderApp('/resources', {
      session: makeSession({ role: 'agency_admin', orgType: 'agency' }),
      queryClient: queryClientWithoutRetries(),
    });
    const panel = await agentsTab();
    expect(await within(panel).findByText(a.loadAgentsFailed)).toBeInTheDocument();
    fail = false;
    await userEvent.setup().click(within(panel).getByRole('button', { name: 'Retry' }));
    expect(await within(panel).findByRole('row', { name: /Support Bot/ })).toBeInTheDocument();
    expect(api.callsTo(`GET /api/organizations/${OWN_ORG_ID}/agents`)).toHaveLength(2);
  });

  it('the Agent Limit Status card seen before follows the live count after an activation: Warning, then Critical', async () => {
    let active = [activationOf('bot'), activationOf('etl'), activationOf('reporter')];
    const billing = () => billingOf({ limit: 4, active: active.length });
    const legacy = agentTypeOf('legacy', { status: 'active', retired_at: null });
    const api = mockApi({
      ...routes(OWN_ORG_ID, 'agency'),
      [`GET /api/organizations/${OWN_ORG_ID}/billing`]: () => json(200, billing()),
      [`GET /api/organizations/${OWN_ORG_ID}/agents`]: () => json(200, activationListOf(active, { limit: 4 })),
      'GET /api/agent-types': () => json(200, { agent_types: [...catalog().agent_types.slice(0, 3), legacy] }),
      [`POST /api/organizations/${OWN_ORG_ID}/agents`]: () => {
        active = [...active, activationOf('legacy')];
        return json(201, { activation: activationOf('legacy') });
      },
    });
    renderApp(`/orgs/${OWN_ORG_ID}/billing`, { session: makeSession({ role: 'agency_admin', orgType: 'agency' }) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: m.tabAgentLimits }));
    expect(await screen.findByTestId('agent-usage')).toHaveTextContent(m.agentsUsed(3, 4));
    expect(screen.getByText(m.adviceWarning)).toBeInTheDocument();

    await user.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: MESSAGES.shell.nav.resources }));
    const panel = await agentsTab();
    await user.click(await within(panel).findByRole('button', { name: a.activate }));
    const dialog = await screen.findByRole('dialog', { name: a.activateTitle });
    await user.click(await within(dialog).findByRole('radio', { name: /Legacy Bot/ }));
    await user.click(within(dialog).getByRole('button', { name: a.activateButton }));
    await waitFor(() => expect(within(panel).getByRole('button', { name: a.activate })).toBeDisabled());

    await user.click(within(screen.getByRole('navigation', { name: m.quickLinks })).getByRole('link', { name: m.linkBilling }));
    await user.click(await screen.findByRole('tab', { name: m.tabAgentLimits }));
    await waitFor(() => expect(screen.getByTestId('agent-usage')).toHaveTextContent(m.agentsUsed(4, 4)));
    expect(screen.getByText(m.adviceCritical)).toBeInTheDocument();
    expect(api.callsTo(`GET /api/organizations/${OWN_ORG_ID}/billing`).length).toBeGreaterThanOrEqual(2);
  });
});

describe('resources: activation caps', { timeout: 30_000 }, () => {
  const sp = MESSAGES.spendPages;
  const bot = activationOf('bot', { monthly_cap: { cap: '120.00', month: '2025-03', charged: '3.75' } });
  const capPath = `PUT /api/organizations/${OWN_ORG_ID}/agents/${bot.id}/cap`;

  function showCaps(answer: () => Response = () => json(200, { activation: bot })) {
    return showAgents({ agents: activationListOf([bot, activationOf('etl')]), extra: { [capPath]: answer } });
  }

  it("shows each agent's cap this month, or No cap", async () => {
    showCaps();
    const panel = await agentsTab();
    expect(
      within(await within(panel).findByRole('row', { name: /Support Bot/ })).getByText(sp.capUsed('3.75', '120.00 credits')),
    ).toBeInTheDocument();
    expect(within(panel).getByRole('row', { name: /Nightly ETL/ })).toHaveTextContent(sp.noCap);
  });

  it('Set cap sends the cap typed, and null when emptied', async () => {
    const api = showCaps();
    const panel = await agentsTab();
    const user = userEvent.setup();
    await user.click(await within(panel).findByRole('button', { name: sp.setCapAria('Support Bot') }));
    let dialog = await screen.findByRole('dialog', { name: sp.activationCapTitle('Support Bot') });
    const field = within(dialog).getByLabelText(sp.monthlyCapLabel);
    expect(field).toHaveValue('120.00');
    await user.clear(field);
    await user.type(field, '90.5');
    await user.type(within(dialog).getByLabelText(sp.weeklyCapLabel), '30');
    await user.click(within(dialog).getByRole('button', { name: sp.save }));
    expect(await screen.findByText(sp.capSaved('Support Bot'))).toBeInTheDocument();
    expect(api.callsTo(capPath)[0]?.body).toEqual({ monthly_cap: '90.50', weekly_cap: '30.00', daily_cap: null });

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(within(panel).getByRole('button', { name: sp.setCapAria('Support Bot') }));
    dialog = await screen.findByRole('dialog');
    await user.clear(within(dialog).getByLabelText(sp.monthlyCapLabel));
    await user.click(within(dialog).getByRole('button', { name: sp.save }));
    await waitFor(() => expect(api.callsTo(capPath)).toHaveLength(2));
    expect(api.callsTo(capPath)[1]?.body).toEqual({ monthly_cap: null, weekly_cap: null, daily_cap: null });
  });

  it("checks the cap before sending it, and shows the server's refusal", async () => {
    const api = showCaps(() => apiError(403, 'forbidden', MESSAGES.spend.activationCapOnlyAdmins));
    const panel = await agentsTab();
    const user = userEvent.setup();
    await user.click(await within(panel).findByRole('button', { name: sp.setCapAria('Support Bot') }));
    const dialog = await screen.findByRole('dialog');
    const field = within(dialog).getByLabelText(sp.monthlyCapLabel);
    await user.clear(field);
    await user.type(field, 'lots');
    await user.click(within(dialog).getByRole('button', { name: sp.save }));
    expect(await within(dialog).findByText(MESSAGES.spend.capInvalid)).toBeInTheDocument();
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo(capPath)).toHaveLength(0);

    await user.clear(field);
    await user.type(field, '10');
    await user.click(within(dialog).getByRole('button', { name: sp.save }));
    expect(await within(dialog).findByText(MESSAGES.spend.activationCapOnlyAdmins)).toBeInTheDocument();
    expect(within(dialog).getByText(sp.capSaveFailed)).toBeInTheDocument();
  });
});
