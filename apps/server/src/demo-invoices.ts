import { sql, type Kysely } from 'kysely';
import { fromCents, invoiceState, toCents, type InvoiceState } from '@console/domain';
import type { DB } from './db/schema.ts';
import type { DemoOrganization, SeededDemo } from './db/seed.ts';
import { writeAudit } from './lib/audit.ts';
import { pino } from 'pino';
import { createMailer } from './lib/mail.ts';
import { issueDraft } from './modules/invoices/issue.ts';

const DAY_MS = 86_400_000;
/** The demo's invoices were issued this many days ago, so the one with no payment terms is overdue. */
const ISSUED_DAYS_AGO = 3;

/**
 * Each seller's billing details: a price per credit that rises down the tree (each level's
 * margin), and payment terms chosen so that the demo shows every state of an invoice.
 */
const DETAILS: Record<string, { legal: string; price: string; tax: string; label: string; terms: number; prefix: string }> = {
  house: { legal: 'Console House Ltd', price: '0.8000', tax: '0', label: 'Tax', terms: 30, prefix: 'HOUSE' },
  'Northwind Partners': { legal: 'Northwind Partners LLC', price: '0.9000', tax: '0', label: 'Tax', terms: 14, prefix: 'NWP' },
  'Bluebird Group': { legal: 'Bluebird Group BV', price: '0.9000', tax: '21', label: 'VAT', terms: 14, prefix: 'BBG' },
  // No terms: its invoices are due the day they are issued, and overdue since.
  'Northwind Digital': { legal: 'Northwind Digital LLC', price: '1.0000', tax: '8.25', label: 'Sales tax', terms: 0, prefix: 'NWD' },
  'Northwind Retail': { legal: 'Northwind Retail LLC', price: '1.0000', tax: '0', label: 'Tax', terms: 30, prefix: 'NWR' },
  'Bluebird Health': { legal: 'Bluebird Health BV', price: '1.1000', tax: '21', label: 'VAT', terms: 30, prefix: 'BBH' },
};

export interface DemoInvoice {
  number: string;
  seller: string;
  buyer: string;
  total: string;
  state: InvoiceState;
}

/**
 * Bills the demo's credits the way its sellers would have: billing details for every seller,
 * the drafts of everything moved until ISSUED_DAYS_AGO days ago issued then (through the same
 * issuing as the monthly issuer and "Issue now"), and payments recorded so that one invoice is
 * paid, one partly paid and Northwind Digital's, with no payment terms, overdue. Credits moved
 * since (automatic top-ups of the last days) stay on drafts.
 */
export async function seedDemoInvoices(db: Kysely<DB>, seeded: SeededDemo, options: { now: Date; appUrl: string }): Promise<DemoInvoice[]> {
  const issuedAt = new Date(options.now.getTime() - ISSUED_DAYS_AGO * DAY_MS);
  // The invoices' mails go to the outbox, as with no SMTP: the demo's addresses are nobody's.
  const mailer = createMailer({ db, smtpUrl: null, logger: pino({ level: 'silent' }) });
  const sellers: { id: string; name: string; key: string }[] = [
    { id: seeded.house.id, name: seeded.house.name, key: 'house' },
    ...seeded.organizations.filter((o) => DETAILS[o.name]).map((o) => ({ id: o.id, name: o.name, key: o.name })),
  ];
  const childrenOf = (id: string): DemoOrganization[] => seeded.organizations.filter((o) => o.parentId === id);
  await db.transaction().execute(async (trx) => {
    for (const seller of sellers) {
      const d = DETAILS[seller.key]!;
      await trx
        .insertInto('billing_details')
        .values({
          organization_id: seller.id,
          legal_name: d.legal,
          address: `${seller.name}\n100 Market Street\nSpringfield`,
          currency: 'USD',
          credit_price: d.price,
          tax_rate: d.tax,
          tax_label: d.label,
          terms_days: d.terms,
          number_prefix: d.prefix,
          note: 'Thank you for your business.',
          updated_by: seeded.houseAdminId,
        })
        .execute();
      await writeAudit(trx, {
        actorUserId: null,
        organizationId: seller.id,
        action: 'invoices.details_set',
        targetType: 'organization',
        targetId: seller.id,
        details: { currency: 'USD', credit_price: d.price, tax_rate: d.tax, terms_days: d.terms },
      });
      for (const child of childrenOf(seller.id)) {
        await issueDraft(
          trx,
          { mailer, appUrl: options.appUrl },
          {
            sellerId: seller.id,
            buyerId: child.id,
            before: issuedAt,
            period: null,
            actorUserId: null,
            info: null,
            skipLocked: false,
            issuedAt,
          },
        );
      }
    }
  });

  // One paid in full, one partly paid; the rest open, or overdue where the terms are over.
  const pay = async (buyer: string, share: bigint) => {
    const org = seeded.organizations.find((o) => o.name === buyer);
    const invoice =
      org &&
      (await db
        .selectFrom('invoices')
        .select(['id', 'total', 'number_text', 'seller_id'])
        .where('buyer_id', '=', org.id)
        .where('kind', '=', 'invoice')
        .executeTakeFirst());
    if (!invoice) return;
    const paid = fromCents((toCents(invoice.total) * share) / 100n);
    await db.transaction().execute(async (trx) => {
      const payment = await trx
        .insertInto('invoice_payments')
        .values({
          invoice_id: invoice.id,
          amount: paid,
          paid_on: new Date(options.now.getTime() - DAY_MS).toISOString().slice(0, 10),
          method: 'bank_transfer',
          reference: `DEMO-${invoice.number_text}`,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await writeAudit(trx, {
        actorUserId: null,
        organizationId: invoice.seller_id,
        action: 'invoices.payment_record',
        targetType: 'organization',
        targetId: org.id,
        details: { invoice_id: invoice.id, number: invoice.number_text, payment_id: payment.id, amount: paid, currency: 'USD' },
      });
    });
  };
  await pay('Northwind Partners', 100n);
  await pay('Summit Clinic', 40n);

  const today = options.now.toISOString().slice(0, 10);
  const { rows } = await sql<{ number: string; seller: string; buyer: string; total: string; paid: string; due_on: string }>`
    select i.number_text as number, s.name as seller, b.name as buyer, i.total::text as total, i.due_on::text as due_on,
           coalesce((select sum(p.amount) from invoice_payments p where p.invoice_id = i.id and p.reversed_at is null), 0)::numeric(18, 2)::text as paid
    from invoices i join organizations s on s.id = i.seller_id join organizations b on b.id = i.buyer_id
    order by s.name, i.number`.execute(db);
  return rows.map((r) => ({
    number: r.number,
    seller: r.seller,
    buyer: r.buyer,
    total: r.total,
    state: invoiceState({ kind: 'invoice', voided: false, total: r.total, paid: r.paid, due_on: r.due_on, today }),
  }));
}
