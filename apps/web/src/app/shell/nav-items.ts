import { MESSAGES, mayListOrganizations, mayListPeople, mayManageCatalog, mayViewActivity, type Actor } from '@console/domain';
import {
  Bot,
  Boxes,
  Building2,
  History,
  LayoutDashboard,
  ReceiptText,
  Settings,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { PATHS } from '@/lib/paths';

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  /** Whether this item is the current one for a path (some cover the pages below them). */
  isActive(pathname: string): boolean;
  /** Whether the signed-in person is shown this item (every item when left out). */
  visible?(viewer: Actor | null): boolean;
}

const exact = (path: string) => (pathname: string) => pathname === path;
const { nav } = MESSAGES.shell;

export const NAV_ITEMS: readonly NavItem[] = [
  { to: PATHS.dashboard, label: nav.dashboard, icon: LayoutDashboard, isActive: exact(PATHS.dashboard) },
  {
    to: PATHS.orgs,
    label: nav.organizations,
    icon: Building2,
    isActive: (pathname) => pathname.startsWith(PATHS.orgs),
    visible: (viewer) => !!viewer && mayListOrganizations(viewer),
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
  { to: PATHS.settings, label: nav.settings, icon: Settings, isActive: exact(PATHS.settings) },
];

/** The items the signed-in person is shown. */
export function navItemsFor(viewer: Actor | null): NavItem[] {
  return NAV_ITEMS.filter((item) => !item.visible || item.visible(viewer));
}
