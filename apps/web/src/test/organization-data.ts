import type { Organization, OrganizationDetail, OrganizationList, OrganizationListItem, OrganizationTree, TreeNode } from '@console/domain';
import { OWN_ORG_ID } from './helpers';

export { OWN_ORG_ID };

let counter = 100;
export function orgId(): string {
  counter += 1;
  return `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`;
}

export function makeOrganization(overrides: Partial<OrganizationDetail> = {}): OrganizationDetail {
  const id = overrides.id ?? orgId();
  const credit_balance = overrides.credit_balance ?? '12.50';
  const activated_agent_limit = overrides.activated_agent_limit ?? 5;
  return {
    id,
    name: 'Northwind Agency',
    description: null,
    org_type: 'agency',
    parent_org_id: OWN_ORG_ID,
    status: 'active',
    disable_parent_invites: false,
    created_at: '2024-01-05T15:04:00',
    updated_at: '2024-02-10T09:30:00',
    deleted_at: null,
    credit_balance,
    activated_agent_limit,
    organization_billing_settings: { organization_id: id, credit_balance, activated_agent_limit, low_balance_threshold: '100.00' },
    active_agent_count: 0,
    child_count: 0,
    ancestors: [],
    ...overrides,
  };
}

/** A list row: the organization as it stands, nothing marked unless told. */
export function makeListItem(organization: Organization & Partial<OrganizationListItem>): OrganizationListItem {
  const {
    low_balance = false,
    active_agent_count = 0,
    agent_limit_standing = null,
    cap_standing = { reached: false, refused_this_month: 0 },
  } = organization;
  return { ...organization, low_balance, active_agent_count, agent_limit_standing, cap_standing };
}

export function makeList(
  organizations: (Organization & Partial<OrganizationListItem>)[],
  overrides: Partial<OrganizationList> = {},
): OrganizationList {
  return {
    organization: makeOrganization({ id: OWN_ORG_ID, name: 'Own Organization', org_type: 'super_agency', parent_org_id: null }),
    organizations: organizations.map(makeListItem),
    total: organizations.length,
    page: 1,
    page_size: 50,
    total_pages: organizations.length ? 1 : 0,
    ...overrides,
  };
}

export function makeTree(node: Partial<OrganizationTree['node']>, children: TreeNode[]): OrganizationTree {
  return {
    node: {
      id: OWN_ORG_ID,
      name: 'Own Organization',
      org_type: 'super_agency',
      status: 'active',
      parent_org_id: null,
      child_count: children.length,
      descendant_count: children.length,
      ...node,
    },
    children,
  };
}
