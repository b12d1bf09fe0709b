import type { BillingResponse, CapacityResponse, OrganizationDetail, OrgType, SpendControls } from '@console/domain';
import { OWN_ORG_ID } from './helpers';
import { makeOrganization } from './organization-data';

export { OWN_ORG_ID };
/** A direct child of the own organization (unless a test gives it another parent). */
export const OTHER_ORG_ID = '00000000-0000-4000-8000-000000000002';
const OWN_PARENT_ID = '00000000-0000-4000-8000-0000000000ff';
export const CHILD_IDS = [
  '00000000-0000-4000-8000-0000000000c1',
  '00000000-0000-4000-8000-0000000000c2',
  '00000000-0000-4000-8000-0000000000c3',
];

/** A billing answer as GET /api/organizations/:id/billing returns it. */
export function billingOf(
  overrides: {
    id?: string;
    limit?: number;
    active?: number;
    balance?: string;
    max?: number | null;
    childrenTotal?: number;
    manage?: boolean;
    allocate?: boolean;
  } = {},
): BillingResponse {
  return {
    organization_id: overrides.id ?? OWN_ORG_ID,
    billing_settings: {
      credit_balance: overrides.balance ?? '250.00',
      activated_agent_limit: overrides.limit ?? 100,
      low_balance_threshold: '100.00',
    },
    active_agent_count: overrides.active ?? 0,
    max_activated_agent_limit: overrides.max === undefined ? 200 : overrides.max,
    children_limit_total: overrides.childrenTotal ?? 0,
    permissions: { manage_activated_agent_limit: overrides.manage ?? false, allocate_credits: overrides.allocate ?? false },
  };
}

/**
 * An organization detail as GET /api/organizations/:id returns it (inside `{ organization }`):
 * the own organization under a parent of its own, any other a direct child of the own one.
 */
export function organizationOf(
  overrides: {
    id?: string;
    name?: string;
    type?: OrgType;
    parent?: string | null;
    limit?: number;
    balance?: string;
    childCount?: number;
  } = {},
): OrganizationDetail {
  const id = overrides.id ?? OWN_ORG_ID;
  return makeOrganization({
    id,
    name: overrides.name ?? 'Acme Corporation',
    org_type: overrides.type ?? 'agency',
    parent_org_id: overrides.parent !== undefined ? overrides.parent : id === OWN_ORG_ID ? OWN_PARENT_ID : OWN_ORG_ID,
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-01T00:00:00Z',
    credit_balance: overrides.balance ?? '250.00',
    activated_agent_limit: overrides.limit ?? 100,
    child_count: overrides.childCount ?? 0,
  });
}

/** A capacity answer: the children get the given limits, the first of them inactive when `inactiveFirst`. */
export function capacityOf({ id = OWN_ORG_ID, limit = 100, childLimits = [] as number[], inactiveFirst = false } = {}): CapacityResponse {
  const total = childLimits.reduce((sum, value) => sum + value, 0);
  return {
    organization_id: id,
    activated_agent_limit: limit,
    children_limit_total: total,
    available_parent_capacity: limit - total,
    children: childLimits.map((childLimit, index) => ({
      id: CHILD_IDS[index]!,
      name: `Child ${index + 1}`,
      org_type: 'tenant',
      status: inactiveFirst && index === 0 ? 'inactive' : 'active',
      activated_agent_limit: childLimit,
    })),
  };
}

/** Spend controls as GET /api/organizations/:id/spend-controls answers them: no cap, no top-up, not editable, unless given. */
export function spendControlsOf(overrides: Partial<SpendControls> = {}): SpendControls {
  return {
    organization_id: OWN_ORG_ID,
    spend_cap: { cap: null, month: '2025-03', charged: '0.00' },
    daily_spend_cap: { cap: null, window_start: '2025-03-14', charged: '0.00' },
    weekly_spend_cap: { cap: null, window_start: '2025-03-10', charged: '0.00' },
    cap_standing: { reached: false, refused_this_month: 0 },
    top_up: null,
    topped_up_this_month: '0.00',
    last_top_up: null,
    top_ups: [],
    can_edit: false,
    ...overrides,
  };
}
