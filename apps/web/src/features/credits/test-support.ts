/** Organizations of the allocation tests: the own house and its children. */
import type { Organization, OrganizationDetail } from '@console/domain';
import { OWN_ORG_ID } from '@/test/helpers';

export { OWN_ORG_ID };
export const CHILD_ID = '00000000-0000-4000-8000-0000000000c1';
export const OTHER_CHILD_ID = '00000000-0000-4000-8000-0000000000c2';

export function organization(overrides: Partial<OrganizationDetail> = {}): OrganizationDetail {
  const id = overrides.id ?? OWN_ORG_ID;
  const credit = overrides.credit_balance ?? '1000.00';
  return {
    id,
    name: 'House',
    description: null,
    org_type: 'house',
    parent_org_id: null,
    status: 'active',
    disable_parent_invites: false,
    created_at: '2024-01-01T00:00:00.000Z',
    updated_at: '2024-01-01T00:00:00.000Z',
    deleted_at: null,
    credit_balance: credit,
    activated_agent_limit: 10,
    organization_billing_settings: { organization_id: id, credit_balance: credit, activated_agent_limit: 10, low_balance_threshold: '100.00' },
    active_agent_count: 0,
    child_count: 0,
    ancestors: [],
    ...overrides,
  };
}

export function orgList(parent: Organization, organizations: Organization[]) {
  return { organization: parent, organizations, total: organizations.length, page: 1, page_size: 100, total_pages: 1 };
}
