import { sql } from 'kysely';
import type { InvoiceKind, InvoiceParty, InvoiceSummary } from '@console/domain';
import type { Executor } from '../../db/schema.ts';
import { activeAdmins } from '../../lib/admins.ts';
import { writeAudit } from '../../lib/audit.ts';
import { RuleError } from '../../lib/errors.ts';
import type { Mailer } from '../../lib/mail.ts';
import { billableLines, periodOf, totalsOf, type BillableLine } from './billable.ts';
import { m, numberText, summaryQuery, toSummary } from './queries.ts';

/** Where the mail goes out, and the console's address its link points into. */
export interface Notify {
  mailer: Mailer;
  appUrl: string;
}

export interface IssueRequest {
  sellerId: string;
  buyerId: string;
  /** Only entries dated before this instant (monthly issuing); null: the whole draft. */
  before: Date | null;
  /** The month billed, "YYYY-MM" (monthly issuing: the month it closes); null: the draft's earliest line's. */
  period: string | null;
  /** Who issues (null: the monthly issuer) and from where, for the audit row. */
  actorUserId: string | null;
  info: { ip: string; requestId: string } | null;
  /** Skip (answer null) when another transaction holds the seller's counter, instead of waiting for it. */
  skipLocked: boolean;
  /**
   * The invoice's date, when it is not now: only the demo seed, which tells of invoices issued
   * days ago, sets it. Its due date counts from it.
   */
  issuedAt?: Date;
}

/**
 * Issues a child's draft in the caller's transaction: the invoice, and a credit note when
 * credits already invoiced came back, each skipped when it would have no line. The seller's
 * counter row is taken first and held to the end, so a seller's issuing is serialized, the
 * entries re-selected under it are billed once, and numbers have no gaps (a transaction that
 * rolls back gives its numbers back). Answers the documents issued (none when the draft is
 * empty), or null when skipLocked found the counter taken.
 */
export async function issueDraft(trx: Executor, notify: Notify, request: IssueRequest): Promise<InvoiceSummary[] | null> {
  const { sellerId, buyerId } = request;
  await trx
    .insertInto('invoice_counters')
    .values({ seller_id: sellerId })
    .onConflict((oc) => oc.column('seller_id').doNothing())
    .execute();
  let counter = trx.selectFrom('invoice_counters').select('last_number').where('seller_id', '=', sellerId).forUpdate();
  if (request.skipLocked) counter = counter.skipLocked();
  if (!(await counter.executeTakeFirst())) return null;

  const details = await trx
    .selectFrom('billing_details as d')
    .innerJoin('organizations as o', 'o.id', 'd.organization_id')
    .select([
      'o.name',
      'd.legal_name',
      'd.address',
      'd.tax_id',
      'd.currency',
      sql<string>`d.credit_price::text`.as('credit_price'),
      sql<string>`d.tax_rate::text`.as('tax_rate'),
      'd.tax_label',
      'd.terms_days',
      'd.number_prefix',
      'd.note',
    ])
    .where('d.organization_id', '=', sellerId)
    .executeTakeFirst();
  if (!details) throw new RuleError(m.detailsMissing, 'billing_details_missing');

  const lines = await billableLines(trx, sellerId, buyerId, request.before);
  if (lines.length === 0) return [];
  const buyer = await trx
    .selectFrom('organizations as o')
    .leftJoin('billing_details as d', 'd.organization_id', 'o.id')
    .select(['o.id', 'o.name', 'd.legal_name', 'd.address', 'd.tax_id'])
    .where('o.id', '=', buyerId)
    .executeTakeFirstOrThrow();
  const sellerParty: InvoiceParty = {
    id: sellerId,
    name: details.name,
    legal_name: details.legal_name,
    address: details.address,
    tax_id: details.tax_id,
  };
  // A buyer without billing details of its own is printed by its organization's name.
  const buyerParty: InvoiceParty = {
    id: buyer.id,
    name: buyer.name,
    legal_name: buyer.legal_name ?? buyer.name,
    address: buyer.address ?? '',
    tax_id: buyer.tax_id ?? '',
  };
  const period = `${request.period ?? periodOf(lines)}-01`;
  const documents: [InvoiceKind, BillableLine[]][] = [
    ['invoice', lines.filter((line) => !line.on_credit_note)],
    ['credit_note', lines.filter((line) => line.on_credit_note)],
  ];
  const issued: InvoiceSummary[] = [];
  for (const [kind, docLines] of documents) {
    if (docLines.length === 0) continue;
    const { number } = await trx
      .updateTable('invoice_counters')
      .set({ last_number: sql`last_number + 1` })
      .where('seller_id', '=', sellerId)
      .returning('last_number as number')
      .executeTakeFirstOrThrow();
    const totals = totalsOf(
      docLines.map((line) => line.amount),
      details.tax_rate,
    );
    const issuedAt = request.issuedAt?.toISOString() ?? null;
    const { rows } = await sql<{ id: string }>`
      insert into invoices (seller_id, buyer_id, kind, number, number_text, period, issued_at, due_on, currency, credit_price, tax_rate,
        tax_label, terms_days, note, seller, buyer, subtotal, tax, total, verification_code, created_by)
      values (${sellerId}, ${buyerId}, ${kind}, ${number}, ${numberText(details.number_prefix, number)}, ${period}::date,
        coalesce(${issuedAt}::timestamptz, now()), (coalesce(${issuedAt}::timestamptz, now()) at time zone 'UTC')::date + ${details.terms_days}::int, ${details.currency}, ${details.credit_price}::numeric,
        ${details.tax_rate}::numeric, ${details.tax_label}, ${details.terms_days}, ${details.note},
        ${JSON.stringify(sellerParty)}::jsonb, ${JSON.stringify(buyerParty)}::jsonb,
        ${totals.subtotal}::numeric, ${totals.tax}::numeric, ${totals.total}::numeric,
        -- The buyer's chain head at the period's end, or now within the period: its statement's verification code.
        (select encode(e.hash, 'hex') from credit_ledger_entries e
         where e.organization_id = ${buyerId}
           and e.created_at < least((${period}::date + interval '1 month')::timestamp at time zone 'UTC', now())
         order by e.created_at desc, e.seq desc limit 1),
        ${request.actorUserId})
      returning id`.execute(trx);
    const invoiceId = rows[0]!.id;
    await trx
      .insertInto('invoice_lines')
      .values(
        docLines.map((line, index) => ({
          invoice_id: invoiceId,
          n: index + 1,
          entry_id: line.entry_id,
          occurred_at: line.occurred_at,
          kind: line.kind,
          description: line.description,
          credits: line.credits,
          unit_price: line.unit_price,
          amount: line.amount,
          reference: line.reference,
        })),
      )
      .execute();
    const summary = toSummary(await summaryQuery(trx).where('i.id', '=', invoiceId).executeTakeFirstOrThrow());
    await announce(trx, notify, summary, request);
    issued.push(summary);
  }
  return issued;
}

/** The audit row, the webhook event (to the buyer's endpoints and the seller's) and the mail to the buyer's admins. */
async function announce(trx: Executor, { mailer, appUrl }: Notify, invoice: InvoiceSummary, request: IssueRequest): Promise<void> {
  await writeAudit(trx, {
    actorUserId: request.actorUserId,
    organizationId: invoice.seller.id,
    action: 'invoices.issue',
    targetType: 'organization',
    targetId: invoice.buyer.id,
    details: { invoice_id: invoice.id, number: invoice.number, kind: invoice.kind, total: invoice.total, currency: invoice.currency },
    ip: request.info?.ip ?? null,
    requestId: request.info?.requestId ?? null,
  });
  const data = {
    invoice_id: invoice.id,
    kind: invoice.kind,
    number: invoice.number,
    seller: invoice.seller,
    period: invoice.period,
    currency: invoice.currency,
    total: invoice.total,
    outstanding: invoice.outstanding,
    due_on: invoice.due_on,
  };
  await trx
    .insertInto('webhook_events')
    .values({ type: 'invoice.issued', organization_id: invoice.buyer.id, data: JSON.stringify(data) })
    .execute();
  const [seller, buyer] = [invoice.seller.name, invoice.buyer.name];
  const [subject, text] =
    invoice.kind === 'credit_note'
      ? [m.creditNoteSubject(seller, invoice.number), m.creditNote(seller, buyer, invoice.number, invoice.total, invoice.currency)]
      : [m.issuedSubject(seller, invoice.number), m.issued(seller, buyer, invoice.number, invoice.total, invoice.currency, invoice.due_on)];
  for (const admin of await activeAdmins(trx, [invoice.buyer.id])) {
    await mailer.send({ to: admin.email, subject, text: `${text}\n\nInvoice: ${appUrl}/invoices/${invoice.id}` }, trx);
  }
}
