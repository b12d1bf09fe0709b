import { useLocation } from 'react-router';
import { PATHS } from './paths';

export type OrgBase = typeof PATHS.orgs | typeof PATHS.organizations;

/** The organization area a path belongs to: /organizations or, by default, /orgs. */
export function orgBaseOf(pathname: string): OrgBase {
  return pathname === PATHS.organizations || pathname.startsWith(`${PATHS.organizations}/`) ? PATHS.organizations : PATHS.orgs;
}

/** The base path of the organization pages, read from the current URL. */
export function useOrgBase(): OrgBase {
  return orgBaseOf(useLocation().pathname);
}
