import { mayListPeople, mayOpenDebug, type Actor, type OrgType } from '@console/domain';
import { showsOrganizationList } from '@/lib/org-reach';
import { PATHS } from '@/lib/paths';

/** Which widgets an organization type shows on the dashboard. */
export function dashboardWidgets(orgType: OrgType) {
  const hasChildren = orgType !== 'tenant';
  return {
    organizationStatus: orgType === 'house' || orgType === 'super_agency',
    childOrganizations: hasChildren,
    revenueOverview: hasChildren,
    // The house's children pay the catalog: only super agencies and agencies earn a margin.
    earnings: orgType === 'super_agency' || orgType === 'agency',
  };
}

export const DASHBOARD_TABS = ['overview', 'agents', 'credits', 'performance'] as const;
export type DashboardTab = (typeof DASHBOARD_TABS)[number];

export function isDashboardTab(value: string | null): value is DashboardTab {
  return (DASHBOARD_TABS as readonly (string | null)[]).includes(value);
}

/** The dashboard's own Performance tab, as a link target. */
export const PERFORMANCE_TAB_PATH = `${PATHS.dashboard}?tab=performance`;

export interface Tool {
  label: string;
  description: string;
  to: string;
}

/** Whether the viewer may open a tool's page: each page's own predicate, every other page for everyone. */
function mayOpen(to: string, viewer: Actor): boolean {
  if (to === PATHS.debug) return mayOpenDebug(viewer);
  if (to === PATHS.orgs) return showsOrganizationList(viewer);
  if (to === PATHS.team) return mayListPeople(viewer);
  return true;
}

/**
 * The tools section by organization type, each to the page that does the job. A tool whose
 * page would refuse the viewer (System Health without the debug page, the organization list
 * or the team without their list permission) is left out.
 */
export function dashboardTools(orgType: OrgType, viewer: Actor | null): Tool[] {
  const tools: Record<OrgType, Tool[]> = {
    house: [
      { label: 'Global Settings', description: 'Account, billing and organization resources', to: PATHS.settings },
      { label: 'System Health', description: 'Tokens, claims, hierarchy checks and the outbox', to: PATHS.debug },
      { label: 'User Management', description: 'Members and invitations of the house', to: PATHS.team },
    ],
    super_agency: [
      { label: 'Agency Management', description: 'Your agencies and their details', to: PATHS.orgs },
      { label: 'Resource Allocation', description: 'Agent limits, capacity and credits', to: PATHS.resources },
      { label: 'Performance Analytics', description: 'Growth, credit flows and utilization', to: PERFORMANCE_TAB_PATH },
    ],
    agency: [
      { label: 'Tenant Management', description: 'Your tenants and their details', to: PATHS.orgs },
      { label: 'Agent Configuration', description: 'Agent limits and capacity', to: PATHS.resources },
      { label: 'Tenant Analytics', description: 'Growth of your tenants, credit flows and utilization', to: PERFORMANCE_TAB_PATH },
    ],
    tenant: [
      { label: 'Agent Interactions', description: 'Agents and their limit', to: PATHS.resources },
      { label: 'Customer Management', description: 'Members and invitations', to: PATHS.team },
      { label: 'Business Analytics', description: 'Credit usage and utilization', to: PERFORMANCE_TAB_PATH },
    ],
  };
  return tools[orgType].filter((tool) => !!viewer && mayOpen(tool.to, viewer));
}
