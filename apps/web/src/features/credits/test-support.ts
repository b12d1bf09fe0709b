/** Organizations of the allocation tests: the own house and its children. */
import type { Organization, OrganizationDetail } from '@console/domain';
import { OWN_ORG_ID } from '@/test/helpers';
import { makeList, makeOrganization } from '@/test/organization-data';

export { OWN_ORG_ID };
export const CHILD_ID = '00000000-0000-4000-8000-0000000000c1';
export const OTHER_CHILD_ID = '00000000-0000-4000-8000-0000000000c2';

/** The own house by default: 1000 credits and a limit of 10 agents. */
export function organization(overrides: Partial<OrganizationDetail> = {}): OrganizationDetail {
  return makeOrganization({
    id: OWN_ORG_ID,
    name: 'House',
    org_type: 'house',
    parent_org_id: null,
    created_at: '2024-01-01T00:00:00.000Z',
    updated_at: '2024-01-01T00:00:00.000Z',
    credit_balance: '1000.00',
    activated_agent_limit: 10,
    ...overrides,
  });
}

export function orgList(parent: Organization, organizations: Organization[]) {
  return makeList(organizations, { organization: parent, page_size: 100, total_pages: 1 });
}
