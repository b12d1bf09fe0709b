import { mayViewInvoice, type InvoiceDetail } from '@console/domain';
import type { Caller } from '../../lib/caller.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { detailOf, invoiceFacts, m, type InvoicesDeps } from './queries.ts';

/** One invoice as its seller's and its buyer's people read it; 404 for everyone else, above the seller too. */
export function createInvoiceRead({ db }: InvoicesDeps) {
  async function detail(caller: Caller, invoiceId: string): Promise<InvoiceDetail> {
    const facts = await invoiceFacts(db, invoiceId);
    if (!facts || !mayViewInvoice(caller, facts)) throw new NotFoundError(m.invoiceNotFound);
    return detailOf(db, invoiceId, caller);
  }
  return { detail };
}
