import { str } from './activity-text.ts';
/**
 * The activity log's actions and sentences for billing details, invoices and payments. The
 * details each writer stores: `invoices.details_set` {currency, credit_price, tax_rate,
 * terms_days}; `invoices.issue` {invoice_id, number, kind, total, currency}; the payment
 * actions {invoice_id, number, payment_id, amount, currency} and, for a reversal, {reason};
 * `invoices.void` {invoice_id, number, reason}.
 */
export const INVOICE_ACTIONS = [
  'invoices.details_set',
  'invoices.issue',
  'invoices.payment_record',
  'invoices.payment_reverse',
  'invoices.void',
] as const;
export type InvoiceAction = (typeof INVOICE_ACTIONS)[number];

export const INVOICE_ACTION_LABELS: Record<InvoiceAction, string> = {
  'invoices.details_set': 'Billing details change',
  'invoices.issue': 'Invoice issued',
  'invoices.payment_record': 'Payment recorded',
  'invoices.payment_reverse': 'Payment reversed',
  'invoices.void': 'Invoice voided',
};

/** The sentence of an invoice action, or null for any other action. */
export function invoiceSentence(
  action: string,
  facts: { who: string; org: string; target: string | null; details: Record<string, unknown> },
): string | null {
  const { who, org, target, details } = facts;
  const them = target ?? 'an organization';
  const number = str(details.number) ?? 'an invoice';
  const money = `${str(details.amount) ?? str(details.total) ?? '?'} ${str(details.currency) ?? ''}`.trim();
  switch (action) {
    case 'invoices.details_set':
      return `${who} set the billing details of ${org}: ${str(details.credit_price) ?? '?'} ${str(details.currency) ?? ''} a credit, tax ${str(details.tax_rate) ?? '?'} %, ${String(details.terms_days ?? '?')} days to pay`;
    case 'invoices.issue':
      return `${who} issued ${details.kind === 'credit_note' ? 'credit note' : 'invoice'} ${number} to ${them} for ${money}`;
    case 'invoices.payment_record':
      return `${who} recorded a payment of ${money} from ${them} on invoice ${number}`;
    case 'invoices.payment_reverse':
      return `${who} reversed a payment of ${money} on invoice ${number}${str(details.reason) ? `: ${str(details.reason)}` : ''}`;
    case 'invoices.void':
      return `${who} voided invoice ${number} of ${them}${str(details.reason) ? `: ${str(details.reason)}` : ''}`;
    default:
      return null;
  }
}
