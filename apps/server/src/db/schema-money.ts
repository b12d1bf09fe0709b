import type { ColumnType, Generated } from 'kysely';
import type {
  ActivationStatus,
  AgentKind,
  AgentTypeStatus,
  AlertLineKind,
  AlertLineWindow,
  ApiScope,
  AuditedApiKeyRefusal,
  BalanceAlertKind,
  EntryType,
  SpendCapScope,
  TopUpOutcome,
  TopUpReason,
  UsageEntryType,
  UsageSource,
} from '@console/domain';
import type { Timestamp, NullableTimestamp } from './schema-columns.ts';

/** The tables of credits and their ledger, grants, agents and their usage, prices, margins, alerts, spend caps and top-ups. Part of `DB` (schema.ts), held to the migrated database by schema.test.ts. */
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
