import { PATHS } from '@/lib/paths';
import { NAV_ITEMS } from './nav-items';
import { MESSAGES } from '@/lib/wording';

const titles = MESSAGES.shell.pageTitles;

/** The pages under an organization, by the last segment of /orgs/:id/<segment>. */
const ORGANIZATION_PAGES: Record<string, string> = {
  edit: titles.editOrganization,
  'allocate-credits': titles.allocateCredits,
  billing: titles.billing,
  'billing-management': titles.billingManagement,
  resources: MESSAGES.shell.nav.resources,
};

/** The name of the page at a path, shown in the header; null where no page is known. */
export function pageTitleOf(pathname: string): string | null {
  const segments = pathname.split('/').filter(Boolean);
  const [first, second, third] = segments;
  if (`/${first}` === PATHS.orgs || `/${first}` === PATHS.organizations) {
    if (!second) return MESSAGES.shell.nav.organizations;
    if (second === 'create') return titles.createOrganization;
    if (!third) return titles.organization;
    return ORGANIZATION_PAGES[third] ?? null;
  }
  if (`/${first}` === PATHS.users) {
    if (!second) return titles.users;
    if (second === 'create') return titles.inviteUser;
    return third === 'edit' ? titles.editUser : titles.user;
  }
  if (pathname === PATHS.debug) return titles.debug;
  if (pathname === PATHS.security) return MESSAGES.security.title;
  if (pathname === PATHS.identity) return MESSAGES.identityPages.title;
  if (pathname === PATHS.billingDetails) return MESSAGES.invoicePages.details.title;
  if (pathname === PATHS.statements) return MESSAGES.invoicePages.statements.title;
  return NAV_ITEMS.find((item) => item.isActive(pathname, null))?.label ?? null;
}
