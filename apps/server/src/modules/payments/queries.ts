import { sql, type Kysely } from 'kysely';
import {
  MESSAGES,
  mayManageInvoicesOf,
  mayViewInvoice,
  type Actor,
  type InvoiceDetail,
  type InvoiceKind,
  type OrgType,
  type WEBHOOK_EVENT_DATA,
} from '@console/domain';
import type { z } from 'zod';
import type { DB, Executor } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError, NotFoundError } from '../../lib/errors.ts';
import type { Mailer } from '../../lib/mail.ts';

export const m = MESSAGES.invoices;

/** What the payments module needs of the invoices service: an invoice as its caller reads it. */
export interface InvoiceReader {
  detail(caller: Caller, invoiceId: string): Promise<InvoiceDetail>;
}

export interface PaymentsDeps {
  db: Kysely<DB>;
  /** The receivables and the accounting exports read here (the replica when there is one); payments read the primary. */
  readDb?: Kysely<DB>;
  invoices: InvoiceReader;
  mailer: Mailer;
}

/** An invoice as the payment rules need it, read with its row locked. */
export interface LockedInvoice {
  id: string;
  seller_id: string;
  seller_type: OrgType;
  seller_name: string;
  buyer_id: string;
  buyer_name: string;
  kind: InvoiceKind;
  number_text: string;
  /** "YYYY-MM". */
  period: string;
  due_on: string;
  currency: string;
  total: string;
  voided: boolean;
}

/**
 * Locks an invoice's row (`for update`): every payment, reversal and void of it takes this lock
 * first, so what it owes cannot change under the rules that follow. Undefined when there is none.
 */
export async function lockInvoice(trx: Executor, invoiceId: string): Promise<LockedInvoice | undefined> {
  return trx
    .selectFrom('invoices as i')
    .innerJoin('organizations as s', 's.id', 'i.seller_id')
    .innerJoin('organizations as b', 'b.id', 'i.buyer_id')
    .select([
      'i.id',
      'i.seller_id',
      's.org_type as seller_type',
      's.name as seller_name',
      'i.buyer_id',
      'b.name as buyer_name',
      'i.kind',
      'i.number_text',
      sql<string>`to_char(i.period, 'YYYY-MM')`.as('period'),
      sql<string>`i.due_on::text`.as('due_on'),
      'i.currency',
      sql<string>`i.total::text`.as('total'),
      sql<boolean>`i.voided_at is not null`.as('voided'),
    ])
    .where('i.id', '=', invoiceId)
    .forUpdate('i')
    .executeTakeFirst();
}

/**
 * What the invoice's payments not reversed add up to. Read in its own statement after the lock,
 * so it sees every payment committed before the lock was granted.
 */
export async function paidOn(trx: Executor, invoiceId: string): Promise<string> {
  const row = await trx
    .selectFrom('invoice_payments')
    .select(sql<string>`coalesce(sum(amount), 0)::numeric(18, 2)::text`.as('paid'))
    .where('invoice_id', '=', invoiceId)
    .where('reversed_at', 'is', null)
    .executeTakeFirstOrThrow();
  return row.paid;
}

/**
 * Changes to an invoice are its seller's admins': anyone who may not read it is told it does not
 * exist (404, so its existence does not leak), a reader who may not change it is refused (403).
 */
export function requireManager(actor: Actor, invoice: LockedInvoice | undefined): asserts invoice is LockedInvoice {
  if (!invoice || !mayViewInvoice(actor, invoice)) throw new NotFoundError(m.invoiceNotFound);
  if (!mayManageInvoicesOf(actor, { id: invoice.seller_id, org_type: invoice.seller_type })) throw new ForbiddenError(m.onlyOwnAdmins);
}

type InvoiceEventData = z.infer<(typeof WEBHOOK_EVENT_DATA)['invoice.paid']>;

/** An `invoice.*` event of the billed child, in the change's transaction (delivered to the buyer's and the seller's endpoints). */
export async function invoiceEvent(
  trx: Executor,
  type: 'invoice.paid' | 'invoice.overdue',
  invoice: LockedInvoice,
  outstanding: string,
): Promise<void> {
  const data: InvoiceEventData = {
    invoice_id: invoice.id,
    kind: invoice.kind,
    number: invoice.number_text,
    seller: { id: invoice.seller_id, name: invoice.seller_name },
    period: invoice.period,
    currency: invoice.currency,
    total: invoice.total,
    outstanding,
    due_on: invoice.due_on,
  };
  await trx
    .insertInto('webhook_events')
    .values({ type, organization_id: invoice.buyer_id, data: JSON.stringify(data) })
    .execute();
}
