/** Routes of the console. */
export const PATHS = {
  welcome: '/',
  login: '/login',
  resetPassword: '/reset-password',
  updatePassword: '/update-password',
  invitation: '/invitation',
  acceptInvitation: '/auth/accept-invitation',
  dashboard: '/dashboard',
  orgs: '/orgs',
  organizations: '/organizations',
  team: '/team',
  users: '/users',
  resources: '/resources',
  creditLedger: '/credit-ledger',
  activity: '/activity',
  settings: '/settings',
  agentCatalog: '/agent-catalog',
  debug: '/debug',
} as const;

/** What a route guard remembers in the navigation state when it sends a visitor to /login. */
export interface RedirectState {
  from: { pathname: string; search: string; hash: string };
}

/** The remembered origin as a path, or null when the visitor came to /login directly. */
export function originOf(state: unknown): string | null {
  const from = (state as Partial<RedirectState> | null)?.from;
  if (!from || typeof from.pathname !== 'string') return null;
  return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
}

/** Invite a person into an organization: /users/create with its id and, when known, its name. */
export function inviteHref(organization: { id: string; name: string | null }): string {
  const params = new URLSearchParams({ organization_id: organization.id });
  if (organization.name) params.set('organization_name', organization.name);
  return `${PATHS.users}/create?${params}`;
}

/** An organization's credit ledger: the viewer's own, or another of their subtree by id. */
export function ledgerHref(organizationId?: string | null): string {
  return organizationId ? `${PATHS.creditLedger}?org=${encodeURIComponent(organizationId)}` : PATHS.creditLedger;
}

/** The activity log of an organization of the viewer's subtree (with its subtree). */
export function activityHref(organizationId?: string | null): string {
  return organizationId ? `${PATHS.activity}?org=${encodeURIComponent(organizationId)}` : PATHS.activity;
}
