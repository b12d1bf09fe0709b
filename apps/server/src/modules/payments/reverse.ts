import { sql } from 'kysely';
import type { InvoiceDetail } from '@console/domain';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { ConflictError, NotFoundError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { lockInvoice, m, requireManager, type PaymentsDeps } from './queries.ts';

/**
 * Reverses a recorded payment (a bounced transfer, a payment entered against the wrong invoice),
 * saying why. The payment is never deleted: it is marked, the one change the database allows on
 * it, so the invoice owes that amount again. Under the invoice's row lock, like recording.
 */
export function createReversePayment({ db, invoices }: PaymentsDeps) {
  async function reversePayment(
    caller: Caller,
    invoiceId: string,
    paymentId: string,
    reason: string,
    info: ClientInfo,
  ): Promise<InvoiceDetail> {
    await db.transaction().execute(async (trx) => {
      const invoice = await lockInvoice(trx, invoiceId);
      requireManager(caller, invoice);
      const payment = await trx
        .selectFrom('invoice_payments')
        .select(['id', sql<string>`amount::text`.as('amount'), 'reversed_at'])
        .where('id', '=', paymentId)
        .where('invoice_id', '=', invoice.id)
        .executeTakeFirst();
      if (!payment) throw new NotFoundError(m.paymentNotFound);
      if (payment.reversed_at !== null) throw new ConflictError(m.paymentAlreadyReversed);
      await trx
        .updateTable('invoice_payments')
        .set({ reversed_at: sql`now()`, reversed_by: caller.userId, reverse_reason: reason })
        .where('id', '=', payment.id)
        .execute();
      await auditAction(trx, caller, info, {
        organizationId: invoice.seller_id,
        action: 'invoices.payment_reverse',
        targetType: 'organization',
        targetId: invoice.buyer_id,
        details: {
          invoice_id: invoice.id,
          number: invoice.number_text,
          payment_id: payment.id,
          amount: payment.amount,
          currency: invoice.currency,
          reason,
        },
      });
    });
    return invoices.detail(caller, invoiceId);
  }

  return { reversePayment };
}
