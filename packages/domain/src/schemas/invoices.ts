import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { amountInputSchema, amountStringSchema, fromCents, toCents } from './amounts.ts';
import { isSingleLineText, isStorableText, UNSTORABLE_TEXT } from './common.ts';

const m = MESSAGES.invoices;

/**
 * Invoices of prepaid credits. A seller (the house, a super agency or an agency) bills each
 * direct child for the credits it moved to it: every allocation, initial balance and automatic
 * top-up is a line of that child's draft, and a reversal a negative line (or, when the credits
 * it gives back were on an issued invoice, a line of a credit note). A line's amount is its
 * credits times the seller's credit price, rounded once to the cent (half away from zero); the
 * tax is the subtotal times the rate, rounded once to the cent; the total is their sum. Drafts
 * are issued on the first day of the next month (UTC), or at once by the seller's admins:
 * numbered without gaps per seller, and frozen from then on.
 */

export const INVOICE_KINDS = ['invoice', 'credit_note'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];
/** Where an invoice stands; a credit note is `credit` until voided. */
export const INVOICE_STATES = ['open', 'partially_paid', 'paid', 'overdue', 'void', 'credit'] as const;
export type InvoiceState = (typeof INVOICE_STATES)[number];
export const INVOICE_STATE_LABELS: Record<InvoiceState, string> = {
  open: 'Open',
  partially_paid: 'Partially paid',
  paid: 'Paid',
  overdue: 'Overdue',
  void: 'Void',
  credit: 'Credit note',
};
/** What a line bills: credits moved by a person, the initial balance, an automatic top-up, or credits given back. */
export const INVOICE_LINE_KINDS = ['allocation', 'initial_balance', 'top_up', 'reversal'] as const;
export type InvoiceLineKind = (typeof INVOICE_LINE_KINDS)[number];
export const PAYMENT_METHODS = ['bank_transfer', 'card', 'cash', 'check', 'other'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  bank_transfer: 'Bank transfer',
  card: 'Card',
  cash: 'Cash',
  check: 'Check',
  other: 'Other',
};
/** Receivables by age since the invoice's date: 0–30, 31–60 and 61+ days. */
export const AGING_BUCKETS = ['days_0_30', 'days_31_60', 'days_61_plus'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];
/** Overdue reminders: one at the due date, then one a week, at most this many in all. */
export const OVERDUE_REMINDERS_MAX = 6;
export const OVERDUE_REMINDER_EVERY_DAYS = 7;

/** A calendar month, "YYYY-MM" (UTC). */
export const monthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, m.monthInvalid);
/** A day, "YYYY-MM-DD". */
export const daySchema = z.iso.date({ error: m.paymentDateInvalid });
/** A credit's price in the seller's currency: 0 or more, 4 decimals as stored ("0.0125"). */
export const creditPriceStringSchema = z.string().regex(/^\d+\.\d{4}$/);

const text = (max: number, tooLong: string) => z.string().trim().max(max, tooLong).refine(isStorableText, UNSTORABLE_TEXT);
const oneLine = (max: number, tooLong: string) => text(max, tooLong).refine(isSingleLineText, tooLong);

/** A seller's billing details as given on Settings > Billing details. */
export const billingDetailsInputSchema = z.object({
  legal_name: oneLine(200, m.legalNameTooLong).pipe(z.string().min(1, m.legalNameRequired)),
  address: text(500, m.addressTooLong).pipe(z.string().min(1, m.addressRequired)),
  tax_id: oneLine(50, m.taxIdTooLong).default(''),
  currency: z
    .string({ error: m.currencyInvalid })
    .trim()
    .transform((value) => value.toUpperCase())
    .pipe(z.string().regex(/^[A-Z]{3}$/, m.currencyInvalid)),
  credit_price: z
    .union([z.number(), z.string()], { error: m.creditPriceInvalid })
    .transform((value) => (typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim()))
    .pipe(z.string().regex(/^\d{1,8}(\.\d{1,4})?$/, m.creditPriceInvalid)),
  tax_rate: z
    .union([z.number(), z.string()], { error: m.taxRateInvalid })
    .transform((value) => (typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim()))
    .pipe(
      z
        .string()
        .regex(/^\d{1,3}(\.\d{1,3})?$/, m.taxRateInvalid)
        .refine((value) => Number(value) <= 100, m.taxRateInvalid),
    ),
  tax_label: oneLine(30, m.taxLabelInvalid).pipe(z.string().min(1, m.taxLabelInvalid)),
  terms_days: z.coerce.number({ error: m.termsInvalid }).int(m.termsInvalid).min(0, m.termsInvalid).max(365, m.termsInvalid),
  number_prefix: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{0,12}$/, m.prefixInvalid)
    .default(''),
  note: text(1000, m.noteTooLong)
    .nullable()
    .default(null)
    .transform((value) => (value ? value : null)),
});
export type BillingDetailsInput = z.input<typeof billingDetailsInputSchema>;

export const billingDetailsSchema = z.object({
  legal_name: z.string(),
  address: z.string(),
  tax_id: z.string(),
  currency: z.string(),
  credit_price: creditPriceStringSchema,
  /** Percent, 3 decimals as stored ("20.000"). */
  tax_rate: z.string(),
  tax_label: z.string(),
  terms_days: z.number().int(),
  number_prefix: z.string(),
  note: z.string().nullable(),
  updated_at: z.string(),
});
export type BillingDetails = z.infer<typeof billingDetailsSchema>;

export const billingDetailsResponseSchema = z.object({
  /** Null until the seller's admins set them; no invoice is issued before. */
  details: billingDetailsSchema.nullable(),
  /** The caller may change them (the organization's own admins of a seller). */
  can_edit: z.boolean(),
  /** The number the next invoice will carry, as printed. */
  next_number: z.string(),
});
export type BillingDetailsResponse = z.infer<typeof billingDetailsResponseSchema>;

const orgRef = z.object({ id: z.uuid(), name: z.string() });
/** Who an invoice is from or to, as printed on it (frozen when it is issued). */
export const invoicePartySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  legal_name: z.string(),
  address: z.string(),
  tax_id: z.string(),
});
export type InvoiceParty = z.infer<typeof invoicePartySchema>;

export const invoiceLineSchema = z.object({
  /** The ledger entry it bills (the buyer's side). */
  entry_id: z.uuid(),
  occurred_at: z.string(),
  kind: z.enum(INVOICE_LINE_KINDS),
  description: z.string(),
  credits: amountStringSchema,
  unit_price: creditPriceStringSchema,
  amount: amountStringSchema,
  /** The movement's transaction id, as on both ledgers. */
  reference: z.string(),
});
export type InvoiceLine = z.infer<typeof invoiceLineSchema>;

export const invoicePaymentSchema = z.object({
  id: z.uuid(),
  amount: amountStringSchema,
  paid_on: z.string(),
  method: z.enum(PAYMENT_METHODS),
  reference: z.string(),
  recorded_at: z.string(),
  recorded_by: z.string().nullable(),
  reversed_at: z.string().nullable(),
  reverse_reason: z.string().nullable(),
});
export type InvoicePayment = z.infer<typeof invoicePaymentSchema>;

export const invoiceSummarySchema = z.object({
  id: z.uuid(),
  kind: z.enum(INVOICE_KINDS),
  /** As printed: the seller's prefix and the number ("ACME-000042"). */
  number: z.string(),
  seller: orgRef,
  buyer: orgRef,
  /** The month it bills, "YYYY-MM". */
  period: monthSchema,
  issued_at: z.string(),
  due_on: z.string(),
  currency: z.string(),
  subtotal: amountStringSchema,
  tax: amountStringSchema,
  total: amountStringSchema,
  /** Payments not reversed. */
  paid: amountStringSchema,
  outstanding: amountStringSchema,
  state: z.enum(INVOICE_STATES),
});
export type InvoiceSummary = z.infer<typeof invoiceSummarySchema>;

export const invoiceDetailSchema = invoiceSummarySchema.extend({
  seller_details: invoicePartySchema,
  buyer_details: invoicePartySchema,
  credit_price: creditPriceStringSchema,
  tax_rate: z.string(),
  tax_label: z.string(),
  terms_days: z.number().int(),
  note: z.string().nullable(),
  lines: z.array(invoiceLineSchema),
  payments: z.array(invoicePaymentSchema),
  /** The buyer's ledger chain head at the end of the period (or at issue, within it): its statement's verification code. */
  verification_code: z.string().nullable(),
  voided_at: z.string().nullable(),
  void_reason: z.string().nullable(),
  /** The caller is an admin of the seller: payments, reversals and voiding. */
  can_manage: z.boolean(),
});
export type InvoiceDetail = z.infer<typeof invoiceDetailSchema>;

/** Issued invoices the organization sent (`issued`, as seller) or received from its seller (`received`). */
export const INVOICE_SIDES = ['issued', 'received'] as const;
export const invoiceListQuerySchema = z.object({
  side: z.enum(INVOICE_SIDES).default('issued'),
  buyer_id: z.uuid().optional(),
  state: z.enum(INVOICE_STATES).optional(),
  period: monthSchema.optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(25),
});
export type InvoiceListQuery = z.input<typeof invoiceListQuerySchema>;
export const invoiceListSchema = z.object({
  invoices: z.array(invoiceSummarySchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  total_pages: z.number().int(),
  /** The caller may issue drafts and record payments (admins of a seller, on its issued side). */
  can_manage: z.boolean(),
});
export type InvoiceList = z.infer<typeof invoiceListSchema>;

/** What a child's next invoice (and credit note) would hold if issued now, at today's billing details. */
export const invoiceDraftSchema = z.object({
  buyer: orgRef,
  /** The month of its first line. */
  period: monthSchema,
  lines: z.array(invoiceLineSchema),
  subtotal: amountStringSchema,
  tax: amountStringSchema,
  total: amountStringSchema,
  /** Reversals of credits already on issued invoices: issued as a credit note beside the invoice. */
  credit_lines: z.array(invoiceLineSchema),
  credit_total: amountStringSchema,
});
export type InvoiceDraft = z.infer<typeof invoiceDraftSchema>;
export const invoiceDraftsSchema = z.object({
  /** Billing details are set: drafts can be issued. */
  ready: z.boolean(),
  currency: z.string().nullable(),
  drafts: z.array(invoiceDraftSchema),
});
export type InvoiceDrafts = z.infer<typeof invoiceDraftsSchema>;

export const issueInvoicesInputSchema = z.object({ buyer_id: z.uuid() });
export const issuedInvoicesSchema = z.object({ invoices: z.array(invoiceSummarySchema) });

export const paymentInputSchema = z.object({
  amount: amountInputSchema,
  paid_on: daySchema,
  method: z.enum(PAYMENT_METHODS),
  reference: oneLine(200, m.paymentReferenceTooLong).default(''),
});
export type PaymentInput = z.input<typeof paymentInputSchema>;
export const reasonInputSchema = z.object({
  reason: oneLine(500, m.reasonRequired).pipe(z.string().min(1, m.reasonRequired)),
});
export const invoiceParamsSchema = z.object({ invoiceId: z.uuid({ error: 'Not a valid id.' }) });
export const paymentParamsSchema = z.object({
  invoiceId: z.uuid({ error: 'Not a valid id.' }),
  paymentId: z.uuid({ error: 'Not a valid id.' }),
});

export const receivableRowSchema = z.object({
  organization: orgRef,
  days_0_30: amountStringSchema,
  days_31_60: amountStringSchema,
  days_61_plus: amountStringSchema,
  total: amountStringSchema,
  /** Open invoices past their due date. */
  overdue: z.number().int(),
});
export type ReceivableRow = z.infer<typeof receivableRowSchema>;
export const receivablesSchema = z.object({
  currency: z.string().nullable(),
  children: z.array(receivableRowSchema),
  totals: z.object({
    days_0_30: amountStringSchema,
    days_31_60: amountStringSchema,
    days_61_plus: amountStringSchema,
    total: amountStringSchema,
    overdue: z.number().int(),
  }),
});
export type Receivables = z.infer<typeof receivablesSchema>;
export const monthQuerySchema = z.object({ month: monthSchema });

/**
 * Where an issued document stands today. A void one is void; a credit note is a credit; an
 * invoice paid in full is paid; otherwise it is overdue from the day after its due date, and
 * partially paid or open before that.
 */
export function invoiceState(invoice: {
  kind: InvoiceKind;
  voided: boolean;
  total: string;
  paid: string;
  due_on: string;
  /** Today, "YYYY-MM-DD" (UTC). */
  today: string;
}): InvoiceState {
  if (invoice.voided) return 'void';
  if (invoice.kind === 'credit_note') return 'credit';
  if (toCents(invoice.paid) >= toCents(invoice.total)) return 'paid';
  if (invoice.today > invoice.due_on) return 'overdue';
  return toCents(invoice.paid) > 0n ? 'partially_paid' : 'open';
}

/**
 * Where an issued document stands today and what is still owed on it: total − paid on an
 * invoice, nothing on a credit note or a void invoice.
 */
export function invoiceStanding(invoice: Parameters<typeof invoiceState>[0]): { state: InvoiceState; outstanding: string } {
  const owed = invoice.kind === 'invoice' && !invoice.voided ? toCents(invoice.total) - toCents(invoice.paid) : 0n;
  return { state: invoiceState(invoice), outstanding: fromCents(owed) };
}

/** Today as invoices count it: the calendar day in UTC ("YYYY-MM-DD"). */
export const todayUtc = (now: Date = new Date()): string => now.toISOString().slice(0, 10);

/** The aging bucket of an amount owed on an invoice issued `days` days ago. */
export function agingBucket(days: number): AgingBucket {
  if (days <= 30) return 'days_0_30';
  if (days <= 60) return 'days_31_60';
  return 'days_61_plus';
}
