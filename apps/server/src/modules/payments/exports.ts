import { sql } from 'kysely';
import { MESSAGES, invoiceStanding, mayReadInvoiceWorkOf, type InvoiceKind, type PaymentMethod, todayUtc } from '@console/domain';
import type { Executor } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { type PaymentsDeps } from './queries.ts';

/**
 * The accounting exports of a seller, one month at a time (UTC). Their columns are a contract
 * (docs/api.md): new ones are added at the end, none is renamed, moved or dropped.
 */
export const INVOICE_EXPORT_COLUMNS = [
  'number',
  'kind',
  'issued_at',
  'period',
  'buyer_id',
  'buyer_name',
  'currency',
  'subtotal',
  'tax',
  'total',
  'paid',
  'outstanding',
  'state',
  'due_on',
  'voided_at',
] as const;

export const PAYMENT_EXPORT_COLUMNS = [
  'payment_id',
  'invoice_number',
  'buyer_id',
  'buyer_name',
  'paid_on',
  'amount',
  'currency',
  'method',
  'reference',
  'recorded_at',
  'reversed_at',
  'reverse_reason',
] as const;

export interface InvoiceExportRow {
  number: number;
  number_text: string;
  kind: InvoiceKind;
  issued_at: string;
  period: string;
  buyer_id: string;
  buyer_name: string;
  currency: string;
  subtotal: string;
  tax: string;
  total: string;
  paid: string;
  due_on: string;
  voided_at: string | null;
}

export interface PaymentExportRow {
  id: string;
  invoice_number: string;
  buyer_id: string;
  buyer_name: string;
  paid_on: string;
  amount: string;
  currency: string;
  method: PaymentMethod;
  reference: string;
  recorded_at: string;
  reversed_at: string | null;
  reverse_reason: string | null;
}

/** An invoice's cells: what is paid and owed and its state as of today (a credit note and a void invoice owe nothing). */
export function invoiceCells(row: InvoiceExportRow, today: string = todayUtc()): unknown[] {
  const { state, outstanding } = invoiceStanding({
    kind: row.kind,
    voided: row.voided_at !== null,
    total: row.total,
    paid: row.paid,
    due_on: row.due_on,
    today,
  });
  return [
    row.number_text,
    row.kind,
    row.issued_at,
    row.period,
    row.buyer_id,
    row.buyer_name,
    row.currency,
    row.subtotal,
    row.tax,
    row.total,
    row.paid,
    outstanding,
    state,
    row.due_on,
    row.voided_at,
  ];
}

export function paymentCells(row: PaymentExportRow): unknown[] {
  return [
    row.id,
    row.invoice_number,
    row.buyer_id,
    row.buyer_name,
    row.paid_on,
    row.amount,
    row.currency,
    row.method,
    row.reference,
    row.recorded_at,
    row.reversed_at,
    row.reverse_reason,
  ];
}

/** Rows read a page at a time, so a large month never sits in memory whole. */
const PAGE = 1000;

/** The month's bounds as text: its first day and the next month's. */
function monthBounds(month: string): { from: string; to: string } {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  const next = mon === 12 ? `${year + 1}-01` : `${year}-${String(mon + 1).padStart(2, '0')}`;
  return { from: `${month}-01`, to: `${next}-01` };
}

/**
 * The seller's own admins export its books; anyone else is told the organization does not exist.
 * Checked when the first row is asked for, which the CSV sender does before it answers.
 */
async function requireSeller(executor: Executor, caller: Caller, sellerId: string): Promise<void> {
  const org = await executor
    .selectFrom('organizations')
    .select(['id', 'org_type'])
    .where('id', '=', sellerId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!org || !mayReadInvoiceWorkOf(caller, org)) throw new NotFoundError(MESSAGES.organizations.notFound);
}

export function createExports({ db }: PaymentsDeps) {
  /** Invoices and credit notes issued in the month (UTC), by number. */
  async function* invoiceRows(caller: Caller, sellerId: string, month: string): AsyncGenerator<InvoiceExportRow> {
    await requireSeller(db, caller, sellerId);
    const { from, to } = monthBounds(month);
    for (let after = 0; ; ) {
      const { rows } = await sql<InvoiceExportRow>`
        select i.number, i.number_text, i.kind, i.issued_at, to_char(i.period, 'YYYY-MM') as period, i.buyer_id,
          i.buyer ->> 'name' as buyer_name, i.currency, i.subtotal::text as subtotal, i.tax::text as tax, i.total::text as total,
          (select coalesce(sum(p.amount), 0)::numeric(18, 2)::text from invoice_payments p
            where p.invoice_id = i.id and p.reversed_at is null) as paid,
          i.due_on::text as due_on, i.voided_at
        from invoices i
        where i.seller_id = ${sellerId} and i.number > ${after}
          and i.issued_at >= (${from}::timestamp at time zone 'UTC') and i.issued_at < (${to}::timestamp at time zone 'UTC')
        order by i.number
        limit ${PAGE}`.execute(db);
      yield* rows;
      if (rows.length < PAGE) return;
      after = rows[rows.length - 1]!.number;
    }
  }

  /** One page of a month's payments of the seller, after the (day, id) given. */
  async function paymentPage(sellerId: string, from: string, to: string, after: PaymentExportRow | null): Promise<PaymentExportRow[]> {
    const { rows } = await sql<PaymentExportRow>`
      select p.id, i.number_text as invoice_number, i.buyer_id, i.buyer ->> 'name' as buyer_name, p.paid_on::text as paid_on,
        p.amount::text as amount, i.currency, p.method, p.reference, p.created_at as recorded_at, p.reversed_at, p.reverse_reason
      from invoice_payments p
      join invoices i on i.id = p.invoice_id
      where i.seller_id = ${sellerId} and p.paid_on >= ${from}::date and p.paid_on < ${to}::date
        ${after ? sql`and (p.paid_on, p.id) > (${after.paid_on}::date, ${after.id}::uuid)` : sql``}
      order by p.paid_on, p.id
      limit ${PAGE}`.execute(db);
    return rows;
  }

  /** Payments against the seller's invoices whose payment day falls in the month, reversed ones too (with when and why). */
  async function* paymentRows(caller: Caller, sellerId: string, month: string): AsyncGenerator<PaymentExportRow> {
    await requireSeller(db, caller, sellerId);
    const { from, to } = monthBounds(month);
    for (let after: PaymentExportRow | null = null; ; ) {
      const rows = await paymentPage(sellerId, from, to, after);
      yield* rows;
      if (rows.length < PAGE) return;
      after = rows[rows.length - 1]!;
    }
  }

  return { invoiceRows, paymentRows };
}
