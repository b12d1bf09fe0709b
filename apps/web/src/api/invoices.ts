import {
  invoicesEndpoints as endpoints,
  type BillingDetailsInput,
  type InvoiceDetail,
  type InvoiceListQuery,
  type PaymentInput,
} from '@console/domain';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { call, download } from '@/lib/api';
import { saveFile } from '@/lib/save-file';
import { invalidate } from './invalidation';
import { invoiceKeys } from './query-keys';

export const invoiceQueries = {
  /** A seller's billing details, whether the caller may change them, and the next invoice number as printed. */
  billingDetails: (organizationId: string) =>
    queryOptions({
      queryKey: invoiceKeys.details(organizationId),
      queryFn: ({ signal }) => call(endpoints.getBillingDetails, { params: { id: organizationId } }, { signal }),
    }),
  /** Invoices the organization issued (`side: 'issued'`) or received from its seller, a page at a time. */
  list: (organizationId: string, query: InvoiceListQuery) =>
    queryOptions({
      queryKey: invoiceKeys.list(organizationId, query),
      queryFn: ({ signal }) => call(endpoints.list, { params: { id: organizationId }, query }, { signal }),
      // The rows stay on screen while another filter or page loads.
      placeholderData: keepPreviousData,
    }),
  /**
   * Each child's draft. Credits moved elsewhere in the console change them without touching
   * these keys, so they are read afresh whenever they are shown.
   */
  drafts: (organizationId: string) =>
    queryOptions({
      queryKey: invoiceKeys.drafts(organizationId),
      queryFn: ({ signal }) => call(endpoints.drafts, { params: { id: organizationId } }, { signal }),
      staleTime: 0,
    }),
  /** One issued invoice or credit note with its lines and payments. */
  detail: (invoiceId: string) =>
    queryOptions({
      queryKey: invoiceKeys.detail(invoiceId),
      queryFn: ({ signal }) => call(endpoints.get, { params: { invoiceId } }, { signal }),
    }),
  /** What each child still owes the seller, by age. */
  receivables: (organizationId: string) =>
    queryOptions({
      queryKey: invoiceKeys.receivables(organizationId),
      queryFn: ({ signal }) => call(endpoints.receivables, { params: { id: organizationId } }, { signal }),
    }),
};

/** Sets the own organization's billing details (asks for a step-up); the answer replaces what is cached. */
export function useSetBillingDetails(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BillingDetailsInput) => call(endpoints.setBillingDetails, { params: { id: organizationId }, body }),
    onSuccess: async (answer) => {
      queryClient.setQueryData(invoiceKeys.details(organizationId), answer);
      await invalidate(queryClient, 'billingDetailsSet', organizationId);
    },
  });
}

/** Issues a child's draft at once; resolves to the invoice (and credit note) issued. */
export function useIssueInvoices(organizationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (buyerId: string) =>
      (await call(endpoints.issue, { params: { id: organizationId }, body: { buyer_id: buyerId } })).invoices,
    onSuccess: () => invalidate(queryClient, 'invoicesIssued', organizationId),
  });
}

/** A change to one invoice: its answer (the invoice as it now is) replaces the cached one, and the lists follow. */
function useInvoiceChange<Input>(invoiceId: string, send: (input: Input) => Promise<InvoiceDetail>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: async (invoice) => {
      queryClient.setQueryData(invoiceKeys.detail(invoiceId), invoice);
      await invalidate(queryClient, 'invoiceChanged');
    },
  });
}

/** Records a payment against an invoice (asks for a step-up); more than is owed is refused. */
export function useRecordPayment(invoiceId: string) {
  return useInvoiceChange(invoiceId, (body: PaymentInput) => call(endpoints.recordPayment, { params: { invoiceId }, body }));
}

/** Reverses a recorded payment, saying why. */
export function useReversePayment(invoiceId: string) {
  return useInvoiceChange(invoiceId, ({ paymentId, reason }: { paymentId: string; reason: string }) =>
    call(endpoints.reversePayment, { params: { invoiceId, paymentId }, body: { reason } }),
  );
}

/** Voids an invoice without payments, saying why. */
export function useVoidInvoice(invoiceId: string) {
  return useInvoiceChange(invoiceId, (reason: string) => call(endpoints.void, { params: { invoiceId }, body: { reason } }));
}

/** Downloads an invoice's PDF with the session's token and hands it to the browser to save. */
export function useDownloadInvoicePdf() {
  return useMutation({
    mutationFn: async ({ invoiceId, number }: { invoiceId: string; number: string }) => {
      const { blob, filename } = await download(endpoints.pdf, { params: { invoiceId } }, { headers: { Accept: 'application/pdf' } });
      return saveFile(blob, filename ?? `invoice-${number}.pdf`);
    },
  });
}

/** Downloads the seller's invoices (`invoices`) or payments (`payments`) of one month as CSV. */
export function useExportInvoices(organizationId: string) {
  return useMutation({
    mutationFn: async ({ what, month }: { what: 'invoices' | 'payments'; month: string }) => {
      const endpoint = what === 'invoices' ? endpoints.exportInvoices : endpoints.exportPayments;
      const { blob, filename } = await download(
        endpoint,
        { params: { id: organizationId }, query: { month } },
        { headers: { Accept: 'text/csv' } },
      );
      return saveFile(blob, filename ?? `${what}-${month}.csv`);
    },
  });
}
