import { sql, type Kysely } from 'kysely';
import {
  MESSAGES,
  invoiceStanding,
  todayUtc,
  mayManageInvoicesOf,
  personName,
  type Actor,
  type InvoiceDetail,
  type InvoiceKind,
  type InvoiceLineKind,
  type InvoiceParty,
  type InvoiceSummary,
  type OrgType,
  type PaymentMethod,
} from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import { NotFoundError } from '../../lib/errors.ts';

export const m = MESSAGES.invoices;

export interface InvoicesDeps {
  db: Kysely<DB>;
}

/** As printed: the seller's prefix and the number on 6 digits ("ACME-000042"). */
export const numberText = (prefix: string, number: number): string => `${prefix}${String(number).padStart(6, '0')}`;

/**
 * An invoice as read from its row: the frozen parties, the dates and months as text (a `date`
 * column would come back as a local Date from node-postgres), and what its payments not
 * reversed add up to.
 */
export function summaryQuery(executor: Executor) {
  return executor.selectFrom('invoices as i').select([
    'i.id',
    'i.kind',
    'i.number_text',
    'i.seller_id',
    'i.buyer_id',
    'i.seller',
    'i.buyer',
    sql<string>`to_char(i.period, 'YYYY-MM')`.as('period'),
    'i.issued_at',
    sql<string>`i.due_on::text`.as('due_on'),
    'i.currency',
    sql<string>`i.subtotal::text`.as('subtotal'),
    sql<string>`i.tax::text`.as('tax'),
    sql<string>`i.total::text`.as('total'),
    sql<string>`(select coalesce(sum(p.amount), 0)::numeric(18, 2)::text from invoice_payments p
        where p.invoice_id = i.id and p.reversed_at is null)`.as('paid'),
    'i.voided_at',
  ]);
}

export type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaryQuery>['executeTakeFirstOrThrow']>>;

const party = (value: unknown): InvoiceParty => value as InvoiceParty;

/**
 * The summary of a row: state by the domain's rule with today (UTC); what is still owed on an
 * invoice that is not void (a credit note and a void invoice owe nothing).
 */
export function toSummary(row: SummaryRow, today: string = todayUtc()): InvoiceSummary {
  const seller = party(row.seller);
  const buyer = party(row.buyer);
  return {
    id: row.id,
    kind: row.kind,
    number: row.number_text,
    seller: { id: seller.id, name: seller.name },
    buyer: { id: buyer.id, name: buyer.name },
    period: row.period,
    issued_at: row.issued_at,
    due_on: row.due_on,
    currency: row.currency,
    subtotal: row.subtotal,
    tax: row.tax,
    total: row.total,
    paid: row.paid,
    ...invoiceStanding({ kind: row.kind, voided: row.voided_at !== null, total: row.total, paid: row.paid, due_on: row.due_on, today }),
  };
}

/** The line columns as the contract has them (numerics as text). */
export function linesOf(executor: Executor, invoiceIds: readonly string[]) {
  if (invoiceIds.length === 0) return Promise.resolve([]);
  return executor
    .selectFrom('invoice_lines')
    .select([
      'invoice_id',
      'entry_id',
      'occurred_at',
      'kind',
      'description',
      sql<string>`credits::text`.as('credits'),
      sql<string>`unit_price::text`.as('unit_price'),
      sql<string>`amount::text`.as('amount'),
      'reference',
    ])
    .where('invoice_id', 'in', invoiceIds)
    .orderBy('invoice_id')
    .orderBy('n')
    .execute();
}

/** Who an invoice belongs to, for the visibility and management predicates. */
export async function invoiceFacts(
  executor: Executor,
  invoiceId: string,
): Promise<{ id: string; seller_id: string; buyer_id: string; seller_type: OrgType } | undefined> {
  return executor
    .selectFrom('invoices as i')
    .innerJoin('organizations as s', 's.id', 'i.seller_id')
    .select(['i.id', 'i.seller_id', 'i.buyer_id', 's.org_type as seller_type'])
    .where('i.id', '=', invoiceId)
    .executeTakeFirst();
}

/**
 * An issued invoice or credit note with its lines and payments, read in `executor` (another
 * module's transaction may pass its own). Checks no visibility: the caller's service does.
 * `can_manage` is what `actor` may do on it (false without one). 404 when there is none.
 */
export async function detailOf(executor: Executor, invoiceId: string, actor?: Actor): Promise<InvoiceDetail> {
  const [row, extra, facts] = await Promise.all([
    summaryQuery(executor).where('i.id', '=', invoiceId).executeTakeFirst(),
    executor
      .selectFrom('invoices')
      .select([
        sql<string>`credit_price::text`.as('credit_price'),
        sql<string>`tax_rate::text`.as('tax_rate'),
        'tax_label',
        'terms_days',
        'note',
        'verification_code',
        'void_reason',
      ])
      .where('id', '=', invoiceId)
      .executeTakeFirst(),
    invoiceFacts(executor, invoiceId),
  ]);
  if (!row || !extra || !facts) throw new NotFoundError(m.invoiceNotFound);
  const [lines, payments] = await Promise.all([
    linesOf(executor, [invoiceId]),
    executor
      .selectFrom('invoice_payments as p')
      .leftJoin('users as u', 'u.id', 'p.created_by')
      .select([
        'p.id',
        sql<string>`p.amount::text`.as('amount'),
        sql<string>`p.paid_on::text`.as('paid_on'),
        'p.method',
        'p.reference',
        'p.created_at',
        'u.first_name',
        'u.last_name',
        'u.email',
        'p.reversed_at',
        'p.reverse_reason',
      ])
      .where('p.invoice_id', '=', invoiceId)
      .orderBy('p.created_at')
      .orderBy('p.id')
      .execute(),
  ]);
  return {
    ...toSummary(row),
    seller_details: party(row.seller),
    buyer_details: party(row.buyer),
    credit_price: extra.credit_price,
    tax_rate: extra.tax_rate,
    tax_label: extra.tax_label,
    terms_days: extra.terms_days,
    note: extra.note,
    lines: lines.map(({ invoice_id: _invoice, ...line }) => ({ ...line, kind: line.kind as InvoiceLineKind })),
    payments: payments.map((p) => ({
      id: p.id,
      amount: p.amount,
      paid_on: p.paid_on,
      method: p.method as PaymentMethod,
      reference: p.reference,
      recorded_at: p.created_at,
      recorded_by: p.email ? personName({ first_name: p.first_name, last_name: p.last_name, email: p.email }) : null,
      reversed_at: p.reversed_at,
      reverse_reason: p.reverse_reason,
    })),
    verification_code: extra.verification_code,
    voided_at: row.voided_at,
    void_reason: extra.void_reason,
    can_manage: actor ? mayManageInvoicesOf(actor, { id: facts.seller_id, org_type: facts.seller_type }) : false,
  };
}

export type { InvoiceKind };
