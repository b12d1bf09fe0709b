import type { Dashboard, DashboardAgentUsagePeriod, Earnings, OrgType } from '@console/domain';

export const DASHBOARD_ORG_ID = '00000000-0000-4000-8000-000000000001';
const child = (n: number) => `00000000-0000-4000-8000-0000000000c${n}`;

const CHILD_TYPE: Record<OrgType, Exclude<OrgType, 'house'> | null> = {
  house: 'super_agency',
  super_agency: 'agency',
  agency: 'tenant',
  tenant: null,
};

export const AGENT_IDS = {
  bot: '00000000-0000-4000-8000-0000000000a1',
  etl: '00000000-0000-4000-8000-0000000000a2',
  reporter: '00000000-0000-4000-8000-0000000000a3',
};

/** A period of agent usage with no events. */
export const noUsage = (days: number): DashboardAgentUsagePeriod => ({ days, events: 0, credits: '0.00', by_agent: [] });

/** The agents of a dashboard: three live activations and usage of two agents. */
/** A parent's subtree: more agents and more usage than its own, so a test tells them apart. */
export function subtreeAgentFigures(): NonNullable<Dashboard['agents']['subtree']> {
  const agent = (events: number, credits: string) => ({
    agent_type_id: AGENT_IDS.bot,
    code: 'bot',
    name: 'Support Bot',
    unit: 'run',
    events,
    units: `${events}.0000`,
    credits,
  });
  return {
    by_status: { active: 12, inactive: 3, error: 2 },
    average_health: 81.2,
    usage: {
      last_7_days: { days: 7, events: 340, credits: '56.10', by_agent: [agent(340, '56.10')] },
      last_30_days: { days: 30, events: 1500, credits: '240.00', by_agent: [agent(1500, '240.00')] },
    },
  };
}

export function agentFigures(): Dashboard['agents'] {
  const activation = (
    key: keyof typeof AGENT_IDS,
    name: string,
    kind: 'assistant' | 'automation' | 'analytics',
    status: 'active' | 'inactive' | 'error',
    health: number | null,
  ) => ({
    id: AGENT_IDS[key].replace('0000000000a', '0000000000b'),
    agent_type_id: AGENT_IDS[key],
    code: key,
    name,
    kind,
    status,
    health_score: health,
    // Every one has reported: one that has not reads Awaiting first report.
    last_active_at: '2025-03-01T00:05:00.000Z',
    activated_at: '2025-03-01T00:00:00.000Z',
  });
  const bot = (events: number, units: string, credits: string) => ({
    agent_type_id: AGENT_IDS.bot,
    code: 'bot',
    name: 'Support Bot',
    unit: 'run',
    events,
    units,
    credits,
  });
  const etl = {
    agent_type_id: AGENT_IDS.etl,
    code: 'etl',
    name: 'Nightly ETL',
    unit: '1k rows',
    events: 2,
    units: '10.4000',
    credits: '0.12',
  };
  return {
    by_status: { active: 1, inactive: 1, error: 1 },
    average_health: 77.5,
    subtree: null,
    activations: [
      activation('etl', 'Nightly ETL', 'automation', 'error', 60),
      activation('bot', 'Support Bot', 'assistant', 'active', 95),
      activation('reporter', 'Reporter', 'analytics', 'inactive', null),
    ],
    usage: {
      last_7_days: { days: 7, events: 4, credits: '1.87', by_agent: [bot(2, '3.5000', '1.75'), etl] },
      last_30_days: { days: 30, events: 1205, credits: '3.87', by_agent: [bot(1203, '7.5000', '3.75'), etl] },
    },
  };
}

/** A dashboard answer as the server gives it, with figures a test can recognise. */
export function makeDashboard(orgType: OrgType, name = 'Acme Corporation'): Dashboard {
  const childType = CHILD_TYPE[orgType];
  const children = childType
    ? [
        {
          id: child(1),
          name: `First ${childType}`,
          org_type: childType,
          status: 'active' as const,
          credit_balance: '1200.00',
          activated_agent_limit: 30,
        },
        {
          id: child(2),
          name: `Second ${childType}`,
          org_type: childType,
          status: 'inactive' as const,
          credit_balance: '300.50',
          activated_agent_limit: 10,
        },
      ]
    : [];
  const history = [6, 5, 4, 3, 2, 1, 0].map((n) => ({
    date: `2025-03-${String(10 - n).padStart(2, '0')}`,
    consumption: n === 0 ? '42.25' : '0.00',
    refunds: n === 0 ? '2.25' : '0.00',
    net: n === 0 ? '40.00' : '0.00',
  }));
  return {
    organization: { id: DASHBOARD_ORG_ID, name, org_type: orgType, status: 'active' },
    generated_at: '2025-03-10T12:00:00.000Z',
    organizations: {
      total: childType ? 7 : 0,
      by_status: childType ? { active: 5, inactive: 1, suspended: 1 } : { active: 0, inactive: 0, suspended: 0 },
      by_type: { house: 0, super_agency: 0, agency: 0, tenant: 0, ...(childType ? { [childType]: 7 } : {}) },
      recent: childType
        ? [{ id: child(3), name: 'Newest Org', org_type: childType, status: 'active', created_at: '2025-03-09T10:00:00.000Z' }]
        : [],
      growth: {
        monthly: { days: 30, current: 3, previous: 1, percent: 200 },
        quarterly: { days: 90, current: 4, previous: 0, percent: null },
        yearly: { days: 365, current: 6, previous: 1, percent: 500 },
      },
    },
    credits: {
      balance: '12345.50',
      allocated: '1500.50',
      received: '20000.00',
      usage: { period_days: 30, current_period: '45.00', previous_period: '20.00', percent_change: 125, history },
      subtree_usage: childType
        ? { current_period: '552.59', previous_period: '500.00', percent_change: 10.5 }
        : { current_period: '45.00', previous_period: '20.00', percent_change: 125 },
      low_balance_threshold: '100.00',
      forecast: {
        basis_days: 30,
        average_daily: '1.50',
        next_month: '45.00',
        next_quarter: '135.00',
        method: 'Average daily net consumption of the last 30 days, times 30 (next month) and times 90 (next quarter).',
      },
      depletion_months: 274.3,
      by_child: { count: children.length, total_balance: childType ? '1500.50' : '0.00', children },
      children_needing_attention: { count: 0, children: [] },
      crossed_alert_lines: [],
      by_entry_type: [
        { entry_type: 'allocation_sent', total: '-1500.50', count: 2 },
        { entry_type: 'consumption', total: '-67.25', count: 4 },
      ],
    },
    resources: { activated_agent_limit: 100, active_agents: 3, children_limit_total: childType ? 60 : 0 },
    team: { total: 5, by_status: { active: 4, inactive: 1, pending: 0, suspended: 0 } },
    agents: { ...agentFigures(), subtree: childType ? subtreeAgentFigures() : null },
  };
}

/** What a seller earned this month: two children, two agents. */
export function makeEarnings(): Earnings {
  return {
    month: '2026-11',
    total: '1234.50',
    by_child: [
      { organization_id: child(1), name: 'Tenant One', amount: '1000.00' },
      { organization_id: child(2), name: 'Tenant Two', amount: '234.50' },
    ],
    by_agent: [
      { agent_type_id: AGENT_IDS.bot, code: 'bot', name: 'Support Bot', amount: '1200.00' },
      { agent_type_id: AGENT_IDS.etl, code: 'etl', name: 'Nightly ETL', amount: '34.50' },
    ],
  };
}
