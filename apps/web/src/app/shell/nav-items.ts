import { MESSAGES } from '@console/domain';
import {
  Boxes,
  Building2,
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
  },
  {
    to: PATHS.team,
    label: nav.team,
    icon: Users,
    isActive: (pathname) => pathname === PATHS.team || pathname.startsWith(`${PATHS.users}/`),
  },
  { to: PATHS.resources, label: nav.resources, icon: Boxes, isActive: exact(PATHS.resources) },
  {
    to: PATHS.creditLedger,
    label: nav.creditLedger,
    icon: ReceiptText,
    isActive: exact(PATHS.creditLedger),
  },
  { to: PATHS.settings, label: nav.settings, icon: Settings, isActive: exact(PATHS.settings) },
];
