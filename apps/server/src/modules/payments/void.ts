import { toCents } from '@console/domain';
import { sql } from 'kysely';
import type { InvoiceDetail } from '@console/domain';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { ConflictError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { lockInvoice, m, paidOn, requireManager, type PaymentsDeps } from './queries.ts';

/**
 * Voids an issued invoice or credit note, saying why. Its lines stay on it, so the entries they
 * bill are never billed again. Refused while payments not reversed stand on it (reverse them
 * first), read under the invoice's row lock so a payment recorded at the same moment cannot
 * slip in.
 */
export function createVoidInvoice({ db, invoices }: PaymentsDeps) {
  async function voidInvoice(caller: Caller, invoiceId: string, reason: string, info: ClientInfo): Promise<InvoiceDetail> {
    await db.transaction().execute(async (trx) => {
      const invoice = await lockInvoice(trx, invoiceId);
      requireManager(caller, invoice);
      if (invoice.voided) throw new ConflictError(m.alreadyVoid);
      if (toCents(await paidOn(trx, invoice.id)) !== 0n) throw new ConflictError(m.voidHasPayments);
      await trx
        .updateTable('invoices')
        .set({ voided_at: sql`now()`, voided_by: caller.userId, void_reason: reason })
        .where('id', '=', invoice.id)
        .execute();
      await auditAction(trx, caller, info, {
        organizationId: invoice.seller_id,
        action: 'invoices.void',
        targetType: 'organization',
        targetId: invoice.buyer_id,
        details: { invoice_id: invoice.id, number: invoice.number_text, reason },
      });
    });
    return invoices.detail(caller, invoiceId);
  }

  return { voidInvoice };
}
