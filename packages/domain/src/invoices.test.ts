import { describe, expect, it } from 'vitest';
import { activitySentence } from './activity.ts';
import { INVOICE_ACTIONS, invoiceSentence } from './activity-invoices.ts';
import type { OrgType } from './hierarchy.ts';
import { MESSAGES } from './messages.ts';
import { fromCents, toCents } from './schemas/amounts.ts';
import { isSeller, mayManageInvoicesOf, mayReadInvoiceWorkOf, mayViewInvoice, mayViewSellerBooks } from './policy-invoices.ts';
import type { Actor } from './policy.ts';
import {
  agingBucket,
  billingDetailsInputSchema,
  invoiceListQuerySchema,
  invoiceStanding,
  invoiceState,
  paymentInputSchema,
  reasonInputSchema,
} from './schemas/invoices.ts';
import { statementParamsSchema, verifyStatementQuerySchema } from './schemas/statements.ts';

const m = MESSAGES.invoices;
const at = (role: string, org_type: OrgType, extra: Partial<Actor['organization']> = {}): Actor => ({
  userId: 'me',
  role,
  organization: { id: 'seller', org_type, path: '/h/seller/', ...extra },
});

describe('exact amounts in hundredths', () => {
  it('reads amounts with up to two decimals, signed, and writes them with two', () => {
    expect(['12.50', '-12.5', '0', '7', '-0.05', '123456789012.99'].map(toCents)).toEqual([1250n, -1250n, 0n, 700n, -5n, 12345678901299n]);
    expect([1250n, -1250n, 0n, 5n, -5n, 100n].map(fromCents)).toEqual(['12.50', '-12.50', '0.00', '0.05', '-0.05', '1.00']);
  });
  it('refuses what is not such an amount rather than guess', () => {
    for (const bad of ['1.234', '', '1e3', '12,50', ' 1.00', '--1', '.5']) expect(() => toCents(bad), bad).toThrow();
  });
});

describe('invoice state', () => {
  const base = { kind: 'invoice' as const, voided: false, total: '120.00', paid: '0.00', due_on: '2026-12-10', today: '2026-12-05' };
  it('is void, a credit, paid, overdue, partially paid or open, in that order', () => {
    expect(invoiceState({ ...base, voided: true, paid: '120.00' })).toBe('void');
    expect(invoiceState({ ...base, kind: 'credit_note', total: '-5.00' })).toBe('credit');
    expect(invoiceState({ ...base, voided: true, kind: 'credit_note' })).toBe('void');
    expect(invoiceState({ ...base, paid: '120.00', today: '2027-01-01' })).toBe('paid');
    expect(invoiceState({ ...base, paid: '119.99' })).toBe('partially_paid');
    expect(invoiceState({ ...base, paid: '0.01', today: '2026-12-11' })).toBe('overdue');
    expect(invoiceState(base)).toBe('open');
  });
  it('is overdue from the day after the due date, never on it', () => {
    expect(invoiceState({ ...base, today: '2026-12-10' })).toBe('open');
    expect(invoiceState({ ...base, today: '2026-12-11' })).toBe('overdue');
  });
  it('compares cents exactly, whatever the size', () => {
    expect(invoiceState({ ...base, total: '10000000000.01', paid: '10000000000.00' })).toBe('partially_paid');
    expect(invoiceState({ ...base, total: '0.00', paid: '0.00' })).toBe('paid');
  });
});

describe('invoice standing', () => {
  const base = { kind: 'invoice' as const, voided: false, total: '120.00', paid: '20.05', due_on: '2026-12-10', today: '2026-12-05' };
  it('owes total − paid on an invoice, nothing on a void one or a credit note', () => {
    expect(invoiceStanding(base)).toEqual({ state: 'partially_paid', outstanding: '99.95' });
    expect(invoiceStanding({ ...base, paid: '120.00' })).toEqual({ state: 'paid', outstanding: '0.00' });
    expect(invoiceStanding({ ...base, voided: true })).toEqual({ state: 'void', outstanding: '0.00' });
    expect(invoiceStanding({ ...base, kind: 'credit_note', total: '-3.00', paid: '0.00' })).toEqual({
      state: 'credit',
      outstanding: '0.00',
    });
    expect(invoiceStanding({ ...base, total: '1000000.07', paid: '0.00' }).outstanding).toBe('1000000.07');
    expect(invoiceStanding({ ...base, total: '1.00', paid: '1.05' }).outstanding).toBe('-0.05');
  });
});

describe('aging', () => {
  it('puts 0–30, 31–60 and 61+ days in their buckets', () => {
    expect([0, 30, 31, 60, 61, 400].map(agingBucket)).toEqual([
      'days_0_30',
      'days_0_30',
      'days_31_60',
      'days_31_60',
      'days_61_plus',
      'days_61_plus',
    ]);
  });
});

describe('who sees and changes invoices', () => {
  const invoice = { seller_id: 'seller', buyer_id: 'buyer' };
  it('a seller is every type but the tenant', () => {
    expect((['house', 'super_agency', 'agency', 'tenant'] as const).map((org_type) => isSeller({ org_type }))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(isSeller({})).toBe(false);
  });
  it('the seller and the billed child read an invoice; nobody above or beside them does', () => {
    expect(mayViewInvoice(at('agency_user', 'agency'), invoice)).toBe(true);
    expect(mayViewInvoice({ ...at('tenant_user', 'tenant'), organization: { id: 'buyer', org_type: 'tenant' } }, invoice)).toBe(true);
    expect(
      mayViewInvoice({ ...at('super_agency_admin', 'super_agency'), organization: { id: 'above', org_type: 'super_agency' } }, invoice),
    ).toBe(false);
    expect(mayViewInvoice(at('nobody', 'agency'), invoice)).toBe(false);
  });
  it("only the seller's own admins, active, manage its invoices", () => {
    const seller = { id: 'seller', org_type: 'agency' as const };
    expect(mayManageInvoicesOf(at('agency_admin', 'agency'), seller)).toBe(true);
    expect(mayManageInvoicesOf(at('agency_manager', 'agency'), seller)).toBe(false);
    expect(mayManageInvoicesOf(at('agency_admin', 'agency'), { id: 'other', org_type: 'agency' })).toBe(false);
    expect(mayManageInvoicesOf(at('tenant_admin', 'tenant'), { id: 'seller', org_type: 'tenant' })).toBe(false);
    expect(mayManageInvoicesOf(at('agency_admin', 'agency', { status: 'suspended' }), seller)).toBe(false);
  });
  it("a frozen seller's admins still read their drafts and exports; nobody else does", () => {
    const seller = { id: 'seller', org_type: 'agency' as const };
    expect(mayReadInvoiceWorkOf(at('agency_admin', 'agency', { status: 'suspended' }), seller)).toBe(true);
    expect(mayReadInvoiceWorkOf(at('agency_user', 'agency'), seller)).toBe(false);
    expect(mayReadInvoiceWorkOf(at('agency_admin', 'agency'), { id: 'other', org_type: 'agency' })).toBe(false);
    expect(mayReadInvoiceWorkOf(at('tenant_admin', 'tenant'), { id: 'seller', org_type: 'tenant' })).toBe(false);
  });
  it("a seller's own people read its books; others do not", () => {
    expect(mayViewSellerBooks(at('agency_user', 'agency'), { id: 'seller' })).toBe(true);
    expect(mayViewSellerBooks(at('agency_user', 'agency'), { id: 'child' })).toBe(false);
    expect(mayViewSellerBooks(at('nobody', 'agency'), { id: 'seller' })).toBe(false);
  });
});

describe('billing details input', () => {
  const valid = {
    legal_name: ' Acme Ltd ',
    address: '1 Main St\nSpringfield',
    currency: 'eur',
    credit_price: 0.0125,
    tax_rate: '20',
    tax_label: 'VAT',
    terms_days: '30',
  };
  it('normalizes what it keeps', () => {
    expect(billingDetailsInputSchema.parse(valid)).toEqual({
      legal_name: 'Acme Ltd',
      address: '1 Main St\nSpringfield',
      tax_id: '',
      currency: 'EUR',
      credit_price: '0.0125',
      tax_rate: '20',
      tax_label: 'VAT',
      terms_days: 30,
      number_prefix: '',
      note: null,
    });
    expect(billingDetailsInputSchema.parse({ ...valid, note: '  ' }).note).toBeNull();
    expect(billingDetailsInputSchema.parse({ ...valid, tax_rate: '100' }).tax_rate).toBe('100');
  });
  const refusal = (patch: Record<string, unknown>) => {
    const result = billingDetailsInputSchema.safeParse({ ...valid, ...patch });
    return result.success ? null : result.error.issues[0]!.message;
  };
  it('refuses each field in its own words', () => {
    expect(refusal({ legal_name: '' })).toBe(m.legalNameRequired);
    expect(refusal({ legal_name: 'x'.repeat(201) })).toBe(m.legalNameTooLong);
    expect(refusal({ address: ' ' })).toBe(m.addressRequired);
    expect(refusal({ currency: 'EURO' })).toBe(m.currencyInvalid);
    expect(refusal({ credit_price: '0.00001' })).toBe(m.creditPriceInvalid);
    expect(refusal({ credit_price: -1 })).toBe(m.creditPriceInvalid);
    expect(refusal({ credit_price: Number.NaN })).toBe(m.creditPriceInvalid);
    expect(refusal({ tax_rate: '100.001' })).toBe(m.taxRateInvalid);
    expect(refusal({ tax_rate: '1.2345' })).toBe(m.taxRateInvalid);
    expect(refusal({ tax_label: '' })).toBe(m.taxLabelInvalid);
    expect(refusal({ terms_days: 366 })).toBe(m.termsInvalid);
    expect(refusal({ terms_days: 1.5 })).toBe(m.termsInvalid);
    expect(refusal({ number_prefix: 'ACME/' })).toBe(m.prefixInvalid);
    expect(refusal({ note: 'x'.repeat(1001) })).toBe(m.noteTooLong);
  });
});

describe('payments and reasons', () => {
  it('takes an exact amount, a day, a method and a reference', () => {
    expect(paymentInputSchema.parse({ amount: 12.5, paid_on: '2026-12-01', method: 'card' })).toEqual({
      amount: '12.50',
      paid_on: '2026-12-01',
      method: 'card',
      reference: '',
    });
    expect(paymentInputSchema.safeParse({ amount: '1', paid_on: '2026-13-01', method: 'card' }).error?.issues[0]?.message).toBe(
      m.paymentDateInvalid,
    );
    expect(paymentInputSchema.safeParse({ amount: '1', paid_on: '2026-12-01', method: 'barter' }).success).toBe(false);
  });
  it('wants a reason of one line', () => {
    expect(reasonInputSchema.safeParse({ reason: ' ' }).error?.issues[0]?.message).toBe(m.reasonRequired);
    expect(reasonInputSchema.parse({ reason: ' Paid twice ' })).toEqual({ reason: 'Paid twice' });
  });
  it('pages lists from 1 and at most 100 a page', () => {
    expect(invoiceListQuerySchema.parse({})).toEqual({ side: 'issued', page: 1, page_size: 25 });
    expect(invoiceListQuerySchema.safeParse({ page_size: 101 }).success).toBe(false);
    expect(invoiceListQuerySchema.safeParse({ period: '2026-13' }).success).toBe(false);
  });
});

describe('statements', () => {
  it('names a month and takes a code of 64 hexadecimal characters in either case', () => {
    expect(
      statementParamsSchema.safeParse({ id: '00000000-0000-4000-8000-000000000000', month: '2026-00' }).error?.issues[0]?.message,
    ).toBe(m.monthInvalid);
    expect(verifyStatementQuerySchema.parse({ code: 'AB'.repeat(32) })).toEqual({ code: 'ab'.repeat(32) });
    expect(verifyStatementQuerySchema.safeParse({ code: 'ab'.repeat(31) }).error?.issues[0]?.message).toBe(m.codeInvalid);
  });
});

describe('activity sentences', () => {
  const facts = (details: Record<string, unknown>) => ({ who: 'Ann', org: 'Acme', target: 'Clinic', details });
  it('says what each invoice action did', () => {
    expect(
      invoiceSentence('invoices.details_set', facts({ credit_price: '0.0100', currency: 'EUR', tax_rate: '20.000', terms_days: 30 })),
    ).toBe('Ann set the billing details of Acme: 0.0100 EUR a credit, tax 20.000 %, 30 days to pay');
    expect(invoiceSentence('invoices.issue', facts({ number: 'A-000001', total: '12.00', currency: 'EUR', kind: 'invoice' }))).toBe(
      'Ann issued invoice A-000001 to Clinic for 12.00 EUR',
    );
    expect(invoiceSentence('invoices.issue', facts({ number: 'A-000002', total: '-2.00', currency: 'EUR', kind: 'credit_note' }))).toBe(
      'Ann issued credit note A-000002 to Clinic for -2.00 EUR',
    );
    expect(invoiceSentence('invoices.payment_record', facts({ number: 'A-000001', amount: '5.00', currency: 'EUR' }))).toBe(
      'Ann recorded a payment of 5.00 EUR from Clinic on invoice A-000001',
    );
    expect(
      invoiceSentence('invoices.payment_reverse', facts({ number: 'A-000001', amount: '5.00', currency: 'EUR', reason: 'bounced' })),
    ).toBe('Ann reversed a payment of 5.00 EUR on invoice A-000001: bounced');
    expect(invoiceSentence('invoices.void', facts({ number: 'A-000001', reason: 'mistake' }))).toBe(
      'Ann voided invoice A-000001 of Clinic: mistake',
    );
    expect(invoiceSentence('credits.allocate', facts({}))).toBeNull();
  });
  it('is what the activity log says for every invoice action', () => {
    for (const action of INVOICE_ACTIONS) {
      const details = { number: 'A-1', amount: '1.00', currency: 'EUR' };
      expect(activitySentence({ action, actor: 'Ann', organization: 'Acme', target: 'Clinic', details })).toBe(
        invoiceSentence(action, { who: 'Ann', org: 'Acme', target: 'Clinic', details }),
      );
    }
  });
});
