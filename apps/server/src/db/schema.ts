import type { Kysely, Transaction } from 'kysely';
import type {
  OrganizationsTable,
  OrganizationBillingSettingsTable,
  OrganizationSubtreeCountsTable,
  UsersTable,
  RefreshSessionsTable,
  RefreshTokensTable,
  TotpFactorsTable,
  RecoveryCodesTable,
  SignInChallengesTable,
  MfaPoliciesTable,
  PasskeysTable,
  IdentityProvidersTable,
  IdentityDomainsTable,
  SsoSignInsTable,
  SsoIdentitiesTable,
  ScimTokensTable,
  ScimGroupsTable,
  ScimGroupMembersTable,
  ScimCallsTable,
  WebauthnChallengesTable,
  OneTimeTokensTable,
  OutboxTable,
  MailQueueTable,
  AuditLogTable,
  RateLimitsTable,
  ExportSlotsTable,
  InvitationsTable,
  InvitationReplacedLinksTable,
  GlobalSettingsTable,
} from './schema-access.ts';
import type {
  CreditLedgerEntriesTable,
  CreditGrantsTable,
  CreditGrantMovesTable,
  CreditLedgerTotalsTable,
  UsageEventDaysTable,
  CreditUsageDaysTable,
  IdempotencyKeysTable,
  AgentTypesTable,
  AgentPricesTable,
  OrganizationPricesTable,
  OrganizationChildPricesTable,
  EarningCarryTable,
  SpendCapMonthsTable,
  SpendCapRefusalsTable,
  TopUpRequestsTable,
  AgentActivationsTable,
  ApiKeysTable,
  UsageEventsTable,
  UsageEventIdsTable,
  UsageCarryTable,
  BalanceAlertsTable,
  AlertLinesTable,
} from './schema-money.ts';
import type {
  WebhookEndpointsTable,
  WebhookEventsTable,
  WebhookDeliveriesTable,
  WebhookAttemptsTable,
  BillingDetailsTable,
  InvoiceCountersTable,
  InvoicesTable,
  InvoiceLinesTable,
  InvoicePaymentsTable,
  InvoiceRemindersTable,
} from './schema-billing.ts';

export type * from './schema-access.ts';
export type * from './schema-money.ts';
export type * from './schema-billing.ts';
export type * from './schema-columns.ts';

/**
 * Kysely's view of the tables in migrations/. Numeric columns arrive as strings (exact);
 * columns the migrations restrict to a set of values carry the domain's union. schema.test.ts
 * holds this file and its parts (schema-access.ts, schema-money.ts, schema-billing.ts) to the migrated database: the same tables and columns, the same
 * nullability and kinds of value, and each CHECK list equal to its union.
 */
export interface DB {
  organizations: OrganizationsTable;
  organization_billing_settings: OrganizationBillingSettingsTable;
  organization_subtree_counts: OrganizationSubtreeCountsTable;
  users: UsersTable;
  refresh_sessions: RefreshSessionsTable;
  refresh_tokens: RefreshTokensTable;
  totp_factors: TotpFactorsTable;
  recovery_codes: RecoveryCodesTable;
  sign_in_challenges: SignInChallengesTable;
  mfa_policies: MfaPoliciesTable;
  passkeys: PasskeysTable;
  identity_providers: IdentityProvidersTable;
  identity_domains: IdentityDomainsTable;
  sso_sign_ins: SsoSignInsTable;
  sso_identities: SsoIdentitiesTable;
  scim_tokens: ScimTokensTable;
  scim_groups: ScimGroupsTable;
  scim_group_members: ScimGroupMembersTable;
  scim_calls: ScimCallsTable;
  webauthn_challenges: WebauthnChallengesTable;
  one_time_tokens: OneTimeTokensTable;
  outbox: OutboxTable;
  mail_queue: MailQueueTable;
  audit_log: AuditLogTable;
  rate_limits: RateLimitsTable;
  export_slots: ExportSlotsTable;
  invitations: InvitationsTable;
  invitation_replaced_links: InvitationReplacedLinksTable;
  global_settings: GlobalSettingsTable;
  credit_ledger_entries: CreditLedgerEntriesTable;
  credit_grants: CreditGrantsTable;
  credit_grant_moves: CreditGrantMovesTable;
  credit_ledger_totals: CreditLedgerTotalsTable;
  usage_event_days: UsageEventDaysTable;
  credit_usage_days: CreditUsageDaysTable;
  idempotency_keys: IdempotencyKeysTable;
  agent_types: AgentTypesTable;
  agent_prices: AgentPricesTable;
  organization_prices: OrganizationPricesTable;
  organization_child_prices: OrganizationChildPricesTable;
  earning_carry: EarningCarryTable;
  spend_cap_months: SpendCapMonthsTable;
  spend_cap_refusals: SpendCapRefusalsTable;
  top_up_requests: TopUpRequestsTable;
  agent_activations: AgentActivationsTable;
  api_keys: ApiKeysTable;
  usage_events: UsageEventsTable;
  usage_event_ids: UsageEventIdsTable;
  usage_carry: UsageCarryTable;
  balance_alerts: BalanceAlertsTable;
  alert_lines: AlertLinesTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  billing_details: BillingDetailsTable;
  invoice_counters: InvoiceCountersTable;
  invoices: InvoicesTable;
  invoice_lines: InvoiceLinesTable;
  invoice_payments: InvoicePaymentsTable;
  invoice_reminders: InvoiceRemindersTable;
}

/** Where a query runs: the database, or a transaction under way. */
export type Executor = Kysely<DB> | Transaction<DB>;
