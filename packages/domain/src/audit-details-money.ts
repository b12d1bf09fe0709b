import { z } from 'zod';
import { ALERT_LINE_KINDS, ALERT_LINE_WINDOWS } from './schemas/alert-lines.ts';

/**
 * What the audit row of each credit, billing, pricing, usage, invoice and alert-line action
 * stores in `details`. Amounts, prices and thresholds are decimal strings, never floats.
 * Strict, so a key no schema names is an error.
 */

/** Credits as a decimal string ("500.00"). */
const amount = z.string();
/** A decimal string, or null for none (no cap, no threshold, pass-through price). */
const decimalOrNone = z.string().nullable();
/** The ledger's transaction group the credits moved in. */
const transactionGroup = z.string();
/** Terms the added credits carry, as the ledger stores them (agent types by id). */
const storedTerms = z.strictObject({
  expires_at: z.string().nullable(),
  agent_type_ids: z.array(z.string()).nullable(),
  priority: z.number().int(),
});
/** An automatic top-up rule: below this balance, move this amount, at most this much a month. */
const topUpRule = { below: z.string(), amount: z.string(), monthly_max: z.string() };
const topUpTerms = z.strictObject({
  expires_after_days: z.number().int().nullable(),
  agent_type_ids: z.array(z.string()).nullable(),
  priority: z.number().int(),
});
/** The counts and the sum a usage statement wrote; `summary` is the row's sentence as the statement built it. */
const usageOutcome = {
  events: z.number().int(),
  accepted: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.number().int(),
  credits_charged: amount,
  summary: z.string(),
};
/** An alert line as its audit row records it. */
const alertLine = z.strictObject({
  kind: z.enum(ALERT_LINE_KINDS),
  /** The line: a balance, a percent of a cap or a number of days, as a decimal string. */
  bound: z.string(),
  /** The cap's window of a cap_percent line; null for the others. */
  window: z.enum(ALERT_LINE_WINDOWS).nullable(),
});
const invoiceRef = {
  invoice_id: z.string(),
  /** The invoice's number as printed. */
  number: z.string(),
};

export const MONEY_AUDIT_DETAILS = {
  // Written by credits_allocate (db/rules/functions).
  'credits.allocate': z.strictObject({
    amount,
    transaction_group: transactionGroup,
    notes: z.string().nullable(),
    terms: storedTerms.optional(),
  }),
  'credits.reverse_allocation': z.strictObject({
    amount,
    reason: z.string(),
    transaction_group: transactionGroup,
    /** The allocation's transaction group. */
    reverses_transaction_id: z.string(),
    /** The child's name when it was reversed. */
    name: z.string(),
  }),
  'credits.initial_balance': z.strictObject({ amount, transaction_group: transactionGroup }),
  // Written by credits_adjust (db/rules/functions): the unsigned amount as the request gave it.
  'credits.adjust_increase': z.strictObject({ amount, reason: z.string(), terms: storedTerms.optional() }),
  'credits.adjust_decrease': z.strictObject({ amount, reason: z.string(), terms: storedTerms.optional() }),
  'credits.refund': z.strictObject({
    amount,
    /** The importer's reference of the refund record. */
    external_ref: z.string(),
    /** The reference of the usage it refunds. */
    refund_of: z.string(),
    reason: z.string().optional(),
  }),
  'billing.agent_limit': z.strictObject({ before: z.number().int().nullable(), after: z.number().int().nullable() }),
  'billing.low_balance_threshold': z.strictObject({ before: decimalOrNone, after: decimalOrNone }),
  'pricing.price_set': z.strictObject({
    /** The agent type's code. */
    agent: z.string(),
    agent_type_id: z.string(),
    /** What the children paid and now pay a unit; null for the catalog price passed through. */
    before: decimalOrNone,
    after: decimalOrNone,
  }),
  'pricing.child_price_set': z.strictObject({
    agent: z.string(),
    agent_type_id: z.string(),
    child_id: z.string(),
    /** What this child paid and now pays a unit; null for the seller's book price. */
    before: decimalOrNone,
    after: decimalOrNone,
  }),
  'billing.spend_controls': z.strictObject({
    /** The monthly spend cap before and after; null for no cap. */
    spend_cap_before: decimalOrNone,
    spend_cap_after: decimalOrNone,
    /** As stored; a rule has all three, so null parts only on an inconsistent row. */
    top_up_before: z.strictObject({ below: z.string(), amount: decimalOrNone, monthly_max: decimalOrNone }).nullable(),
    top_up_after: z.strictObject({ ...topUpRule, terms: topUpTerms.optional() }).nullable(),
    // The day and week caps, only when they changed.
    daily_spend_cap_before: decimalOrNone.optional(),
    daily_spend_cap_after: decimalOrNone.optional(),
    weekly_spend_cap_before: decimalOrNone.optional(),
    weekly_spend_cap_after: decimalOrNone.optional(),
  }),
  // Written by the top-up runner (billing/top-ups.ts) in SQL: the parent's row, the child as target.
  'top_up.made': z.strictObject({
    amount,
    transaction_group: transactionGroup,
    /** The rule's line the balance went below. */
    below: amount,
    /** The child's balance when the top-up was made. */
    balance_before: amount,
    /** Why: the balance crossed the line, or usage was refused for want of credits. */
    reason: z.enum(['crossed', 'refused']),
  }),
  // Written by the usage statement (usage/record.ts): a key's first accepted batch of the hour.
  'usage.reported': z.strictObject({ key_name: z.string(), key_prefix: z.string(), ...usageOutcome }),
  'usage.imported': z.strictObject(usageOutcome),
  'invoices.details_set': z.strictObject({
    currency: z.string(),
    /** What one credit is invoiced at, a decimal string. */
    credit_price: z.string(),
    /** Percent, a decimal string. */
    tax_rate: z.string(),
    terms_days: z.number().int(),
  }),
  'invoices.issue': z.strictObject({
    ...invoiceRef,
    kind: z.enum(['invoice', 'credit_note']),
    total: amount,
    currency: z.string(),
  }),
  'invoices.payment_record': z.strictObject({ ...invoiceRef, payment_id: z.string(), amount, currency: z.string() }),
  'invoices.payment_reverse': z.strictObject({
    ...invoiceRef,
    payment_id: z.string(),
    amount,
    currency: z.string(),
    reason: z.string(),
  }),
  'invoices.void': z.strictObject({ ...invoiceRef, reason: z.string() }),
  'alert_line.create': z.strictObject({ line_id: z.string(), after: alertLine }),
  'alert_line.update': z.strictObject({ line_id: z.string(), before: alertLine, after: alertLine }),
  'alert_line.delete': z.strictObject({ line_id: z.string(), before: alertLine }),
} satisfies Record<string, z.ZodType>;
