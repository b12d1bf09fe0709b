import type { ColumnType, Generated, Kysely, Transaction } from 'kysely';
import type {
  ActivationStatus,
  ActivityAction,
  AgentKind,
  AgentTypeStatus,
  AlertLineKind,
  AlertLineWindow,
  ApiScope,
  AuditedApiKeyRefusal,
  BalanceAlertKind,
  EntryType,
  InvitationStatus,
  InvoiceKind,
  InvoiceLineKind,
  PaymentMethod,
  OrgStatus,
  OrgType,
  SessionMethod,
  SpendCapScope,
  TopUpOutcome,
  TopUpReason,
  UsageEntryType,
  UsageSource,
  UserStatus,
  WebhookDeliveryState,
  WebhookDisabledReason,
  WebhookEventType,
  WebhookEventRowType,
} from '@console/domain';

/**
 * Kysely's view of the tables in migrations/. Numeric columns arrive as strings (exact);
 * columns the migrations restrict to a set of values carry the domain's union. schema.test.ts
 * holds this file to the migrated database: the same tables and columns, the same
 * nullability and kinds of value, and each CHECK list equal to its union.
 */
/** Read as ISO-8601 text in UTC, as `Date.prototype.toISOString()` writes it (`isoTimestamp` in connection.ts). */
type Timestamp = ColumnType<string, Date | string | undefined, Date | string>;
type NullableTimestamp = ColumnType<string | null, Date | string | null | undefined, Date | string | null>;

export interface OrganizationsTable {
  id: Generated<string>;
  name: string;
  description: string | null;
  org_type: OrgType;
  parent_org_id: string | null;
  parent_org_type: OrgType | null;
  /** Set by a trigger from the parent's path. */
  path: Generated<string>;
  status: Generated<OrgStatus>;
  disable_parent_invites: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface OrganizationBillingSettingsTable {
  organization_id: string;
  credit_balance: ColumnType<string, string | undefined, string>;
  activated_agent_limit: Generated<number>;
  /** The balance below which the admins are alerted, once per crossing (0010). */
  low_balance_threshold: ColumnType<string, string | undefined, string>;
  /** The last alert for an event refused for want of credits (at most one an hour). */
  insufficient_alerted_at: NullableTimestamp;
  updated_at: Timestamp;
  /** The monthly cap its parent set on its subtree's usage; null: none (0032). */
  spend_cap: string | null;
  daily_spend_cap: string | null;
  weekly_spend_cap: string | null;
  /** Automatic top-up from the parent: below this balance, move the amount, at most the maximum a month; all null or none. */
  top_up_below: string | null;
  top_up_amount: string | null;
  top_up_monthly_max: string | null;
  /** An automatic top-up's terms (0051): {expires_after_days, agent_type_ids, priority}, or null for open credits. */
  top_up_terms: ColumnType<unknown, string | null | undefined, string | null>;
  /** The hash of the organization's last ledger entry (its chain head), null while it has none; written by ledger_post (0048). */
  ledger_head: ColumnType<Uint8Array | null, never, never>;
}

/** Live descendants per ancestor, creation day, status and type; kept by triggers (0004). */
export interface OrganizationSubtreeCountsTable {
  ancestor_id: string;
  created_day: ColumnType<string, string, string>;
  status: OrgStatus;
  org_type: OrgType;
  n: number;
}

export interface UsersTable {
  id: Generated<string>;
  email: string;
  password_hash: string | null;
  first_name: string | null;
  last_name: string | null;
  role: string;
  status: Generated<UserStatus>;
  organization_id: string;
  preferred_locale: Generated<string>;
  invited_at: NullableTimestamp;
  last_login_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
  /** When a role change last made them an admin; null: an admin since joining, or no admin. */
  admin_since: NullableTimestamp;
  /** The identity provider's own id for the person (SCIM externalId). */
  scim_external_id: string | null;
  /** The SCIM token that provisioned the person, if one did. */
  scim_token_id: string | null;
}

export interface RefreshSessionsTable {
  id: Generated<string>;
  user_id: string;
  created_at: Timestamp;
  last_used_at: Timestamp;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  revoked_reason: string | null;
  user_agent: string | null;
  ip: string | null;
  /** When the session last proved a second factor (or the password of a person without one). */
  stepped_up_at: NullableTimestamp;
  /** How the session began: ending the password sessions is part of enforcing SSO. */
  method: Generated<SessionMethod>;
}

export type { SessionMethod };

// Single sign-on and provisioning.
export interface IdentityProvidersTable {
  organization_id: string;
  issuer: string;
  client_id: string;
  client_secret_sealed: string;
  email_claim: Generated<string>;
  name_claim: Generated<string>;
  /** The role a just-in-time member gets; null: no just-in-time members. Never an admin role. */
  jit_role: string | null;
  enforce_sso: Generated<boolean>;
  break_glass_user_id: string | null;
  tested_at: NullableTimestamp;
  updated_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface IdentityDomainsTable {
  id: Generated<string>;
  organization_id: string;
  domain: string;
  verification_token: string;
  verified_at: NullableTimestamp;
  approved_at: NullableTimestamp;
  approved_by: string | null;
  checked_at: NullableTimestamp;
  check_error: string | null;
  created_by: string | null;
  created_at: Timestamp;
}

export interface SsoSignInsTable {
  state_hash: string;
  organization_id: string;
  code_verifier_sealed: string;
  nonce: string;
  email: string | null;
  tested_by: string | null;
  /** A step-up through the provider: the session it renews, and the console's path to come back to. */
  step_up_session_id: string | null;
  return_to: string | null;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface SsoIdentitiesTable {
  organization_id: string;
  subject: string;
  user_id: string;
  created_at: Timestamp;
  last_sign_in_at: NullableTimestamp;
}

export interface ScimTokensTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  prefix: string;
  token_hash: string;
  created_by: string | null;
  created_at: Timestamp;
  rotated_at: NullableTimestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
}

export interface ScimGroupsTable {
  id: Generated<string>;
  organization_id: string;
  display_name: string;
  external_id: string | null;
  role: string | null;
  version: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ScimGroupMembersTable {
  group_id: string;
  user_id: string;
}

export interface ScimCallsTable {
  id: Generated<string>;
  organization_id: string;
  token_id: string | null;
  method: string;
  path: string;
  status: number;
  outcome: string;
  created_at: Timestamp;
}

/** A person's authenticator app: pending until `confirmed_at`; `last_step` is the last accepted TOTP step. */
export interface TotpFactorsTable {
  user_id: string;
  secret_sealed: string;
  created_at: Timestamp;
  confirmed_at: NullableTimestamp;
  last_step: number | null;
}

export interface RecoveryCodesTable {
  id: Generated<string>;
  user_id: string;
  code_hash: string;
  created_at: Timestamp;
  used_at: NullableTimestamp;
}

// Require-a-second-factor policy ---------------------------------------------
/** An organization's second-factor requirements: each on while its `_since` is set. */
export interface MfaPoliciesTable {
  organization_id: string;
  own_since: NullableTimestamp;
  subtree_since: NullableTimestamp;
  admins_since: NullableTimestamp;
  grace_days: Generated<number>;
  updated_by: string | null;
  updated_at: Timestamp;
}

export interface SignInChallengesTable {
  token_hash: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  failures: Generated<number>;
  used_at: NullableTimestamp;
}

// Passkeys: WebAuthn credentials and the challenges a browser signs.
export interface PasskeysTable {
  id: Generated<string>;
  user_id: string;
  credential_id: string;
  public_key: string;
  /** bigint: read as a string on PostgreSQL. */
  counter: ColumnType<string, number | undefined, number>;
  transports: Generated<string>;
  name: string;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
}

export interface WebauthnChallengesTable {
  challenge_hash: string;
  purpose: 'register' | 'reauth' | 'second_factor' | 'passwordless';
  user_id: string | null;
  sign_in_token_hash: string | null;
  created_at: Timestamp;
  expires_at: ColumnType<string, Date, Date>;
  used_at: NullableTimestamp;
}

export interface RefreshTokensTable {
  token_hash: string;
  session_id: string;
  created_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface OneTimeTokensTable {
  token_hash: string;
  purpose: 'password_reset';
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
}

export interface OutboxTable {
  id: Generated<string>;
  to_address: string;
  subject: string;
  body_text: string;
  link: string | null;
  created_at: Timestamp;
}

/** Mail waiting for the SMTP sender (0008); a row is deleted once sent or given up. */
export interface MailQueueTable {
  id: Generated<string>;
  to_address: string;
  subject: string;
  body_text: string;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  locked_until: NullableTimestamp;
  last_error: string | null;
  created_at: Timestamp;
}

export interface AuditLogTable {
  id: Generated<string>;
  actor_user_id: string | null;
  organization_id: string | null;
  action: ActivityAction;
  target_type: string;
  target_id: string | null;
  details: ColumnType<unknown, string | undefined, string>;
  ip: string | null;
  request_id: string | null;
  created_at: Timestamp;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  reset_at: Timestamp;
}

/** A CSV export under way, held until its answer ends or its lease passes. */
export interface ExportSlotsTable {
  id: Generated<string>;
  user_id: string;
  expires_at: Timestamp;
}

/** What an invitation row holds; `expired` is read from a pending row's expiry, never stored. */
export type StoredInvitationStatus = Exclude<InvitationStatus, 'expired'>;

export interface InvitationsTable {
  id: Generated<string>;
  token_hash: string;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  organization_id: string;
  invited_by: string | null;
  status: Generated<StoredInvitationStatus>;
  created_at: Timestamp;
  expires_at: Timestamp;
  accepted_at: NullableTimestamp;
  accepted_user_id: string | null;
  revoked_at: NullableTimestamp;
  /** Set with status revoked: the accepted invitation that made this one no longer apply. */
  superseded_by: string | null;
}

/** The hash of a link replaced by a newer one of the same invitation (Resend, Copy link). */
export interface InvitationReplacedLinksTable {
  token_hash: string;
  invitation_id: string;
  replaced_at: Timestamp;
}

/** The one row of global settings (id is always true). */
export interface GlobalSettingsTable {
  id: Generated<boolean>;
  documentation_url: string | null;
  billing_portal_url: string | null;
  community_1_name: string | null;
  community_1_url: string | null;
  community_2_name: string | null;
  community_2_url: string | null;
  updated_at: NullableTimestamp;
  updated_by: string | null;
  /** The highest requests-per-minute an API key's own override may ask for. */
  api_key_rate_limit_ceiling: Generated<number>;
  /** Allocations and adjustments above this many credits (exact decimal) ask for a step-up. */
  step_up_threshold: Generated<string>;
}

export interface CreditLedgerEntriesTable {
  id: Generated<string>;
  seq: Generated<string>;
  organization_id: string;
  amount: string;
  entry_type: EntryType;
  transaction_group: string;
  metadata: ColumnType<unknown, string | undefined, never>;
  balance_after: string;
  external_ref: string | null;
  /** A refund's consumption: that consumption's external_ref, in the same organization (0007). */
  refund_of: ColumnType<string | null, string | null | undefined, never>;
  /** A consumption's agent type and units (0010). */
  agent_type_id: ColumnType<string | null, string | null | undefined, never>;
  units: ColumnType<string | null, string | null | undefined, never>;
  created_by: string | null;
  created_at: Timestamp;
  /** The hash chain (0048): the hash of the organization's entry before this one, null for its first; written by ledger_post. */
  prev_hash: ColumnType<Uint8Array | null, never, never>;
  /** ledger_entry_hash over prev_hash and this entry's fields; written by ledger_post (0048). */
  hash: ColumnType<Uint8Array, never, never>;
}

/** Credits with terms (0051): written by ledger_post and credit_grant_expire only. */
export interface CreditGrantsTable {
  id: Generated<string>;
  organization_id: string;
  granted_by: string;
  entry_id: string;
  amount: string;
  remaining: string;
  priority: number;
  expires_at: string | null;
  agent_type_ids: string[] | null;
  created_at: string;
  expired_at: string | null;
  warned_days: number | null;
}

/** Each change of a grant by a ledger entry (0051); append-only. */
export interface CreditGrantMovesTable {
  entry_id: string;
  grant_id: string;
  amount: string;
}

/** Each organization's entries summed by type; kept by a trigger (0005). */
export interface CreditLedgerTotalsTable {
  organization_id: string;
  entry_type: EntryType;
  total: string;
  entries: string;
}

/** Accepted usage events by organization, UTC day of occurrence and agent type, kept by a trigger (0012). */
export interface UsageEventDaysTable {
  organization_id: string;
  day: ColumnType<string, string, never>;
  agent_type_id: string;
  events: string;
  units: string;
  charged: string;
}

/** Consumption and refund entries by organization, UTC day and type, kept by a trigger (0012). */
export interface CreditUsageDaysTable {
  organization_id: string;
  day: ColumnType<string, string, never>;
  entry_type: UsageEntryType;
  total: string;
  entries: string;
}

export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  request_hash: string;
  response: ColumnType<unknown, string | null | undefined, string>;
  created_at: Timestamp;
}

/** The agent catalog (0010). */
export interface AgentTypesTable {
  id: Generated<string>;
  code: string;
  name: string;
  description: string | null;
  kind: AgentKind;
  unit: string;
  status: Generated<AgentTypeStatus>;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  retired_at: NullableTimestamp;
}

/** Prices in credits per unit; the one in force is the latest effective_from at or before the event. */
export interface AgentPricesTable {
  agent_type_id: string;
  effective_from: ColumnType<string, Date | string, never>;
  price: string;
  created_by: string | null;
}

export interface AgentActivationsTable {
  id: Generated<string>;
  organization_id: string;
  agent_type_id: string;
  status: Generated<ActivationStatus>;
  health_score: number | null;
  last_active_at: NullableTimestamp;
  activated_at: Timestamp;
  activated_by: string | null;
  deactivated_at: NullableTimestamp;
  deactivated_by: string | null;
  /** The last reported status change the audit log recorded: when, and the status it reported. */
  status_audited_at: NullableTimestamp;
  status_audited: ActivationStatus | null;
  /** Status changes reported since that row, which wrote none. */
  status_changes_unaudited: Generated<number>;
  /** Credits the activation may charge in a calendar month (UTC); null: no cap (0032). */
  monthly_cap: string | null;
  daily_cap: string | null;
  weekly_cap: string | null;
  /** Who last set its caps: its organization (null: before this was kept) or its parent (0052). */
  caps_set_by: string | null;
}

export interface ApiKeysTable {
  id: Generated<string>;
  organization_id: string;
  name: string;
  prefix: string;
  secret_hash: string;
  scopes: ApiScope[];
  created_by: string | null;
  created_at: Timestamp;
  last_used_at: NullableTimestamp;
  use_count: ColumnType<string, string | number | undefined, string | number>;
  revoked_at: NullableTimestamp;
  revoked_by: string | null;
  /** null: never expires. */
  expires_at: NullableTimestamp;
  /** The secret before the last roll, accepted until previous_expires_at; all three null, or all set. */
  previous_prefix: string | null;
  previous_secret_hash: string | null;
  previous_expires_at: NullableTimestamp;
  rolled_at: NullableTimestamp;
  /** null: the house's default limit. */
  rate_limit_per_minute: number | null;
  /** Credits the key may charge in a calendar month (UTC); null: no cap (0032). */
  monthly_cap: string | null;
  daily_cap: string | null;
  weekly_cap: string | null;
  /** The last refusal the audit log recorded for this key, and why. */
  refusal_audited_at: NullableTimestamp;
  /** When a usage report of this key was last audited: at most once an hour. */
  usage_audited_at: NullableTimestamp;
  refusal_audited_reason: AuditedApiKeyRefusal | null;
}

export interface UsageEventsTable {
  id: Generated<string>;
  organization_id: string;
  client_event_id: string;
  /** Who reported it: a machine key or the house's import; each has its own ids. */
  source: ColumnType<UsageSource, UsageSource | undefined, never>;
  agent_type_id: string;
  units: string;
  price: string;
  cost: string;
  charged: string;
  occurred_at: ColumnType<string, Date | string, never>;
  received_at: Timestamp;
  api_key_id: string | null;
  created_by: string | null;
  ledger_entry_id: string | null;
  metadata: ColumnType<unknown, string | undefined, never>;
  /** The margins per unit the event paid its sellers, from its parent upward; null when none earned. */
  margins: ColumnType<string[] | null, string[] | null | undefined, never>;
}

/** The event ids of an organization's reporters, kept for the occurrence window and a margin. */
export interface UsageEventIdsTable {
  organization_id: string;
  source: UsageSource;
  client_event_id: string;
  event_id: string;
  occurred_at: ColumnType<string, Date | string, never>;
  charged: string;
}

/** Usage cost beyond the whole cents charged, per organization and agent type. */
export interface UsageCarryTable {
  organization_id: string;
  agent_type_id: string;
  carry: ColumnType<string, string | undefined, string>;
}

/** A seller's book: what its direct children pay for an agent type from a time on (null: pass-through). */
export interface OrganizationPricesTable {
  id: Generated<string>;
  organization_id: string;
  agent_type_id: string;
  price: string | null;
  effective_from: ColumnType<string, Date | string, never>;
  created_by: string | null;
  created_at: Timestamp;
}

/** A seller's price for one direct child and agent type (null: removed, the book applies again); append-only. */
export interface OrganizationChildPricesTable {
  id: Generated<string>;
  organization_id: string;
  child_id: string;
  agent_type_id: string;
  price: string | null;
  effective_from: ColumnType<string, Date | string, never>;
  created_by: string | null;
  created_at: Timestamp;
}

/** Earnings beyond the whole cents credited, per seller and agent type. */
export interface EarningCarryTable {
  organization_id: string;
  agent_type_id: string;
  carry: ColumnType<string, string | undefined, string>;
}

export interface BalanceAlertsTable {
  id: Generated<string>;
  organization_id: string;
  kind: BalanceAlertKind;
  balance: string;
  threshold: string;
  created_at: Timestamp;
  mailed_at: NullableTimestamp;
  /** Which cap or child a cap or top-up alert is about (0032). */
  detail: ColumnType<unknown, string | undefined, string>;
}

/** An organization's alert lines (0053): a balance, a percent of its subtree cap, or days of runway. */
export interface AlertLinesTable {
  id: Generated<string>;
  organization_id: string;
  kind: AlertLineKind;
  bound: string;
  cap_window: AlertLineWindow | null;
  /** The line the low-balance threshold column keeps (a trigger moves it). */
  low_balance_threshold: Generated<boolean>;
  crossed: Generated<boolean>;
  value: string | null;
  crossed_at: NullableTimestamp;
  checked_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** What each cap's month charged (0032): a key's always, an activation's and a subtree's while capped. */
export interface SpendCapMonthsTable {
  scope: SpendCapScope;
  scope_id: string;
  /** The window (0052): its `month` is the window's first day. */
  kind: ColumnType<'day' | 'week' | 'month', 'day' | 'week' | 'month' | undefined, 'day' | 'week' | 'month'>;
  month: ColumnType<string, string, string>;
  charged: ColumnType<string, string | undefined, string>;
  alerted: Generated<number>;
}

/** Events refused at an organization's own subtree caps, by calendar month (UTC) of occurrence (0058). */
export interface SpendCapRefusalsTable {
  organization_id: string;
  month: ColumnType<string, string, string>;
  /** bigint: read as a string unless cast. */
  refused: ColumnType<string, string | number, string | number>;
}

/** A top-up to make, one pending per organization; done in the transaction that makes or refuses it (0032). */
export interface TopUpRequestsTable {
  id: Generated<string>;
  organization_id: string;
  reason: TopUpReason;
  created_at: Timestamp;
  done_at: NullableTimestamp;
  outcome: TopUpOutcome | null;
  transaction_group: string | null;
  /** The balance when it was queued (0036; null before). */
  balance: string | null;
  /** What the refused events would have charged, for a refusal (0036). */
  refused: string | null;
}

/** A webhook endpoint of an organization; its secrets are encrypted (0033). */
export interface WebhookEndpointsTable {
  id: Generated<string>;
  organization_id: string;
  url: string;
  description: Generated<string>;
  event_types: WebhookEventType[];
  include_subtree: Generated<boolean>;
  enabled: Generated<boolean>;
  disabled_reason: WebhookDisabledReason | null;
  disabled_at: NullableTimestamp;
  secret_encrypted: string;
  secret_created_at: Timestamp;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: NullableTimestamp;
  failing_since: NullableTimestamp;
  last_success_at: NullableTimestamp;
  created_by: string | null;
  created_at: Timestamp;
  /** Its attempts' timeouts in a row, and until when it is paused for them (0037). */
  timeouts_in_row: Generated<number>;
  paused_until: NullableTimestamp;
}

/** The webhook outbox: one row per event, written by the change it reports (0033). */
export interface WebhookEventsTable {
  id: Generated<string>;
  type: WebhookEventRowType;
  organization_id: string;
  data: ColumnType<unknown, string, never>;
  dedupe_key: string | null;
  created_at: Timestamp;
}

/** One event to one endpoint (0033). */
export interface WebhookDeliveriesTable {
  id: Generated<string>;
  event_id: string;
  endpoint_id: string;
  state: Generated<WebhookDeliveryState>;
  attempts: Generated<number>;
  next_attempt_at: NullableTimestamp;
  lease_until: NullableTimestamp;
  delivered_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface WebhookAttemptsTable {
  id: Generated<string>;
  delivery_id: string;
  attempted_at: Timestamp;
  status_code: number | null;
  response_ms: number | null;
  error: string | null;
  response_body: string | null;
}

/** What a seller prints on its invoices (0049); copied into each invoice when it is issued. */
export interface BillingDetailsTable {
  organization_id: string;
  legal_name: string;
  address: string;
  tax_id: Generated<string>;
  currency: string;
  credit_price: string;
  tax_rate: string;
  tax_label: string;
  terms_days: number;
  number_prefix: Generated<string>;
  note: string | null;
  updated_at: Timestamp;
  updated_by: string | null;
}

/** Each seller's last invoice number (0049), taken under the row's lock so numbers have no gaps. */
export interface InvoiceCountersTable {
  seller_id: string;
  last_number: Generated<number>;
}

/** Issued invoices and credit notes (0049): frozen but for voiding. */
export interface InvoicesTable {
  id: Generated<string>;
  seller_id: string;
  buyer_id: string;
  kind: InvoiceKind;
  number: number;
  number_text: string;
  /** The month billed, its first day ("YYYY-MM-DD"). */
  period: ColumnType<string, string, never>;
  issued_at: Timestamp;
  due_on: ColumnType<string, string, never>;
  currency: string;
  credit_price: string;
  tax_rate: string;
  tax_label: string;
  terms_days: number;
  note: string | null;
  seller: ColumnType<unknown, string, never>;
  buyer: ColumnType<unknown, string, never>;
  subtotal: string;
  tax: string;
  total: string;
  verification_code: string | null;
  created_by: string | null;
  voided_at: NullableTimestamp;
  voided_by: string | null;
  void_reason: string | null;
}

/** One line per billed ledger entry (0049). */
export interface InvoiceLinesTable {
  invoice_id: string;
  n: number;
  entry_id: string;
  occurred_at: Timestamp;
  kind: InvoiceLineKind;
  description: string;
  credits: string;
  unit_price: string;
  amount: string;
  reference: string;
}

/** Payments against invoices (0049); a reversal marks one, never deletes it. */
export interface InvoicePaymentsTable {
  id: Generated<string>;
  invoice_id: string;
  amount: string;
  paid_on: ColumnType<string, string, never>;
  method: PaymentMethod;
  reference: Generated<string>;
  created_by: string | null;
  created_at: Timestamp;
  reversed_at: NullableTimestamp;
  reversed_by: string | null;
  reverse_reason: string | null;
}

/** Overdue reminders sent (0049): the nth of an invoice, once. */
export interface InvoiceRemindersTable {
  invoice_id: string;
  n: number;
  sent_at: Timestamp;
}

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
