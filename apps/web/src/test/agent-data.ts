import type { Activation, ActivationList, AgentType } from '@console/domain';
import { OWN_ORG_ID } from './helpers';

export const TYPE_IDS = {
  bot: '00000000-0000-4000-8000-0000000000a1',
  etl: '00000000-0000-4000-8000-0000000000a2',
  reporter: '00000000-0000-4000-8000-0000000000a3',
  legacy: '00000000-0000-4000-8000-0000000000a4',
};

/** An agent type of the catalog as GET /api/agent-types lists it. */
export function agentTypeOf(key: keyof typeof TYPE_IDS, overrides: Partial<AgentType> = {}): AgentType {
  const base: Record<keyof typeof TYPE_IDS, Pick<AgentType, 'code' | 'name' | 'kind' | 'unit' | 'price'>> = {
    bot: { code: 'support-bot', name: 'Support Bot', kind: 'assistant', unit: 'run', price: '0.5000' },
    etl: { code: 'etl', name: 'Nightly ETL', kind: 'automation', unit: '1k rows', price: '0.0125' },
    reporter: { code: 'reporter', name: 'Reporter', kind: 'analytics', unit: 'report', price: '2.0000' },
    legacy: { code: 'legacy', name: 'Legacy Bot', kind: 'other', unit: 'call', price: '1.0000' },
  };
  return {
    id: TYPE_IDS[key],
    description: null,
    status: key === 'legacy' ? 'retired' : 'active',
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    retired_at: key === 'legacy' ? '2025-02-01T00:00:00.000Z' : null,
    ...base[key],
    ...overrides,
  };
}

export const catalog = () => ({ agent_types: (Object.keys(TYPE_IDS) as (keyof typeof TYPE_IDS)[]).map((key) => agentTypeOf(key)) });

/** A live activation of an agent type, as the activations list gives it. */
export function activationOf(key: keyof typeof TYPE_IDS, overrides: Partial<Activation> = {}, organizationId = OWN_ORG_ID): Activation {
  const { id, code, name, kind, unit, price, status } = agentTypeOf(key);
  return {
    id: TYPE_IDS[key].replace('0000000000a', '0000000000b'),
    organization_id: organizationId,
    agent_type: { id, code, name, kind, unit, price, status },
    status: 'active',
    health_score: 95,
    last_active_at: null,
    activated_at: '2025-03-01T00:00:00.000Z',
    usage_30d: { events: 1203, units: '7.5000', credits: '3.75' },
    monthly_cap: { cap: null, month: '2025-03', charged: '3.75' },
    daily_cap: { cap: null, window_start: '2025-03-14', charged: '0.25' },
    weekly_cap: { cap: null, window_start: '2025-03-10', charged: '1.25' },
    ...overrides,
  };
}

export function activationListOf(activations: Activation[], { limit = 5, organizationId = OWN_ORG_ID } = {}): ActivationList {
  return { organization_id: organizationId, activations, active_agent_count: activations.length, activated_agent_limit: limit };
}
