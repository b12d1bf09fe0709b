import { type Dashboard, type Earnings, type OrgType, type PriceBook } from '@console/domain';
import { cleanup, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { focusManager } from '@tanstack/react-query';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { LIVE_REFRESH_MS } from '@/api/live';
import { apiError, json, makeSession, mockApi, OWN_ORG_ID, queryClientWithoutRetries, renderApp } from '@/test/helpers';
import { makeDashboard, makeEarnings, noUsage } from '../test-support';
import { grantListOf } from '@/test/grant-data';
import { MESSAGES } from '../wording';

const m = MESSAGES.dashboardPages;

const ROLE: Record<OrgType, string> = {
  house: 'house_admin',
  super_agency: 'super_agency_admin',
  agency: 'agency_admin',
  tenant: 'tenant_admin',
};

const EARNINGS = `GET /api/organizations/${OWN_ORG_ID}/earnings`;
const noReceivables = { days_0_30: '0.00', days_31_60: '0.00', days_61_plus: '0.00', total: '0.00', overdue: 0 };

function showDashboard(
  orgType: OrgType,
  options: { role?: string; dashboard?: Dashboard; path?: string; earnings?: Earnings; book?: PriceBook } = {},
) {
  const session = makeSession({ role: options.role ?? ROLE[orgType], orgType, orgName: 'Acme Corporation' });
  const dashboard = options.dashboard ?? makeDashboard(orgType);
  const api = mockApi({
    'GET /api/users/me': () => json(200, session.user),
    'GET /api/dashboard': () => json(200, dashboard),
    [EARNINGS]: () => json(200, options.earnings ?? makeEarnings()),
    [`GET /api/organizations/${OWN_ORG_ID}/prices`]: () =>
      json(200, options.book ?? { organization_id: OWN_ORG_ID, catalog: false, can_edit: true, items: [] }),
    [`GET /api/organizations/${OWN_ORG_ID}/receivables`]: () => json(200, { currency: null, children: [], totals: noReceivables }),
    'GET /api/credit-grants/expiring': () => json(200, { grants: [] }),
    [`GET /api/organizations/${OWN_ORG_ID}/credit-grants`]: () => json(200, grantListOf()),
  });
  renderApp(options.path ?? '/dashboard', { session });
  return { api, session };
}

const card = (name: string) => screen.getByRole('heading', { level: 2, name }).closest('[class*="rounded-xl"]') as HTMLElement;

describe('dashboard', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    configure({ asyncUtilTimeout: 15_000 });
    await Promise.all([import('./dashboard-page'), import('@/app/shell/app-shell'), import('../components/credit-usage-chart')]);
  });

  it('shows a loading state, then the organization name from /api/users/me', async () => {
    const session = makeSession({ orgName: 'Name In Token' });
    let answer: (response: Response) => void = () => {};
    const api = mockApi({
      'GET /api/users/me': () => new Promise<Response>((resolve) => (answer = resolve)),
      'GET /api/dashboard': () => json(200, makeDashboard('tenant', 'Northwind Agency')),
      'GET /api/credit-grants/expiring': () => json(200, { grants: [] }),
      [`GET /api/organizations/${OWN_ORG_ID}/credit-grants`]: () => json(200, grantListOf()),
    });
    renderApp('/dashboard', { session });
    await waitFor(() => expect(api.fetch).toHaveBeenCalled());
    expect(screen.getByRole('status')).toBeInTheDocument();

    const organization = { ...session.user.organization, name: 'Northwind Agency' };
    answer(json(200, { ...session.user, organization }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Northwind Agency' })).toBeInTheDocument();
    await screen.findByText(m.performanceMetrics);
    // The cards that load their own figures (Expiring soon) finish just after.
    await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
  });

  it('shows the load failure when the profile comes without its organization, which the contract requires', async () => {
    const session = makeSession();
    mockApi({ 'GET /api/users/me': () => json(200, { ...session.user, organization: null }) });
    renderApp('/dashboard', { session, queryClient: queryClientWithoutRetries() });
    expect(await screen.findByText(MESSAGES.shell.errorTitle)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.generic.unexpected)).toBeInTheDocument();
  });

  it('house: status breakdown, super agencies, credit flows, the credit card and the house tools', async () => {
    showDashboard('house');
    await screen.findByText(m.performanceMetrics);
    expect(screen.getByTestId('summary-balance')).toHaveTextContent('12,345.50 credits');
    // A parent's card leads with its subtree's usage (its own is a click away).
    expect(screen.getByTestId('summary-monthly-usage')).toHaveTextContent('552.59 credits');
    // What is free: a limit of 100 with 3 active leaves 97.
    expect(screen.getByTestId('summary-agents')).toHaveTextContent(/^97$/);
    expect(screen.getByText('Free to activate: 3 active of a limit of 100')).toBeInTheDocument();
    expect(screen.getByTestId('summary-depletion')).toHaveTextContent('274.3 months');
    expect(screen.getByTestId('metric-growth-monthly')).toHaveTextContent('3');
    expect(screen.getByText('+200% vs previous 30 days')).toBeInTheDocument();
    expect(screen.getByText(`vs previous 90 days: ${m.notComparable}`)).toBeInTheDocument();

    const status = card(m.organizationStatus);
    expect(within(status).getByTestId('status-active')).toHaveTextContent('5');
    expect(within(status).getByTestId('status-suspended')).toHaveTextContent('1');
    expect(within(status).getByRole('link', { name: 'Newest Org' })).toHaveAttribute('href', '/orgs/00000000-0000-4000-8000-0000000000c3');

    const children = within(card(m.childOrganizations)).getByRole('list', { name: 'Super Agency organizations' });
    expect(
      within(children)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([expect.stringContaining('First super_agency'), expect.stringContaining('Second super_agency')]);
    expect(within(children).getByText('1,200.00 credits')).toBeInTheDocument();

    const revenue = card(m.revenueOverview);
    expect(within(revenue).getByText(m.revenueNote)).toBeInTheDocument();
    expect(within(revenue).getByTestId('flow-allocated')).toHaveTextContent('1,500.50 credits');
    expect(within(revenue).getByRole('row', { name: /Consumption/ })).toHaveTextContent('-67.25');

    const tools = screen.getByRole('region', { name: m.tools });
    expect(within(tools).getByRole('link', { name: /Global Settings/ })).toHaveAttribute('href', '/settings');
    expect(within(tools).getByRole('link', { name: /System Health/ })).toHaveAttribute('href', '/debug');
    expect(within(tools).getByRole('link', { name: /User Management/ })).toHaveAttribute('href', '/team');
  });

  it('house manager: no System Health tool, since /debug would refuse it', async () => {
    showDashboard('house', { role: 'house_manager' });
    const tools = await screen.findByRole('region', { name: m.tools });
    expect(
      within(tools)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual([expect.stringContaining('Global Settings'), expect.stringContaining('User Management')]);
  });

  it('plain users: only the tools whose pages open for them (no team, no organization list)', async () => {
    showDashboard('tenant', { role: 'tenant_user' });
    const tools = await screen.findByRole('region', { name: m.tools });
    expect(
      within(tools)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/resources', '/dashboard?tab=performance']);
  });

  it('house user: Global Settings only', async () => {
    showDashboard('house', { role: 'house_user' });
    const tools = await screen.findByRole('region', { name: m.tools });
    expect(
      within(tools)
        .getAllByRole('link')
        .map((a) => a.getAttribute('href')),
    ).toEqual(['/settings']);
  });

  it('user-level roles: child and recent organizations by name, none a link, since the server refuses to open them', async () => {
    const dashboard = makeDashboard('super_agency');
    const more = { ...dashboard, credits: { ...dashboard.credits, by_child: { ...dashboard.credits.by_child, count: 40 } } };
    showDashboard('super_agency', { role: 'super_agency_user', dashboard: more });
    await screen.findByText(m.performanceMetrics);
    const children = card(m.childOrganizations);
    expect(within(children).getByText('First agency')).toBeInTheDocument();
    expect(within(children).queryAllByRole('link')).toEqual([]);
    const status = card(m.organizationStatus);
    expect(within(status).getByText('Newest Org')).toBeInTheDocument();
    expect(within(status).queryAllByRole('link')).toEqual([]);
    // Its creation day as every date of the console is written, not in the browser's locale ("3/9/2025").
    expect(within(status).getByText(/Mar 9, 2025/)).toBeInTheDocument();
  });

  it('admins keep the links to their children and to the whole list', async () => {
    const dashboard = makeDashboard('super_agency');
    const more = { ...dashboard, credits: { ...dashboard.credits, by_child: { ...dashboard.credits.by_child, count: 40 } } };
    showDashboard('super_agency', { dashboard: more });
    await screen.findByText(m.performanceMetrics);
    const children = card(m.childOrganizations);
    expect(within(children).getByRole('link', { name: 'First agency' })).toHaveAttribute('href', expect.stringMatching(/^\/orgs\//));
    expect(within(children).getByRole('link', { name: 'All child organizations' })).toHaveAttribute('href', '/orgs');
  });

  it("lists the children needing attention to a parent's admins: low balance, threshold, no active admin, links to each and to the filtered list", async () => {
    const dashboard = makeDashboard('super_agency');
    const low = (n: number, name: string, balance: string, hasAdmin: boolean) => ({
      id: `00000000-0000-4000-8000-0000000000d${n}`,
      name,
      org_type: 'agency' as const,
      status: 'active' as const,
      credit_balance: balance,
      activated_agent_limit: 5,
      low_balance_threshold: '100.00',
      low_balance: true,
      cap_standing: { reached: false, refused_this_month: 0 },
      has_active_admin: hasAdmin,
    });
    const attention = { count: 2, children: [low(1, 'Dry Agency', '0.00', false), low(2, 'Thin Agency', '42.50', true)] };
    showDashboard('super_agency', {
      dashboard: { ...dashboard, credits: { ...dashboard.credits, children_needing_attention: attention } },
    });
    await screen.findByText(m.performanceMetrics);
    const attentionCard = card(m.childrenNeedingAttention);
    expect(attentionCard).toHaveTextContent(m.childrenNeedingAttentionDescription(2));
    const rows = within(attentionCard).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([expect.stringContaining('Dry Agency'), expect.stringContaining('Thin Agency')]);
    expect(rows[0]).toHaveTextContent('Low balance0.00 creditsalert below 100.00');
    expect(rows[0]).toHaveTextContent(m.noActiveAdmin);
    expect(rows[1]).toHaveTextContent('42.50 credits');
    expect(rows[1]).not.toHaveTextContent(m.noActiveAdmin);
    expect(within(attentionCard).getByRole('link', { name: 'Dry Agency' })).toHaveAttribute(
      'href',
      '/orgs/00000000-0000-4000-8000-0000000000d1',
    );
    expect(within(attentionCard).getByRole('link', { name: m.allLowChildren })).toHaveAttribute('href', '/orgs?attention=low_balance');
  });

  it("a parent's Credits used is its whole subtree's, its own beneath; a tenant's is its own", async () => {
    showDashboard('house');
    await screen.findByText(m.performanceMetrics);
    expect(screen.getByText('Credits used with the organizations below, last 30 days')).toBeInTheDocument();
    expect(screen.getByTestId('metric-usage')).toHaveTextContent('552.59 credits');
    expect(screen.getByText('+10.5% vs previous 30 days; 45.00 credits by Acme Corporation itself')).toBeInTheDocument();
  });

  it('a parent\'s credit card leads with its subtree\'s usage, its own a click away, and no "No usage yet" while the subtree used credits', async () => {
    const dashboard = makeDashboard('agency', 'Northwind Agency');
    dashboard.credits.usage = { ...dashboard.credits.usage, current_period: '0.00', previous_period: '0.00', percent_change: null };
    dashboard.credits.subtree_usage = { current_period: '420.00', previous_period: '0.00', percent_change: null };
    dashboard.credits.depletion_months = null;
    showDashboard('agency', { dashboard, role: 'agency_admin' });
    const usage = await screen.findByTestId('summary-monthly-usage');
    expect(usage).toHaveTextContent('420.00 credits');
    expect(screen.getByText(m.usageHintSubtree(30))).toBeInTheDocument();
    expect(screen.getByTestId('summary-depletion')).toHaveTextContent(m.noOwnUsage);
    expect(screen.queryByText(m.noUsageYet)).not.toBeInTheDocument();
    const scope = screen.getByRole('group', { name: m.usageScope });
    expect(within(scope).getByRole('button', { name: m.agentsScopeSubtree })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(within(scope).getByRole('button', { name: m.agentsScopeOwn('Northwind Agency') }));
    expect(usage).toHaveTextContent('0.00 credits');
    expect(screen.getByText(m.usageHintOwn(30))).toBeInTheDocument();
  });

  it("a tenant's credit card has its own usage, with no choice of whose", async () => {
    showDashboard('tenant');
    expect(await screen.findByTestId('summary-monthly-usage')).toHaveTextContent('45.00 credits');
    expect(screen.queryByRole('group', { name: m.usageScope })).not.toBeInTheDocument();
  });

  it("a tenant's Credits used is its own", async () => {
    showDashboard('tenant');
    await screen.findByText(m.performanceMetrics);
    expect(screen.getByText('Credits used, last 30 days')).toBeInTheDocument();
    expect(screen.getByTestId('metric-usage')).toHaveTextContent('45.00 credits');
  });

  it('available agents: none free when the active agents fill (or exceed a lowered) limit', async () => {
    const dashboard = makeDashboard('tenant');
    showDashboard('tenant', {
      dashboard: { ...dashboard, resources: { ...dashboard.resources, activated_agent_limit: 2, active_agents: 5 } },
    });
    await screen.findByText(m.performanceMetrics);
    expect(screen.getByTestId('summary-agents')).toHaveTextContent(/^0$/);
    expect(screen.getByText('Free to activate: 5 active of a limit of 2')).toBeInTheDocument();
  });

  it('shows no such card when no child is low (or the viewer does not watch them)', async () => {
    showDashboard('super_agency', { role: 'super_agency_manager' });
    await screen.findByText(m.performanceMetrics);
    expect(screen.queryByRole('heading', { level: 2, name: m.childrenNeedingAttention })).toBeNull();
  });

  it('asks for the figures again every LIVE_REFRESH_MS while the tab is visible, and not while it is hidden', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api } = showDashboard('agency');
    await screen.findByTestId('summary-balance');
    const asked = () => api.callsTo('GET /api/dashboard').length;
    expect(asked()).toBe(1);
    await vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS);
    await waitFor(() => expect(asked()).toBe(2));

    focusManager.setFocused(false);
    try {
      await vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS * 3);
      expect(asked()).toBe(2);
    } finally {
      focusManager.setFocused(undefined);
    }
  });

  it('says how old the balance is next to it, and Refresh asks again', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { api } = showDashboard('agency');
    await screen.findByTestId('summary-balance');
    const balanceCard = screen.getByTestId('summary-balance').closest('[class*="rounded-xl"]') as HTMLElement;
    const freshness = within(balanceCard).getByTestId('freshness');
    expect(freshness).toHaveTextContent(MESSAGES.live.updatedAgo(0));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(freshness).toHaveTextContent(MESSAGES.live.updatedAgo(5));

    await userEvent
      .setup({ advanceTimers: vi.advanceTimersByTime })
      .click(within(freshness).getByRole('button', { name: MESSAGES.live.refresh }));
    await waitFor(() => expect(api.callsTo('GET /api/dashboard')).toHaveLength(2));
    await waitFor(() => expect(freshness).toHaveTextContent(MESSAGES.live.updatedAgo(0)));
  });

  it('super agency: status breakdown and its agencies; tools for agencies', async () => {
    showDashboard('super_agency');
    await screen.findByText(m.performanceMetrics);
    expect(screen.getByRole('heading', { name: m.organizationStatus })).toBeInTheDocument();
    expect(within(card(m.childOrganizations)).getByRole('list', { name: 'Agency organizations' })).toBeInTheDocument();
    const tools = screen.getByRole('region', { name: m.tools });
    expect(within(tools).getByRole('link', { name: /Agency Management/ })).toHaveAttribute('href', '/orgs');
    expect(within(tools).getByRole('link', { name: /Resource Allocation/ })).toHaveAttribute('href', '/resources');
    expect(within(tools).getByRole('link', { name: /Performance Analytics/ })).toHaveAttribute('href', '/dashboard?tab=performance');
  });

  it('agency: its tenants and credit flows, but no status breakdown', async () => {
    showDashboard('agency');
    await screen.findByText(m.performanceMetrics);
    expect(screen.queryByRole('heading', { name: m.organizationStatus })).not.toBeInTheDocument();
    expect(within(card(m.childOrganizations)).getByRole('list', { name: 'Tenant organizations' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: m.revenueOverview })).toBeInTheDocument();
    const tools = screen.getByRole('region', { name: m.tools });
    expect(within(tools).getByRole('link', { name: /Tenant Management/ })).toHaveAttribute('href', '/orgs');
    expect(within(tools).getByRole('link', { name: /Agent Configuration/ })).toHaveAttribute('href', '/resources');
    expect(within(tools).getByRole('link', { name: /Tenant Analytics/ })).toHaveAttribute('href', '/dashboard?tab=performance');
  });

  it('super agency and agency: Earned this month, by child and by agent, with the way to the earnings in the ledger', async () => {
    for (const orgType of ['super_agency', 'agency'] as const) {
      const { api } = showDashboard(orgType);
      const earned = await screen.findByTestId('earned-total');
      expect(earned).toHaveTextContent('1,234.50 credits');
      const box = card(MESSAGES.pricingPages.earnedTitle);
      expect(within(box).getByText(/November 2026/)).toBeInTheDocument();
      const byChild = within(box).getByRole('table', { name: MESSAGES.pricingPages.byChild });
      expect(within(byChild).getByRole('rowheader', { name: 'Tenant One' })).toBeInTheDocument();
      expect(within(byChild).getByRole('cell', { name: '1,000.00' })).toBeInTheDocument();
      const byAgent = within(box).getByRole('table', { name: MESSAGES.pricingPages.byAgent });
      expect(within(byAgent).getByRole('rowheader', { name: 'Support Bot' })).toBeInTheDocument();
      expect(within(box).getByRole('link', { name: MESSAGES.pricingPages.viewInLedger })).toHaveAttribute(
        'href',
        '/credit-ledger?type=earning',
      );
      expect(api.callsTo(EARNINGS)).toHaveLength(1);
      cleanup();
    }
  });

  it('Earned this month says which prices a rise of what the seller pays put below its own, with the way to Pricing', async () => {
    const item = (name: string, floored: boolean) => ({
      agent_type: { id: crypto.randomUUID(), code: name.toLowerCase().replace(' ', '-'), name, unit: 'run', status: 'active' as const },
      my_price: '2.0000',
      book_price: floored ? '1.5000' : '2.5000',
      children_price: floored ? '2.0000' : '2.5000',
      margin: floored ? '0.0000' : '0.5000',
      floored,
    });
    showDashboard('agency', {
      book: { organization_id: OWN_ORG_ID, catalog: false, can_edit: true, items: [item('Support Bot', true), item('Scheduler', false)] },
    });
    expect(await screen.findByText(MESSAGES.pricingPages.earnedBelowPrice(['Support Bot']))).toBeInTheDocument();
    const box = card(MESSAGES.pricingPages.earnedTitle);
    expect(within(box).getByRole('link', { name: MESSAGES.pricingPages.earnedSetPrice })).toHaveAttribute('href', '/pricing');
    cleanup();
    // A book with nothing below the seller's own price: no note.
    showDashboard('agency');
    await screen.findByTestId('earned-total');
    expect(screen.queryByRole('link', { name: MESSAGES.pricingPages.earnedSetPrice })).not.toBeInTheDocument();
  });

  it('Earned this month says so when nothing was earned, and is not shown to the house or a tenant', async () => {
    showDashboard('agency', { earnings: { month: '2026-11', total: '0.00', by_child: [], by_agent: [] } });
    expect(await screen.findByText(MESSAGES.pricingPages.earnedNothing)).toBeInTheDocument();
    cleanup();
    for (const orgType of ['house', 'tenant'] as const) {
      const { api } = showDashboard(orgType);
      await screen.findByText(m.performanceMetrics);
      expect(screen.queryByText(MESSAGES.pricingPages.earnedTitle)).not.toBeInTheDocument();
      expect(api.callsTo(EARNINGS)).toHaveLength(0);
      cleanup();
    }
  });

  it('tenant: no status breakdown, no child organizations, no revenue; "No usage yet" without usage', async () => {
    const dashboard = makeDashboard('tenant');
    dashboard.credits.depletion_months = null;
    showDashboard('tenant', { dashboard });
    await screen.findByText(m.performanceMetrics);
    expect(screen.queryByRole('heading', { name: m.organizationStatus })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: m.childOrganizations })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: m.revenueOverview })).not.toBeInTheDocument();
    expect(screen.queryByTestId('metric-organizations')).not.toBeInTheDocument();
    expect(screen.getByTestId('summary-depletion')).toHaveTextContent(m.noUsageYet);
    const tools = screen.getByRole('region', { name: m.tools });
    expect(within(tools).getByRole('link', { name: /Agent Interactions/ })).toHaveAttribute('href', '/resources');
    expect(within(tools).getByRole('link', { name: /Customer Management/ })).toHaveAttribute('href', '/team');
    expect(within(tools).getByRole('link', { name: /Business Analytics/ })).toHaveAttribute('href', '/dashboard?tab=performance');
  });

  it("agents tab of a parent: its whole subtree's agents and usage first, its own a click away", async () => {
    showDashboard('agency', { path: '/dashboard?tab=agents' });
    await screen.findByRole('tabpanel', { name: m.tabAgents });
    const performance = card(m.agentPerformance);
    const below = within(performance).getByRole('region', { name: m.subtreeAgentsTitle('Acme Corporation') });
    expect(within(below).getByTestId('subtree-agents-active')).toHaveTextContent('12');
    expect(within(below).getByTestId('subtree-agents-error')).toHaveTextContent('2');
    expect(within(below).getByTestId('subtree-agents-health')).toHaveTextContent('81.2');
    // Its own agents stay listed below.
    expect(within(performance).getByTestId('agents-active')).toHaveTextContent('1');

    const analytics = card(m.agentAnalytics);
    const scope = within(analytics).getByRole('group', { name: m.agentsScope });
    expect(within(scope).getByRole('button', { name: m.agentsScopeSubtree })).toHaveAttribute('aria-pressed', 'true');
    expect(within(analytics).getByTestId('agents-events-total')).toHaveTextContent('340');
    expect(within(analytics).getByTestId('agents-credits-total')).toHaveTextContent('56.10 credits');
    await userEvent.click(within(analytics).getByRole('button', { name: '30 days' }));
    expect(within(analytics).getByTestId('agents-credits-total')).toHaveTextContent('240.00 credits');
    await userEvent.click(within(scope).getByRole('button', { name: m.agentsScopeOwn('Acme Corporation') }));
    expect(within(analytics).getByTestId('agents-events-total')).toHaveTextContent('1,205');
    expect(within(analytics).getByTestId('agents-credits-total')).toHaveTextContent('3.87 credits');
  });

  it('agents tab of a tenant: no subtree; the live agents by reported status with their health, worst first, and usage by agent over 7 and 30 days', async () => {
    showDashboard('tenant', { path: '/dashboard?tab=agents' });
    const panel = await screen.findByRole('tabpanel', { name: m.tabAgents });
    const performance = card(m.agentPerformance);
    expect(within(performance).getByTestId('agents-active')).toHaveTextContent('1');
    expect(within(performance).getByTestId('agents-error')).toHaveTextContent('1');
    expect(within(performance).getByTestId('agents-health')).toHaveTextContent('77.5');
    const live = within(within(performance).getByRole('list', { name: m.agentPerformance })).getAllByRole('listitem');
    expect(live.map((li) => li.textContent)).toEqual([
      expect.stringMatching(/^Nightly ETL.*60Error$/),
      expect.stringMatching(/^Support Bot.*95Active$/),
      expect.stringMatching(new RegExp(`^Reporter.*${MESSAGES.agentPages.notReported}Inactive$`)),
    ]);
    expect(within(live[0]!).getByRole('progressbar', { name: MESSAGES.agentPages.healthLabel(60) })).toHaveAttribute('data-tone', 'red');
    expect(within(live[1]!).getByRole('progressbar', { name: MESSAGES.agentPages.healthLabel(95) })).toHaveAttribute('data-tone', 'green');

    const analytics = card(m.agentAnalytics);
    const week = within(analytics).getByRole('table', { name: `${m.agentAnalytics}, last 7 days` });
    expect(
      within(week)
        .getAllByRole('row')
        .slice(1, -1)
        .map((row) =>
          within(row)
            .getAllByRole('cell')
            .map((td) => td.textContent),
        ),
    ).toEqual([
      ['Support Bot', '2', '3.5 × run', '1.75 credits'],
      ['Nightly ETL', '2', '10.4 × 1k rows', '0.12 credits'],
    ]);
    expect(within(analytics).getByTestId('agents-credits-total')).toHaveTextContent('1.87 credits');
    await userEvent.click(within(analytics).getByRole('button', { name: '30 days' }));
    expect(within(analytics).getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');
    expect(within(analytics).getByTestId('agents-events-total')).toHaveTextContent('1,205');
    expect(within(analytics).getByRole('row', { name: /Support Bot/ })).toHaveTextContent('1,203');
    expect(panel).toHaveTextContent(m.notReportedFigures);
    expect(within(analytics).queryByRole('group', { name: m.agentsScope })).not.toBeInTheDocument();
    expect(within(performance).queryByRole('region', { name: m.subtreeAgentsTitle('Acme Corporation') })).not.toBeInTheDocument();
  });

  it('agents tab: says so when no agent is activated and no usage was reported', async () => {
    const dashboard = makeDashboard('tenant');
    dashboard.agents = {
      by_status: { active: 0, inactive: 0, error: 0 },
      average_health: null,
      activations: [],
      usage: { last_7_days: noUsage(7), last_30_days: noUsage(30) },
      subtree: null,
    };
    showDashboard('tenant', { dashboard, path: '/dashboard?tab=agents' });
    const panel = await screen.findByRole('tabpanel', { name: m.tabAgents });
    expect(within(panel).getByText(m.noActivations, { exact: false })).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: MESSAGES.billingPages.resourcesTitle })).toHaveAttribute('href', '/resources');
    expect(within(panel).getByText(m.noUsageInPeriod(7))).toBeInTheDocument();
    expect(within(panel).queryByRole('table')).not.toBeInTheDocument();
  });

  it("warns about a balance below the organization's own alert threshold", async () => {
    const dashboard = makeDashboard('agency');
    dashboard.credits.balance = '450.00';
    dashboard.credits.low_balance_threshold = '500.00';
    showDashboard('agency', { dashboard });
    expect(await screen.findByText(MESSAGES.credits.lowBalance)).toBeInTheDocument();
    expect(screen.getByText(MESSAGES.thresholdPages.below('500.00 credits'))).toBeInTheDocument();
  });

  it('does not warn at the threshold', async () => {
    const dashboard = makeDashboard('agency');
    dashboard.credits.balance = '100.00';
    showDashboard('agency', { dashboard });
    await screen.findByText(m.performanceMetrics);
    expect(screen.queryByText(MESSAGES.credits.lowBalance)).not.toBeInTheDocument();
  });

  it('credits tab: 7-day usage, forecast, and Allocate Credits to the allocation page for admins', async () => {
    showDashboard('agency');
    await screen.findByText(m.performanceMetrics);
    await userEvent.click(screen.getByRole('tab', { name: m.tabCredits }));
    const panel = screen.getByRole('tabpanel', { name: m.tabCredits });
    const table = within(panel).getByRole('table', { name: m.creditUsage });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(7);
    expect(rows[6]).toHaveTextContent('2025-03-1042.252.2540.00');
    expect(within(panel).getByTestId('forecast-month')).toHaveTextContent('45.00 credits');
    expect(within(panel).getByTestId('forecast-quarter')).toHaveTextContent('135.00 credits');
    expect(within(panel).getByText(m.forecastBasis(30))).toBeInTheDocument();
    expect(within(panel).getByRole('link', { name: m.allocateCredits })).toHaveAttribute(
      'href',
      '/orgs/00000000-0000-4000-8000-000000000001/allocate-credits',
    );
    await userEvent.click(within(panel).getByRole('link', { name: m.allocateCredits }));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/orgs/00000000-0000-4000-8000-000000000001/allocate-credits'),
    );
  });

  it('credits tab: no Allocate Credits for a manager', async () => {
    showDashboard('agency', { role: 'agency_manager', path: '/dashboard?tab=credits' });
    const panel = await screen.findByRole('tabpanel', { name: m.tabCredits });
    expect(within(panel).getByTestId('panel-balance')).toHaveTextContent('12,345.50 credits');
    expect(within(panel).queryByRole('link', { name: m.allocateCredits })).not.toBeInTheDocument();
  });

  it('performance tab (opened by its link): resource bars coloured by their tone', async () => {
    const dashboard = makeDashboard('super_agency');
    dashboard.resources = { activated_agent_limit: 100, active_agents: 0, children_limit_total: 80 };
    showDashboard('super_agency', { dashboard, path: '/dashboard?tab=performance' });
    const panel = await screen.findByRole('tabpanel', { name: m.tabPerformance });
    expect(within(panel).getByRole('progressbar', { name: 'Active agents: 0%' })).toHaveAttribute('data-tone', 'green');
    expect(within(panel).getByRole('progressbar', { name: 'Limits given to child organizations: 80%' })).toHaveAttribute(
      'data-tone',
      'red',
    );
    expect(within(panel).getByText(m.noActivations)).toBeInTheDocument();
    expect(within(panel).getByRole('heading', { name: m.revenueOverview })).toBeInTheDocument();
    // Agent analytics opens on the month there.
    expect(within(panel).getByRole('table', { name: `${m.agentAnalytics}, last 30 days` })).toBeInTheDocument();
  });

  it('shows Access Denied without retrying on 403', async () => {
    const session = makeSession();
    const api = mockApi({
      'GET /api/users/me': () => json(200, session.user),
      'GET /api/dashboard': () => apiError(403, 'forbidden', 'You do not have permission to do this.'),
    });
    renderApp('/dashboard', { session });
    expect(await screen.findByText(MESSAGES.auth.accessDenied)).toBeInTheDocument();
    expect(api.callsTo('GET /api/dashboard')).toHaveLength(1);
  });
});
