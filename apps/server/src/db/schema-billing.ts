import type { ColumnType, Generated } from 'kysely';
import type {
  InvoiceKind,
  InvoiceLineKind,
  PaymentMethod,
  WebhookDeliveryState,
  WebhookDisabledReason,
  WebhookEventType,
  WebhookEventRowType,
} from '@console/domain';
import type { Timestamp, NullableTimestamp } from './schema-columns.ts';

/** The tables of webhooks, billing details and invoices. Part of `DB` (schema.ts), held to the migrated database by schema.test.ts. */
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
