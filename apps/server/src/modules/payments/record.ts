import { toCents, fromCents, todayUtc } from '@console/domain';
import type { InvoiceDetail, PaymentMethod } from '@console/domain';
import { activeAdmins } from '../../lib/admins.ts';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { ConflictError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { invoiceEvent, lockInvoice, m, paidOn, requireManager, type PaymentsDeps } from './queries.ts';

export interface PaymentRecord {
  /** Exact decimal text, above 0 ("12.50"). */
  amount: string;
  /** "YYYY-MM-DD". */
  paid_on: string;
  method: PaymentMethod;
  reference: string;
}

/**
 * Records a payment against an invoice, by the seller's admins. Under the invoice's row lock
 * (which every payment, reversal and void takes first) the rules are read again: it exists and
 * the caller manages it, it is an invoice (a credit note takes none), not void, the day is not in
 * the future, and the amount is at most what is still owed, so concurrent payments never add up
 * to more than the total. The payment that settles it in full writes `invoice.paid` and mails the
 * buyer's admins a receipt, in the same transaction.
 */
export function createRecordPayment({ db, invoices, mailer }: PaymentsDeps) {
  async function recordPayment(caller: Caller, invoiceId: string, payment: PaymentRecord, info: ClientInfo): Promise<InvoiceDetail> {
    await db.transaction().execute(async (trx) => {
      const invoice = await lockInvoice(trx, invoiceId);
      requireManager(caller, invoice);
      if (invoice.kind === 'credit_note') throw new RuleError(m.creditNoteNoPayments);
      if (invoice.voided) throw new ConflictError(m.notPayable);
      if (payment.paid_on > todayUtc()) throw new RuleError(m.paymentDateInvalid);
      const owed = toCents(invoice.total) - toCents(await paidOn(trx, invoice.id));
      const amount = toCents(payment.amount);
      if (amount > owed) throw new RuleError(m.overpayment(fromCents(owed > 0n ? owed : 0n), invoice.currency));
      const row = await trx
        .insertInto('invoice_payments')
        .values({
          invoice_id: invoice.id,
          amount: payment.amount,
          paid_on: payment.paid_on,
          method: payment.method,
          reference: payment.reference,
          created_by: caller.userId,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await auditAction(trx, caller, info, {
        organizationId: invoice.seller_id,
        action: 'invoices.payment_record',
        targetType: 'organization',
        targetId: invoice.buyer_id,
        details: {
          invoice_id: invoice.id,
          number: invoice.number_text,
          payment_id: row.id,
          amount: payment.amount,
          currency: invoice.currency,
        },
      });
      if (amount === owed) {
        await invoiceEvent(trx, 'invoice.paid', invoice, '0.00');
        const subject = m.paidSubject(invoice.number_text);
        const text = m.paid(invoice.seller_name, invoice.number_text, invoice.total, invoice.currency);
        for (const admin of await activeAdmins(trx, [invoice.buyer_id])) {
          await mailer.send({ to: admin.email, subject, text }, trx);
        }
      }
    });
    return invoices.detail(caller, invoiceId);
  }

  return { recordPayment };
}
