import { z } from 'zod';
import { PAGING } from '../constants.ts';
import { MESSAGES } from '../messages.ts';
import { amountInputSchema, amountStringSchema } from './amounts.ts';
import { UNSTORABLE_TEXT, isStorableText } from './common.ts';
import { USAGE_WINDOW, usageBatchResultSchema, usageEventInputSchema } from './agents.ts';
import { grantTermsSchema } from './grants.ts';

export const ENTRY_TYPES = [
  'initial_balance',
  'allocation_sent',
  'allocation_received',
  'consumption',
  'refund',
  'adjustment_increase',
  'adjustment_decrease',
  /** A seller's margin on its subtree's usage: its children's price minus its own, × units. */
  'earning',
  /** An allocation given back within its reversal window: the child's side (credits leave it)… */
  'reversal_sent',
  /** …and the parent's (they come back). */
  'reversal_received',
  /** What was left of a credit grant at its expiry, leaving its holder… */
  'expiry',
  /** …and returning to the organization that granted it, as open credits. */
  'expiry_returned',
] as const;
export type EntryType = (typeof ENTRY_TYPES)[number];
/** Entries that take credits from their organization (a negative amount); every other type adds them. */
export const DEBIT_ENTRY_TYPES = [
  'allocation_sent',
  'consumption',
  'adjustment_decrease',
  'reversal_sent',
  'expiry',
] as const satisfies readonly EntryType[];
/** Entries that are usage: what agents consumed, and what was given back of it. */
export const USAGE_ENTRY_TYPES = ['consumption', 'refund'] as const satisfies readonly EntryType[];
export type UsageEntryType = (typeof USAGE_ENTRY_TYPES)[number];
/**
 * Why an organization's admins are alerted: its balance fell below its threshold, usage was refused for want of credits, a
 * monthly cap reached 80 % or 100 %, or an automatic top-up of a child could not be made.
 */
export const BALANCE_ALERT_KINDS = [
  'low_balance',
  'insufficient_credits',
  'cap_warning',
  'cap_reached',
  'top_up_failed',
  'alert_line',
] as const;
export type BalanceAlertKind = (typeof BALANCE_ALERT_KINDS)[number];

const c = MESSAGES.credits;
export const allocationSchema = z.object({
  from_org_id: z.uuid(),
  to_org_id: z.uuid({ error: c.selectChild }),
  amount: amountInputSchema,
  notes: z.string().trim().max(500).refine(isStorableText, UNSTORABLE_TEXT).nullish(),
  /** Terms the credits carry for the child: an expiry, a scope, a priority (absent: open credits). */
  terms: grantTermsSchema.nullish(),
  /** Accepted and ignored, so older clients' payloads still validate: the caller is always the allocating user. */
  allocated_by_user_id: z.uuid().optional(),
});
export type AllocationInput = z.input<typeof allocationSchema>;

export const allocationResultSchema = z.object({
  transaction_id: z.uuid(),
  from_balance: amountStringSchema,
  to_balance: amountStringSchema,
});
export type AllocationResult = z.infer<typeof allocationResultSchema>;

/**
 * A parent's admins give an allocation back to the parent within `ALLOCATION_REVERSAL.windowHours`
 * of it, while the child's balance covers it: the whole amount, once, with a reason.
 */
export const allocationReversalParamsSchema = z.object({ transactionId: z.uuid() });
export const allocationReversalSchema = z.object({
  reason: z.string().trim().min(3, c.reversalReason).max(500).refine(isStorableText, UNSTORABLE_TEXT),
});
export type AllocationReversalInput = z.input<typeof allocationReversalSchema>;
export const allocationReversalResultSchema = z.object({
  /** The reversal's own transaction group (its two entries). */
  transaction_id: z.uuid(),
  /** The allocation it reverses. */
  reverses_transaction_id: z.uuid(),
  /** The parent's balance after it, and the child's. */
  from_balance: amountStringSchema,
  to_balance: amountStringSchema,
});
export type AllocationReversalResult = z.infer<typeof allocationReversalResultSchema>;

/** A client may send `Idempotency-Key`: a retried request then returns the first answer and moves nothing twice. */
export const idempotencyHeadersSchema = z.object({
  'idempotency-key': z.string().trim().min(1).max(200).optional(),
});

export const adjustmentSchema = z.object({
  organization_id: z.uuid().optional(),
  direction: z.enum(['increase', 'decrease']),
  amount: amountInputSchema,
  reason: z.string().trim().min(3, 'Give a reason of at least 3 characters.').max(500).refine(isStorableText, UNSTORABLE_TEXT),
  /** Terms of credits added (an increase only): at their expiry what is left returns to the house's open credits. */
  terms: grantTermsSchema.nullish(),
});

export type AdjustmentInput = z.input<typeof adjustmentSchema>;

/**
 * A refund returns credits that a consumption took: it names that consumption (`refund_of`:
 * the id of the usage event that charged it, or the external_ref of an earlier consumption,
 * of the same organization) and, with the refunds of it before, never exceeds it.
 * `external_ref` makes the refund itself idempotent.
 */
export const usageRefundSchema = z.object({
  organization_id: z.uuid(),
  amount: amountInputSchema,
  external_ref: z.string().trim().min(1).max(200).refine(isStorableText, UNSTORABLE_TEXT),
  refund_of: z
    .string({ error: c.refundNeedsConsumption })
    .trim()
    .min(1, c.refundNeedsConsumption)
    .max(200)
    .refine(isStorableText, UNSTORABLE_TEXT),
  reason: z.string().trim().max(500).refine(isStorableText, UNSTORABLE_TEXT).optional(),
});
export type UsageRefundInput = z.input<typeof usageRefundSchema>;

/**
 * The console's usage import (house admins, for the house's whole tree): usage events
 * exactly as the machine API takes them, charged by the same engine, and refunds; at most
 * 1,000 items in all.
 */
export const usageImportSchema = z
  .object({
    events: z.array(usageEventInputSchema).max(USAGE_WINDOW.batchMax).optional(),
    refunds: z.array(usageRefundSchema).max(USAGE_WINDOW.batchMax).optional(),
  })
  .refine((v) => (v.events?.length ?? 0) + (v.refunds?.length ?? 0) >= 1, { message: 'Send at least one event or refund.' })
  .refine((v) => (v.events?.length ?? 0) + (v.refunds?.length ?? 0) <= USAGE_WINDOW.batchMax, {
    message: `An import holds at most ${USAGE_WINDOW.batchMax} events and refunds in all.`,
  });
export type UsageImportInput = z.input<typeof usageImportSchema>;

export const refundResultSchema = z.object({
  external_ref: z.string(),
  status: z.enum(['recorded', 'duplicate', 'rejected']),
  entry_id: z.uuid().nullable(),
  message: z.string().nullable(),
});
export type RefundResult = z.infer<typeof refundResultSchema>;

/** Each event's outcome as the machine API answers it, then each refund's. */
export const usageImportResultSchema = usageBatchResultSchema.extend({ refunds: z.array(refundResultSchema) });
export type UsageImportResult = z.infer<typeof usageImportResultSchema>;

export const ledgerRowSchema = z.object({
  id: z.uuid(),
  organization_id: z.uuid(),
  amount: amountStringSchema,
  entry_type: z.enum(ENTRY_TYPES),
  transaction_group: z.uuid(),
  metadata: z.record(z.string(), z.unknown()),
  balance_after: amountStringSchema,
  external_ref: z.string().nullable(),
  /** For consumption: the agent type and the units the entry charges for. */
  agent_type_id: z.uuid().nullable(),
  units: z
    .string()
    .regex(/^\d+\.\d{4}$/)
    .nullable(),
  created_by: z.uuid().nullable(),
  created_at: z.string(),
});
export type LedgerRow = z.infer<typeof ledgerRowSchema>;

/** An entry as the ledger shows it: who acted, the other organization of an allocation, and the sentence. */
export const ledgerEntrySchema = ledgerRowSchema.extend({
  /** The person who moved the credits (null for metered usage reported by a key). */
  actor: z.object({ id: z.uuid(), name: z.string(), email: z.string() }).nullable(),
  /** For allocations and initial balances: the other organization, and whether the caller may open it. */
  counterparty: z.object({ id: z.uuid(), name: z.string(), in_scope: z.boolean() }).nullable(),
  /** What happened, as a person reads it: "Ana Ruiz allocated 500.00 credits to Acme Dental". */
  description: z.string(),
  /** For an allocation's two entries: the transaction group of its reversal, null while it stands. */
  reversed_by: z.uuid().nullable(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

export const adjustmentResultSchema = z.object({ entry: ledgerRowSchema });

/** Years PostgreSQL and JavaScript both read the same way, with a day to spare at each end (0000 and 10000 fail). */
const inYearRange = (value: string) => Number(value.slice(0, 4)) >= 1000 && Number(value.slice(0, 4)) <= 9998;
export const dateOrDateTime = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: 'Use a date (YYYY-MM-DD) or an ISO date-time.' })
  .refine(inYearRange, 'Use a date between the years 1000 and 9998.');

export const ledgerQuerySchema = z.object({
  organization_id: z.uuid().optional(),
  entry_type: z.enum(ENTRY_TYPES).optional(),
  /** Consumption of one agent type. */
  agent_type_id: z.uuid().optional(),
  /** Inclusive start. */
  from: dateOrDateTime.optional(),
  /** A date is inclusive (the query runs to the start of the next day); a date-time is exclusive. */
  to: dateOrDateTime.optional(),
  amount_min: z.coerce.number().finite().optional(),
  amount_max: z.coerce.number().finite().optional(),
  /** Text in the notes, reason, other organization's name, agent or external reference. */
  q: z.string().trim().max(200).refine(isStorableText, UNSTORABLE_TEXT).optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(PAGING.ledgerPageSize),
});
export type LedgerQuery = z.input<typeof ledgerQuerySchema>;
export type LedgerParams = z.output<typeof ledgerQuerySchema>;

export const ledgerPageSchema = z.object({
  entries: z.array(ledgerEntrySchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: z.string().nullable(),
  credit_balance: amountStringSchema,
  /** The balance below which the organization's admins are alerted. */
  low_balance_threshold: amountStringSchema,
});
export type LedgerPage = z.infer<typeof ledgerPageSchema>;

/** The export takes the ledger's filters and streams every matching entry. */
export const ledgerExportQuerySchema = ledgerQuerySchema.omit({ cursor: true, limit: true });
export type LedgerExportQuery = z.input<typeof ledgerExportQuerySchema>;
