import { createExports } from './exports.ts';
import type { PaymentsDeps } from './queries.ts';
import { createReceivables } from './receivables.ts';
import { createRecordPayment } from './record.ts';
import { createReversePayment } from './reverse.ts';
import { createVoidInvoice } from './void.ts';

/**
 * The payments service: payments recorded and reversed against issued invoices, voiding,
 * receivables by child and age, and the accounting exports. The invoice it answers with is read
 * through the invoices service.
 */
export function createPaymentsService(deps: PaymentsDeps) {
  const { recordPayment } = createRecordPayment(deps);
  const { reversePayment } = createReversePayment(deps);
  const { voidInvoice } = createVoidInvoice(deps);
  const reports = { ...deps, db: deps.readDb ?? deps.db };
  const { receivables } = createReceivables(reports);
  const { invoiceRows, paymentRows } = createExports(reports);
  return { recordPayment, reversePayment, voidInvoice, receivables, invoiceExportRows: invoiceRows, paymentExportRows: paymentRows };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
