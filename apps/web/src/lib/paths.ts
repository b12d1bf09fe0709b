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
  /** The signed-in person's own second factors and sessions. */
  security: '/account/security',
  /** Settings > Webhooks: the own organization's webhook endpoints (its admins). */
  webhooks: '/settings/webhooks',
  /** Settings > Identity: the own organization's single sign-on and provisioning (its admins). */
  identity: '/settings/identity',
  /** Settings > Billing details: what a seller prints on its invoices. */
  billingDetails: '/settings/billing-details',
  /** Invoices issued to the children and received from the seller; one invoice at /invoices/:invoiceId. */
  invoices: '/invoices',
  /** An organization's monthly statements (the own one, or `?organization_id=` of the subtree). */
  statements: '/statements',
  agentCatalog: '/agent-catalog',
  pricing: '/pricing',
  debug: '/debug',
} as const;

/** The query parameter of /login naming the page to return to after signing in. */
export const NEXT_PARAM = 'next';

/** /login, remembering the page to return to (a path of this console) when there is one. */
export function loginHref(next?: string | null): string {
  const path = returnPathOf(next ?? null);
  return path ? `${PATHS.login}?${new URLSearchParams({ [NEXT_PARAM]: path })}` : PATHS.login;
}

/**
 * A return path as given (in `?next=`), or null unless it is a relative path of this
 * console's own origin: `//host`, `/\host`, `https://…` and anything the URL parser would
 * take elsewhere are refused, as is /login itself.
 */
export function returnPathOf(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  const origin = window.location.origin;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || url.pathname === PATHS.login) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Invite a person into an organization: /users/create with its id and, when known, its name. */
export function inviteHref(organization: { id: string; name: string | null }): string {
  const params = new URLSearchParams({ organization_id: organization.id });
  if (organization.name) params.set('organization_name', organization.name);
  return `${PATHS.users}/create?${params}`;
}

/** The people of an organization (the viewer's own without an id), or its pending invitations. */
export function usersHref(organizationId?: string | null, status?: 'pending'): string {
  const params = new URLSearchParams();
  if (organizationId) params.set('organization_id', organizationId);
  if (status) params.set('status', status);
  const query = params.toString();
  return query ? `${PATHS.users}?${query}` : PATHS.users;
}

/** An organization's credit ledger: the viewer's own, or another of their subtree by id. */
export function ledgerHref(organizationId?: string | null): string {
  return organizationId ? `${PATHS.creditLedger}?org=${encodeURIComponent(organizationId)}` : PATHS.creditLedger;
}

/** An organization's credit ledger showing only one entry type (the viewer's own by default). */
export function ledgerOfTypeHref(entryType: string): string {
  return `${PATHS.creditLedger}?type=${encodeURIComponent(entryType)}`;
}

/** The activity log of an organization of the viewer's subtree (with its subtree). */
export function activityHref(organizationId?: string | null): string {
  return organizationId ? `${PATHS.activity}?org=${encodeURIComponent(organizationId)}` : PATHS.activity;
}

/** The delivery log of one of the own organization's webhook endpoints. */
export function webhookDeliveriesHref(endpointId: string): string {
  return `${PATHS.webhooks}/${encodeURIComponent(endpointId)}`;
}

/** One issued invoice or credit note. */
export function invoiceHref(invoiceId: string): string {
  return `${PATHS.invoices}/${encodeURIComponent(invoiceId)}`;
}

/** The invoices the own organization issued to one child. */
export function childInvoicesHref(childId: string): string {
  return `${PATHS.invoices}?${new URLSearchParams({ tab: 'issued', buyer_id: childId })}`;
}

/** An organization's monthly statements: the viewer's own, or another of their subtree by id. */
export function statementsHref(organizationId?: string | null): string {
  return organizationId ? `${PATHS.statements}?organization_id=${encodeURIComponent(organizationId)}` : PATHS.statements;
}
