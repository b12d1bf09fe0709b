import { sql, type Kysely } from 'kysely';
import type { InvoiceKind } from '@console/domain';
import type { DB } from '../../db/schema.ts';

/**
 * Issued invoices written straight to the database for the payments tests: an issued invoice is
 * frozen (its dates cannot be moved afterwards), so a test that needs an old one inserts it with
 * the dates it needs. Numbers come from the seller's counter, as issuing takes them.
 */
export async function insertInvoice(
  db: Kysely<DB>,
  invoice: {
    seller: string;
    buyer: string;
    total: string;
    kind?: InvoiceKind;
    /** Default: now. */
    issuedAt?: Date;
    /** "YYYY-MM-DD"; default: 30 days after the issue date. */
    dueOn?: string;
    currency?: string;
    buyerName?: string;
  },
): Promise<{ id: string; number: string }> {
  const issuedAt = invoice.issuedAt ?? new Date();
  const dueOn = invoice.dueOn ?? new Date(issuedAt.getTime() + 30 * 86_400_000).toISOString().slice(0, 10);
  const names = await db.selectFrom('organizations').select(['id', 'name']).where('id', 'in', [invoice.seller, invoice.buyer]).execute();
  const nameOf = (id: string) => names.find((row) => row.id === id)?.name ?? 'Unknown';
  const party = (id: string, name: string) => JSON.stringify({ id, name, legal_name: `${name} Ltd`, address: 'Street 1', tax_id: '' });
  const counter = await sql<{ last_number: number }>`
    insert into invoice_counters (seller_id, last_number) values (${invoice.seller}, 1)
    on conflict (seller_id) do update set last_number = invoice_counters.last_number + 1
    returning last_number`.execute(db);
  const number = counter.rows[0]!.last_number;
  const numberText = `T-${String(number).padStart(6, '0')}`;
  const row = await db
    .insertInto('invoices')
    .values({
      seller_id: invoice.seller,
      buyer_id: invoice.buyer,
      kind: invoice.kind ?? 'invoice',
      number,
      number_text: numberText,
      period: `${issuedAt.toISOString().slice(0, 7)}-01`,
      issued_at: issuedAt,
      due_on: dueOn,
      currency: invoice.currency ?? 'USD',
      credit_price: '1.0000',
      tax_rate: '0.000',
      tax_label: 'Tax',
      terms_days: 30,
      seller: party(invoice.seller, nameOf(invoice.seller)),
      buyer: party(invoice.buyer, invoice.buyerName ?? nameOf(invoice.buyer)),
      subtotal: invoice.total,
      tax: '0.00',
      total: invoice.total,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, number: numberText };
}

/** A payment written straight (a reversed one with its reason). */
export async function insertPayment(
  db: Kysely<DB>,
  payment: { invoiceId: string; amount: string; paidOn: string; reference?: string; reversedReason?: string },
): Promise<string> {
  const row = await db
    .insertInto('invoice_payments')
    .values({
      invoice_id: payment.invoiceId,
      amount: payment.amount,
      paid_on: payment.paidOn,
      method: 'bank_transfer',
      reference: payment.reference ?? '',
      ...(payment.reversedReason && { reversed_at: new Date(), reverse_reason: payment.reversedReason }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A seller's billing details, so its receivables have a currency. */
export async function insertBillingDetails(db: Kysely<DB>, sellerId: string, currency = 'USD'): Promise<void> {
  await db
    .insertInto('billing_details')
    .values({
      organization_id: sellerId,
      legal_name: 'Seller Ltd',
      address: 'Street 1',
      currency,
      credit_price: '1.0000',
      tax_rate: '0.000',
      tax_label: 'Tax',
      terms_days: 30,
    })
    .execute();
}

/** A day as "YYYY-MM-DD", `days` from today (UTC). */
export const dayFromToday = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
