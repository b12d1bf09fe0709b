import type {
  ActivityExportQuery,
  ApiKeyFilter,
  InvoiceListQuery,
  LedgerExportQuery,
  ListInvitationsQuery,
  ListOrganizationsQuery,
  ListUsersQuery,
  OrgStatus,
  UsageEventsExportQuery,
  WebhookDeliveryState,
} from '@console/domain';

/**
 * Every query key of the console, in one file that imports no other: a change to one kind of
 * data refreshes others (an allocation moves balances, billing and the tree), and
 * `invalidation.ts` names them all from here, so the API files share keys without importing
 * each other. A key is a prefix of the keys below it: invalidating `all` refreshes every query
 * of that kind.
 */

/** The organizations: lists, details and trees. */
export const organizationKeys = {
  all: ['organizations'] as const,
  list: (query: ListOrganizationsQuery) => ['organizations', 'list', query] as const,
  detail: (id: string) => ['organizations', 'detail', id] as const,
  /** `undefined` is the caller's own organization. */
  tree: (id: string | undefined) => ['organizations', 'tree', id ?? 'own'] as const,
};

/** Billing: settings, capacity, spend controls and alert lines. */
export const billingKeys = {
  all: ['billing'] as const,
  settings: (organizationId: string) => ['billing', 'settings', organizationId] as const,
  capacities: ['billing', 'capacity'] as const,
  capacity: (organizationId: string) => ['billing', 'capacity', organizationId] as const,
  spendControls: (organizationId: string) => ['billing', 'spend-controls', organizationId] as const,
  alertLines: (organizationId: string) => ['billing', 'alert-lines', organizationId] as const,
};

/** Credits: everything under `credits` after a movement. */
export const creditKeys = {
  all: ['credits'] as const,
  ledger: (filters: LedgerExportQuery) => ['credits', 'ledger', filters] as const,
  recent: (organizationId: string) => ['credits', 'recent', organizationId] as const,
  /** An organization's balance in parts and its grants (under `credits`: every movement refreshes them). */
  grants: (organizationId: string, all: boolean) => ['credits', 'grants', organizationId, all ? 'all' : 'held'] as const,
  /** The grants below the caller that expire within `days`. */
  expiringGrants: (days: number) => ['credits', 'expiring-grants', days] as const,
};

/** The dashboard's figures; `undefined` is the caller's own organization. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  figures: (organizationId: string | undefined) => ['dashboard', organizationId ?? 'own'] as const,
};

/** The people: the signed-in person, lists and details. */
export const userKeys = {
  all: ['users'] as const,
  me: ['users', 'me'] as const,
  list: (query: ListUsersQuery) => ['users', 'list', query] as const,
  detail: (id: string) => ['users', 'detail', id] as const,
};

/** The pending invitations. */
export const invitationKeys = {
  all: ['invitations'] as const,
  list: (query: ListInvitationsQuery) => ['invitations', 'list', query] as const,
};

/** The signed-in person's own account. */
export const accountKeys = {
  all: ['account'] as const,
  factors: ['account', 'factors'] as const,
  sessions: ['account', 'sessions'] as const,
  passkeys: ['account', 'passkeys'] as const,
};

/** The agent catalog and each organization's activations. */
export const agentKeys = {
  all: ['agents'] as const,
  types: ['agents', 'types'] as const,
  activationsOf: ['agents', 'activations'] as const,
  activations: (organizationId: string) => ['agents', 'activations', organizationId] as const,
};

/** Price books, their history, earnings and the children's prices. */
export const pricingKeys = {
  all: ['pricing'] as const,
  book: (organizationId: string) => ['pricing', 'book', organizationId] as const,
  histories: (organizationId: string) => ['pricing', 'history', organizationId] as const,
  history: (organizationId: string, page: number) => ['pricing', 'history', organizationId, page] as const,
  earnings: (organizationId: string) => ['pricing', 'earnings', organizationId] as const,
  paid: (organizationId: string) => ['pricing', 'paid', organizationId] as const,
  children: (organizationId: string) => ['pricing', 'children', organizationId] as const,
};

/** Each organization's API keys. */
export const apiKeyKeys = {
  all: ['api-keys'] as const,
  organization: (organizationId: string) => ['api-keys', organizationId] as const,
  list: (organizationId: string, state: ApiKeyFilter | null) => ['api-keys', organizationId, 'list', state ?? 'all'] as const,
};

/** Each organization's webhook endpoints and their delivery logs. */
export const webhookKeys = {
  all: ['webhooks'] as const,
  organization: (organizationId: string) => ['webhooks', organizationId] as const,
  endpoints: (organizationId: string) => ['webhooks', organizationId, 'endpoints'] as const,
  /** Every filter of one endpoint's delivery log. */
  deliveries: (organizationId: string, endpointId: string) => ['webhooks', organizationId, 'deliveries', endpointId] as const,
  deliveryList: (organizationId: string, endpointId: string, state: WebhookDeliveryState | null) =>
    ['webhooks', organizationId, 'deliveries', endpointId, state ?? 'all'] as const,
};

/** Each organization's identity provider, domains and SCIM tokens, and the tree's pending claims. */
export const identityKeys = {
  all: ['identity'] as const,
  organization: (organizationId: string) => ['identity', organizationId] as const,
  view: (organizationId: string) => ['identity', organizationId, 'view'] as const,
  scimTokens: (organizationId: string) => ['identity', organizationId, 'scim-tokens'] as const,
  scimCalls: (organizationId: string) => ['identity', organizationId, 'scim-calls'] as const,
  /** The pending claims of the whole tree, as the house's admins review them. */
  pendingClaims: ['identity', 'domain-claims'] as const,
};

/** Invoices, drafts, receivables and billing details. */
export const invoiceKeys = {
  all: ['invoices'] as const,
  details: (organizationId: string) => ['invoices', 'billing-details', organizationId] as const,
  /** Every list of every organization and filter. */
  lists: ['invoices', 'list'] as const,
  list: (organizationId: string, query: InvoiceListQuery) => ['invoices', 'list', organizationId, query] as const,
  /** The drafts of every organization. */
  allDrafts: ['invoices', 'drafts'] as const,
  drafts: (organizationId: string) => ['invoices', 'drafts', organizationId] as const,
  detail: (invoiceId: string) => ['invoices', 'detail', invoiceId] as const,
  /** The receivables of every organization. */
  allReceivables: ['invoices', 'receivables'] as const,
  receivables: (organizationId: string) => ['invoices', 'receivables', organizationId] as const,
};

/** Monthly statements and their verification. */
export const statementKeys = {
  all: ['statements'] as const,
  statement: (organizationId: string, month: string) => ['statements', organizationId, month] as const,
  verification: (organizationId: string, month: string, code: string) => ['statements', organizationId, month, 'verify', code] as const,
};

/** The house's global settings, and the links every signed-in person reads. */
export const settingsKeys = {
  all: ['settings'] as const,
  global: ['settings', 'global'] as const,
  public: ['settings', 'public'] as const,
};

/** An organization's second-factor policy. */
export const mfaPolicyKeys = {
  of: (organizationId: string) => ['mfa-policy', organizationId] as const,
};

/** The activity log: every write anywhere changes it, so no change names it (it is read afresh). */
export const activityKeys = {
  all: ['activity'] as const,
  list: (filters: ActivityExportQuery) => ['activity', 'list', filters] as const,
};

/** Under `credits`, so every movement's invalidation of the ledger refreshes them too. */
export const usageEventKeys = {
  list: (filters: UsageEventsExportQuery) => ['credits', 'usage-events', filters] as const,
};

/** The debug page's queries. */
export const debugKeys = {
  all: ['debug'] as const,
  outbox: ['debug', 'outbox'] as const,
  verifyChildren: (organizationId: string) => ['debug', 'verify-children', organizationId] as const,
  childCount: (organizationId: string, status: OrgStatus) => ['debug', 'child-status', organizationId, status] as const,
};

/** Whether the session may act on money and secrets now: asked afresh each time the step-up dialog opens. */
export const stepUpKeys = {
  status: ['step-up-status'] as const,
};
