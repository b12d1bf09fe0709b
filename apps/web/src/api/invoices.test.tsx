import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { json, mockApi, OWN_ORG_ID } from '@/test/helpers';
import { CHILD_ID, detailOf, INVOICE_ID, ISSUE, PAYMENTS, paymentOf, summaryOf } from '@/test/invoice-data';
import { invoiceKeys, useIssueInvoices, useRecordPayment } from './invoices';
import { organizationKeys } from './query-keys';

/** Every view an invoice's change may reach, as cached answers nobody is watching. */
const VIEWS = {
  issued: invoiceKeys.list(OWN_ORG_ID, { side: 'issued' }),
  drafts: invoiceKeys.drafts(OWN_ORG_ID),
  receivables: invoiceKeys.receivables(OWN_ORG_ID),
  details: invoiceKeys.details(OWN_ORG_ID),
  organizations: organizationKeys.list({ attention: 'overdue_invoices' }),
} as const;
type View = keyof typeof VIEWS;

function seeded(): QueryClient {
  const client = createQueryClient();
  for (const key of Object.values(VIEWS)) client.setQueryData(key, {});
  return client;
}

const wrapper = (client: QueryClient) =>
  function Wrapper({ children }: { children: ReactNode }) {
    return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  };

const invalidated = (client: QueryClient) =>
  (Object.keys(VIEWS) as View[]).filter((view) => client.getQueryState(VIEWS[view])?.isInvalidated);

describe('a change to an invoice is shown everywhere without a reload', () => {
  it('recording a payment: the invoice takes the answer, and the lists, drafts, receivables and organization lists are asked again', async () => {
    const paid = detailOf({ payments: [paymentOf()], paid: '25.00', outstanding: '50.00', state: 'partially_paid' });
    mockApi({ [PAYMENTS]: () => json(201, paid) });
    const client = seeded();
    const { result } = renderHook(() => useRecordPayment(INVOICE_ID), { wrapper: wrapper(client) });
    await result.current.mutateAsync({ amount: '25.00', paid_on: '2025-03-05', method: 'card', reference: '' });
    expect(client.getQueryData(invoiceKeys.detail(INVOICE_ID))).toEqual(paid);
    expect(invalidated(client)).toEqual(['issued', 'drafts', 'receivables', 'organizations']);
  });

  it('issuing a draft: the same views, and the billing details (the next number moved on)', async () => {
    mockApi({ [ISSUE]: () => json(200, { invoices: [summaryOf()] }) });
    const client = seeded();
    const { result } = renderHook(() => useIssueInvoices(OWN_ORG_ID), { wrapper: wrapper(client) });
    await result.current.mutateAsync(CHILD_ID);
    expect(invalidated(client)).toEqual(['issued', 'drafts', 'receivables', 'details', 'organizations']);
  });
});
