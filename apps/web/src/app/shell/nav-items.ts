import {
  mayListPeople,
  mayManageCatalog,
  mayViewActivity,
  mayViewBilling,
  mayViewPrices,
  mayViewWebhooksOf,
  type Actor,
} from '@console/domain';
import {
  Bot,
  Boxes,
  Building2,
  FileText,
  History,
  House,
  LayoutDashboard,
  ReceiptText,
  Settings,
  Tags,
  Users,
  Webhook,
  type LucideIcon,
} from 'lucide-react';
import { showsOrganizationList } from '@/lib/org-reach';
import { PATHS } from '@/lib/paths';
import { MESSAGES } from '@/lib/wording';

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  /** Whether this item is the current one for a path (some cover the pages below them). */
  isActive(pathname: string, viewer: Actor | null): boolean;
  /** Whether the signed-in person is shown this item (every item when left out). */
  visible?(viewer: Actor | null): boolean;
}

/** An item as declared: its destination may depend on who is signed in. */
interface NavEntry extends Omit<NavItem, 'to'> {
  to: string | ((viewer: Actor) => string);
}

const exact = (path: string) => (pathname: string) => pathname === path;
const { nav } = MESSAGES.shell;
const isOrganizationArea = (pathname: string) =>
  [PATHS.orgs, PATHS.organizations].some((base) => pathname === base || pathname.startsWith(`${base}/`));

/** The viewer's own organization's page, under the organization area their role uses. */
export function ownOrganizationPath(viewer: Actor): string {
  return `${viewer.organization.org_type === 'house' ? PATHS.organizations : PATHS.orgs}/${viewer.organization.id}`;
}

/** Whether a path is the viewer's own organization's page or one of its pages (billing, resources…). */
function isOwnOrganizationPath(pathname: string, viewer: Actor | null): boolean {
  if (!viewer || !isOrganizationArea(pathname)) return false;
  return pathname.split('/')[2] === viewer.organization.id;
}

export const NAV_ITEMS: readonly NavEntry[] = [
  { to: PATHS.dashboard, label: nav.dashboard, icon: LayoutDashboard, isActive: exact(PATHS.dashboard) },
  {
    // Everyone reads their own organization, whatever else they may list.
    to: ownOrganizationPath,
    label: nav.myOrganization,
    icon: House,
    isActive: isOwnOrganizationPath,
    visible: (viewer) => !!viewer,
  },
  {
    to: PATHS.orgs,
    label: nav.organizations,
    icon: Building2,
    // Both organization areas (/orgs and the house roles' /organizations), but for the viewer's own pages.
    isActive: (pathname, viewer) => isOrganizationArea(pathname) && !isOwnOrganizationPath(pathname, viewer),
    // Tenants never have descendants to list.
    visible: showsOrganizationList,
  },
  {
    to: PATHS.team,
    label: nav.team,
    icon: Users,
    isActive: (pathname) => pathname === PATHS.team || pathname.startsWith(`${PATHS.users}/`),
    visible: (viewer) => !!viewer && mayListPeople(viewer),
  },
  { to: PATHS.resources, label: nav.resources, icon: Boxes, isActive: exact(PATHS.resources) },
  {
    to: PATHS.creditLedger,
    label: nav.creditLedger,
    icon: ReceiptText,
    isActive: exact(PATHS.creditLedger),
  },
  {
    to: PATHS.invoices,
    label: nav.invoices,
    icon: FileText,
    // The list and each invoice's page below it.
    isActive: (pathname) => pathname === PATHS.invoices || pathname.startsWith(`${PATHS.invoices}/`),
    // Sellers' invoices to their children and those received from a seller: whoever reads billing.
    visible: (viewer) => !!viewer && mayViewBilling(viewer),
  },
  {
    to: PATHS.pricing,
    label: nav.pricing,
    icon: Tags,
    isActive: exact(PATHS.pricing),
    // The own organization's prices: the house, super agencies and agencies sell; tenants only buy.
    visible: (viewer) => !!viewer && mayViewPrices(viewer, viewer.organization),
  },
  {
    to: PATHS.activity,
    label: nav.activity,
    icon: History,
    isActive: exact(PATHS.activity),
    visible: (viewer) => !!viewer && mayViewActivity(viewer),
  },
  {
    to: PATHS.agentCatalog,
    label: nav.agentCatalog,
    icon: Bot,
    isActive: exact(PATHS.agentCatalog),
    visible: (viewer) => !!viewer && mayManageCatalog(viewer),
  },
  {
    to: PATHS.webhooks,
    label: nav.webhooks,
    icon: Webhook,
    // Settings > Webhooks and each endpoint's delivery log below it.
    isActive: (pathname) => pathname === PATHS.webhooks || pathname.startsWith(`${PATHS.webhooks}/`),
    // The own organization's admins, at every level.
    visible: (viewer) => !!viewer && mayViewWebhooksOf(viewer, viewer.organization),
  },
  {
    to: PATHS.settings,
    label: nav.settings,
    icon: Settings,
    // Settings > Identity and Settings > Billing details have no item of their own: they are pages of Settings.
    isActive: (pathname) => pathname === PATHS.settings || pathname === PATHS.identity || pathname === PATHS.billingDetails,
  },
];

/** The items the signed-in person is shown, with their destinations. */
export function navItemsFor(viewer: Actor | null): NavItem[] {
  return NAV_ITEMS.filter((item) => !item.visible || item.visible(viewer)).flatMap((item): NavItem[] => {
    const { to } = item;
    if (typeof to === 'string') return [{ ...item, to }];
    return viewer ? [{ ...item, to: to(viewer) }] : [];
  });
}
