import { PATHS } from '@/lib/paths';

/** Pages choose their organizations base from the current URL, /orgs by default (spec 2 section 2). */
export function orgsBaseOf(pathname: string): string {
  return pathname === PATHS.organizations || pathname.startsWith(`${PATHS.organizations}/`) ? PATHS.organizations : PATHS.orgs;
}
