import type {
  BillingDetails,
  BillingDetailsResponse,
  InvoiceDetail,
  InvoiceDraft,
  InvoiceLine,
  InvoicePayment,
  InvoiceSummary,
  Receivables,
  Statement,
  StatementVerification,
} from '@console/domain';
import { OWN_ORG_ID } from './helpers';

export const CHILD_ID = '00000000-0000-4000-8000-0000000000c1';
export const OTHER_CHILD_ID = '00000000-0000-4000-8000-0000000000c2';
export const SELLER_ID = '00000000-0000-4000-8000-0000000000d1';
export const INVOICE_ID = '00000000-0000-4000-8000-0000000001a1';
export const PAYMENT_ID = '00000000-0000-4000-8000-0000000001b1';
export const CODE = 'ab'.repeat(32);

/** The requests of the invoices pages, as mockApi names them. */
const ORG = `/api/organizations/${OWN_ORG_ID}`;
export const DETAILS = `${ORG}/billing-details`;
export const INVOICES = `GET ${ORG}/invoices`;
export const DRAFTS = `GET ${ORG}/invoice-drafts`;
export const ISSUE = `POST ${ORG}/invoice-drafts/issue`;
export const RECEIVABLES = `GET ${ORG}/receivables`;
export const INVOICE = `GET /api/invoices/${INVOICE_ID}`;
export const PAYMENTS = `POST /api/invoices/${INVOICE_ID}/payments`;
export const REVERSE = `POST /api/invoices/${INVOICE_ID}/payments/${PAYMENT_ID}/reverse`;
export const statementPath = (month: string, organizationId = OWN_ORG_ID) => `/api/organizations/${organizationId}/statements/${month}`;

export function detailsOf(overrides: Partial<BillingDetails> = {}): BillingDetails {
  return {
    legal_name: 'Northwind Agency Ltd',
    address: '1 Harbour Street\nLondon',
    tax_id: 'GB123456789',
    currency: 'EUR',
    credit_price: '0.0125',
    tax_rate: '20.000',
    tax_label: 'VAT',
    terms_days: 30,
    number_prefix: 'NW-',
    note: null,
    updated_at: '2025-03-01T10:00:00.000Z',
    ...overrides,
  };
}

export function detailsResponse(details: BillingDetails | null = detailsOf(), canEdit = true): BillingDetailsResponse {
  return { details, can_edit: canEdit, next_number: `${details?.number_prefix ?? ''}000042` };
}

export function lineOf(overrides: Partial<InvoiceLine> = {}): InvoiceLine {
  return {
    entry_id: '00000000-0000-4000-8000-0000000002a1',
    occurred_at: '2025-02-10T09:00:00.000Z',
    kind: 'allocation',
    description: 'Credits allocated to Dental Clinic',
    credits: '5000.00',
    unit_price: '0.0125',
    amount: '62.50',
    reference: 'tx-0001',
    ...overrides,
  };
}

export function summaryOf(overrides: Partial<InvoiceSummary> = {}): InvoiceSummary {
  return {
    id: INVOICE_ID,
    kind: 'invoice',
    number: 'NW-000041',
    seller: { id: OWN_ORG_ID, name: 'Northwind' },
    buyer: { id: CHILD_ID, name: 'Dental Clinic' },
    period: '2025-02',
    issued_at: '2025-03-01T00:05:00.000Z',
    due_on: '2025-03-31',
    currency: 'EUR',
    subtotal: '62.50',
    tax: '12.50',
    total: '75.00',
    paid: '0.00',
    outstanding: '75.00',
    state: 'open',
    ...overrides,
  };
}

export function paymentOf(overrides: Partial<InvoicePayment> = {}): InvoicePayment {
  return {
    id: PAYMENT_ID,
    amount: '25.00',
    paid_on: '2025-03-05',
    method: 'bank_transfer',
    reference: 'BANK-REF-1',
    recorded_at: '2025-03-05T12:00:00.000Z',
    recorded_by: 'Alice Admin',
    reversed_at: null,
    reverse_reason: null,
    ...overrides,
  };
}

export function detailOf(overrides: Partial<InvoiceDetail> = {}): InvoiceDetail {
  return {
    ...summaryOf(),
    seller_details: {
      id: OWN_ORG_ID,
      name: 'Northwind',
      legal_name: 'Northwind Agency Ltd',
      address: '1 Harbour Street\nLondon',
      tax_id: 'GB123456789',
    },
    buyer_details: { id: CHILD_ID, name: 'Dental Clinic', legal_name: 'Dental Clinic LLC', address: '5 Main Road', tax_id: '' },
    credit_price: '0.0125',
    tax_rate: '20.000',
    tax_label: 'VAT',
    terms_days: 30,
    note: 'Thank you for your business.',
    lines: [lineOf()],
    payments: [],
    verification_code: CODE,
    voided_at: null,
    void_reason: null,
    can_manage: true,
    ...overrides,
  };
}

export function draftOf(overrides: Partial<InvoiceDraft> = {}): InvoiceDraft {
  return {
    buyer: { id: CHILD_ID, name: 'Dental Clinic' },
    period: '2025-03',
    lines: [lineOf({ occurred_at: '2025-03-04T09:00:00.000Z', reference: 'tx-0002' })],
    subtotal: '62.50',
    tax: '12.50',
    total: '75.00',
    credit_lines: [],
    credit_total: '0.00',
    ...overrides,
  };
}

export function receivablesOf(): Receivables {
  return {
    currency: 'EUR',
    children: [
      {
        organization: { id: CHILD_ID, name: 'Dental Clinic' },
        days_0_30: '75.00',
        days_31_60: '0.00',
        days_61_plus: '120.00',
        total: '195.00',
        overdue: 1,
      },
      {
        organization: { id: OTHER_CHILD_ID, name: 'Eye Care' },
        days_0_30: '10.00',
        days_31_60: '20.00',
        days_61_plus: '0.00',
        total: '30.00',
        overdue: 0,
      },
    ],
    totals: { days_0_30: '85.00', days_31_60: '20.00', days_61_plus: '120.00', total: '225.00', overdue: 1 },
  };
}

export function statementOf(overrides: Partial<Statement> = {}): Statement {
  return {
    organization: { id: OWN_ORG_ID, name: 'Northwind', org_type: 'agency' },
    month: '2025-02',
    period_start: '2025-02-01T00:00:00.000Z',
    period_end: '2025-03-01T00:00:00.000Z',
    partial: false,
    opening_balance: '1000.00',
    closing_balance: '1450.00',
    credits_in: '5000.00',
    credits_out: '-4550.00',
    groups: [
      {
        kind: 'allocation_received',
        counterparty: { id: SELLER_ID, name: 'Big Super Agency' },
        agent: null,
        units: null,
        unit_price: null,
        entries: 2,
        amount: '5000.00',
      },
      {
        kind: 'consumption',
        counterparty: null,
        agent: { id: '00000000-0000-4000-8000-0000000000a1', name: 'Support Bot' },
        units: '120.5000',
        unit_price: '0.500000',
        entries: 40,
        amount: '-60.25',
      },
    ],
    entries: 42,
    verification_code: CODE,
    closes: true,
    ...overrides,
  };
}

export function verificationOf(overrides: Partial<StatementVerification> = {}): StatementVerification {
  return { month: '2025-02', code: CODE, head: CODE, matches: true, chain: { whole: true, checked: 42, first_broken: null }, ...overrides };
}
