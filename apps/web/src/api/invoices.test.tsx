import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { watchViews } from '@/test/query-views';
import { json, mockApi, OWN_ORG_ID } from '@/test/helpers';
import { CHILD_ID, detailOf, INVOICE_ID, ISSUE, PAYMENTS, paymentOf, summaryOf } from '@/test/invoice-data';
import { useIssueInvoices, useRecordPayment } from './invoices';
import { invoiceKeys, organizationKeys } from './query-keys';

/** Every view an invoice's change may reach, as cached answers nobody is watching. */
const VIEWS = {
  issued: invoiceKeys.list(OWN_ORG_ID, { side: 'issued' }),
  drafts: invoiceKeys.drafts(OWN_ORG_ID),
  receivables: invoiceKeys.receivables(OWN_ORG_ID),
  details: invoiceKeys.details(OWN_ORG_ID),
  organizations: organizationKeys.list({ attention: 'overdue_invoices' }),
} as const;

const { seeded, wrapper, invalidated } = watchViews(VIEWS);

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
