import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type InvoiceDetail, type InvoiceLine, invoiceDetailSchema, type Statement, statementSchema } from '@console/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDecimal, formatPercent, groupCode, printable } from './format.ts';
import { renderInvoicePdf } from './invoice-pdf.ts';
import { renderStatementPdf } from './statement-pdf.ts';

// The PDFs' text is read back with poppler's pdftotext, as a person copying from them would.
// PDF_TEST_OUT=<folder> keeps the files (and page-1 PNGs) there to look at them.
let dir = '';
beforeAll(() => {
  try {
    execFileSync('pdftotext', ['-v'], { stdio: 'ignore' });
  } catch {
    throw new Error('These tests read the PDFs with pdftotext: apt-get install -y poppler-utils');
  }
  dir = process.env.PDF_TEST_OUT ?? mkdtempSync(join(tmpdir(), 'pdf-test-'));
  mkdirSync(dir, { recursive: true });
});
afterAll(() => {
  if (!process.env.PDF_TEST_OUT && dir) rmSync(dir, { recursive: true, force: true });
});

function write(name: string, bytes: Buffer): string {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, bytes);
  return file;
}
const textOf = (file: string) => execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
const pagesOf = (file: string) => Number(/^Pages:\s+(\d+)/m.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))?.[1]);
const infoOf = (file: string) => execFileSync('pdfinfo', [file], { encoding: 'utf8' });

const code = (seed: string) => createHash('sha256').update(seed).digest('hex');
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function line(
  n: number,
  day: string,
  description: string,
  credits: string,
  amount: string,
  kind: InvoiceLine['kind'] = 'allocation',
): InvoiceLine {
  return {
    entry_id: uuid(1000 + n),
    occurred_at: `${day}T10:${String(n % 60).padStart(2, '0')}:00.000Z`,
    kind,
    description,
    credits,
    unit_price: '0.5000',
    amount,
    reference: uuid(5000 + n),
  };
}

function sampleInvoice(overrides: Partial<InvoiceDetail> = {}): InvoiceDetail {
  return invoiceDetailSchema.parse({
    id: uuid(1),
    kind: 'invoice',
    number: 'ACME-000042',
    seller: { id: uuid(2), name: 'Acme' },
    buyer: { id: uuid(3), name: 'Bright Smile' },
    period: '2025-03',
    issued_at: '2025-04-01T00:05:00.000Z',
    due_on: '2025-05-01',
    currency: 'EUR',
    subtotal: '1359.50',
    tax: '271.90',
    total: '1631.40',
    paid: '1000.00',
    outstanding: '631.40',
    state: 'partially_paid',
    seller_details: {
      id: uuid(2),
      name: 'Acme',
      legal_name: 'Acme Reseller Holdings GmbH',
      address: 'Friedrichstraße 123\n10117 Berlin\nGermany',
      tax_id: 'DE123456789',
    },
    buyer_details: {
      id: uuid(3),
      name: 'Bright Smile',
      legal_name: 'Bright Smile Dental Clinic Ltd',
      address: '12 Harley Street\nLondon W1G 9PF\nUnited Kingdom',
      tax_id: 'GB987654321',
    },
    credit_price: '0.5000',
    tax_rate: '20.000',
    tax_label: 'VAT',
    terms_days: 30,
    note: 'Please pay by bank transfer to IBAN DE89 3704 0044 0532 0130 00, quoting the invoice number. Thank you for your business.',
    lines: [
      line(1, '2025-03-03', 'Credits allocated by Jane Doe', '1000.00', '500.00'),
      line(2, '2025-03-10', 'Automatic top-up', '500.00', '250.00', 'top_up'),
      line(3, '2025-03-15', 'Credits allocated by Jane Doe: spring campaign for the new clinic in Camden, as agreed', '1469.00', '734.50'),
      line(4, '2025-03-20', 'Reversal of credits allocated on 2025-03-10', '-500.00', '-250.00', 'reversal'),
      line(5, '2025-03-28', 'Credits allocated by Jane Doe', '250.00', '125.00'),
    ],
    payments: [
      {
        id: uuid(10),
        amount: '1000.00',
        paid_on: '2025-04-10',
        method: 'bank_transfer',
        reference: 'SEPA 2025-04-10 BRIGHT',
        recorded_at: '2025-04-10T09:00:00.000Z',
        recorded_by: 'Jane Doe',
        reversed_at: null,
        reverse_reason: null,
      },
      {
        id: uuid(11),
        amount: '50.00',
        paid_on: '2025-04-09',
        method: 'card',
        reference: 'recorded twice',
        recorded_at: '2025-04-09T09:00:00.000Z',
        recorded_by: 'Jane Doe',
        reversed_at: '2025-04-09T10:00:00.000Z',
        reverse_reason: 'Duplicate',
      },
    ],
    verification_code: code('bright-smile-2025-03'),
    voided_at: null,
    void_reason: null,
    can_manage: false,
    ...overrides,
  });
}

function longInvoice(): InvoiceDetail {
  const lines = Array.from({ length: 300 }, (_, index) => {
    const day = `2025-03-${String((index % 28) + 1).padStart(2, '0')}`;
    const description =
      index % 25 === 7
        ? `Credits allocated by Jane Doe: ${'a long note that must wrap inside its cell '.repeat(3)}`
        : 'Credits allocated by Jane Doe';
    return line(index + 1, day, description, '10.00', '5.00');
  });
  return sampleInvoice({
    number: 'ACME-000043',
    subtotal: '1500.00',
    tax: '0.00',
    total: '1500.00',
    paid: '0.00',
    outstanding: '1500.00',
    state: 'open',
    tax_rate: '0.000',
    tax_label: 'VAT',
    note: null,
    lines,
    payments: [],
  });
}

function sampleStatement(overrides: Partial<Statement> = {}): Statement {
  return statementSchema.parse({
    organization: { id: uuid(3), name: 'Bright Smile', org_type: 'tenant' },
    month: '2025-03',
    period_start: '2025-03-01T00:00:00.000Z',
    period_end: '2025-04-01T00:00:00.000Z',
    partial: false,
    opening_balance: '2000.00',
    closing_balance: '1234567.50',
    credits_in: '1234027.50',
    credits_out: '1460.00',
    groups: [
      {
        kind: 'allocation_received',
        counterparty: { id: uuid(2), name: 'Acme' },
        agent: null,
        units: null,
        unit_price: null,
        entries: 3,
        amount: '1233507.50',
      },
      {
        kind: 'top_up_received',
        counterparty: { id: uuid(2), name: 'Acme' },
        agent: null,
        units: null,
        unit_price: null,
        entries: 1,
        amount: '500.00',
      },
      {
        kind: 'consumption',
        counterparty: null,
        agent: { id: uuid(20), name: 'Receptionist voice agent' },
        units: '15000',
        unit_price: '0.080000',
        entries: 812,
        amount: '-1200.00',
      },
      {
        kind: 'refund',
        counterparty: null,
        agent: { id: uuid(20), name: 'Receptionist voice agent' },
        units: '250',
        unit_price: '0.080000',
        entries: 2,
        amount: '20.00',
      },
      {
        kind: 'reversal_sent',
        counterparty: { id: uuid(2), name: 'Acme' },
        agent: null,
        units: null,
        unit_price: null,
        entries: 1,
        amount: '-250.00',
      },
      { kind: 'adjustment_decrease', counterparty: null, agent: null, units: null, unit_price: null, entries: 1, amount: '-10.00' },
    ],
    entries: 820,
    verification_code: code('bright-smile-ledger-2025-03'),
    closes: true,
    ...overrides,
  });
}

describe('invoice PDF', () => {
  it('prints the number, both parties, the lines, every total with its currency, the tax, the due date, the note and the verification code', async () => {
    const invoice = sampleInvoice();
    const file = write('invoice', await renderInvoicePdf(invoice));
    const text = textOf(file);

    const printed = ['ACME-000042', 'Acme Reseller Holdings GmbH', 'Bright Smile Dental Clinic Ltd', 'Friedrichstraße 123', 'DE123456789'];
    for (const part of printed) expect(text).toContain(part);
    expect(text).toMatch(/FROM\s+BILL TO/);
    expect(text).toMatch(/^Invoice\s+Invoice number\s*$/m);
    expect(text).toMatch(/Due date\s+2025-05-01 \(30 days\)/);
    expect(text).toMatch(/Period\s+March 2025/);
    expect(text).toMatch(/State\s+Partially paid/);
    // Each total beside its label, exactly, with the currency.
    expect(text).toMatch(/Subtotal\s+1,359\.50 EUR\n/);
    expect(text).toMatch(/VAT 20 %\s+271\.90 EUR\n/);
    expect(text).toMatch(/Total\s+1,631\.40 EUR\n/);
    expect(text).toMatch(/Paid\s+1,000\.00 EUR\n/);
    expect(text).toMatch(/Outstanding\s+631\.40 EUR\n/);
    expect(text).toMatch(/2025-03-15\s+Credits allocated by Jane Doe: spring campaign\s+1,469\.00\s+0\.5000\s+734\.50\n/);
    expect(text).toMatch(/2025-03-20\s+Reversal of credits allocated on 2025-03-10\s+-500\.00\s+0\.5000\s+-250\.00\n/);
    expect(text).toContain('SEPA 2025-04-10 BRIGHT');
    // A reversed payment is not among the payments received.
    expect(text).not.toContain('recorded twice');
    expect(text).toContain('IBAN DE89 3704 0044 0532 0130 00');
    expect(text).toContain('Statement verification code');
    expect(text).toContain(groupCode(invoice.verification_code!));
    expect(text.replace(/\s+/g, '')).toContain(invoice.verification_code);
    expect(text).toContain('Page 1 of 1');

    const info = infoOf(file);
    expect(info).toMatch(/^Title:\s+Invoice ACME-000042$/m);
    expect(info).toMatch(/^Author:\s+Acme Reseller Holdings GmbH$/m);
    expect(info).toMatch(/^CreationDate:.*2025/m);
  });

  it('renders the same invoice to the same bytes', async () => {
    const first = await renderInvoicePdf(sampleInvoice());
    const second = await renderInvoicePdf(sampleInvoice());
    expect(first.subarray(0, 5).toString()).toBe('%PDF-');
    expect(first.equals(second)).toBe(true);
    // … and a different invoice to different ones.
    expect(first.equals(await renderInvoicePdf(sampleInvoice({ number: 'ACME-000044' })))).toBe(false);
  });

  it('runs 300 lines over several pages, each with the table header and "Page N of M"', async () => {
    const invoice = longInvoice();
    const file = write('invoice-long', await renderInvoicePdf(invoice));
    const text = textOf(file);
    const pages = pagesOf(file);

    expect(pages).toBeGreaterThan(1);
    expect(text).toContain(`Page 1 of ${pages}`);
    expect(text).toContain(`Page ${pages} of ${pages}`);
    // pdftotext ends each page with a form feed.
    const pageTexts = text.split('\f').filter((page) => page.trim());
    expect(pageTexts).toHaveLength(pages);
    for (const page of pageTexts) {
      expect(page).toMatch(/Date\s+Description\s+Credits\s+Unit price \(EUR\)\s+Amount \(EUR\)/);
      expect(page).toContain(groupCode(invoice.verification_code!));
    }
    expect(text.match(/Credits allocated by Jane Doe/g)).toHaveLength(300);
    expect(text).toContain('ACME-000043');
    expect(text).toContain('Acme Reseller Holdings GmbH');
    expect(text).toContain('Bright Smile Dental Clinic Ltd');
    expect(text).toContain('VAT 0 %');
    expect(text).toContain('1,500.00 EUR');
    expect(text).toContain('2025-05-01');
  });

  it('wraps a long legal name and prints a credit note and a void one', async () => {
    const legalName =
      'The Very Long Named International Association of Independent Dental Practices and Orthodontic Clinics of Greater Łódź Sp. z o.o.';
    const invoice = sampleInvoice({
      kind: 'credit_note',
      number: '000007',
      subtotal: '-125.00',
      tax: '-25.00',
      total: '-150.00',
      paid: '0.00',
      outstanding: '0.00',
      state: 'void',
      voided_at: '2025-04-03T12:00:00.000Z',
      void_reason: 'Issued by mistake',
      lines: [line(1, '2025-03-20', 'Reversal of credits allocated on 2025-02-10', '-250.00', '-125.00', 'reversal')],
      payments: [],
      buyer_details: { ...sampleInvoice().buyer_details, legal_name: legalName },
    });
    const file = write('credit-note', await renderInvoicePdf(invoice));
    const text = textOf(file);
    expect(text).toContain('Credit note');
    expect(text).toContain('-150.00 EUR');
    expect(text).toContain('Voided on 2025-04-03: Issued by mistake. It credits nothing.');
    // Each word is there, the name wrapped over lines in its column; "Ł" has no glyph in the standard fonts.
    for (const word of printable(legalName).split(' ')) expect(text).toContain(word);
    expect(text).toContain('Lódz');
    expect(text).not.toContain('Outstanding');
  });
});

describe('statement PDF', () => {
  it('prints the balances, every group with its counterparty or agent, units and price, and the verification code', async () => {
    const statement = sampleStatement();
    const file = write('statement', await renderStatementPdf(statement));
    const text = textOf(file);

    expect(text).toContain('Monthly statement');
    expect(text).toContain('Bright Smile');
    expect(text).toContain('March 2025');
    expect(text).toContain('2025-03-01 – 2025-03-31');
    expect(text).toContain('2,000.00');
    expect(text).toContain('1,234,027.50');
    expect(text).toContain('1,460.00');
    expect(text).toContain('1,234,567.50');
    expect(text).toMatch(/Allocations received\s+Acme\s+3\s+1,233,507.50/);
    expect(text).toMatch(/Consumption\s+Receptionist voice agent\s+15,000\s+0.080000\s+812\s+-1,200.00/);
    expect(text).toMatch(/Refunds\s+Receptionist voice agent\s+250\s+0.080000\s+2\s+20.00/);
    expect(text).toMatch(/Automatic top-ups received\s+Acme\s+1\s+500.00/);
    expect(text).toMatch(/Reversals given back\s+Acme\s+1\s+-250.00/);
    expect(text).toMatch(/Adjustments \(decrease\)\s+1\s+-10.00/);
    expect(text).toMatch(/Net change\s+820\s+1,232,567.50/);
    expect(text).toContain(groupCode(statement.verification_code!));
    expect(text).not.toContain('Partial statement');
    expect(text).toContain('Page 1 of 1');

    const again = await renderStatementPdf(statement);
    expect(again.equals(readFileSync(file))).toBe(true);
  });

  it('says when the month is not over', async () => {
    const file = write(
      'statement-partial',
      await renderStatementPdf(sampleStatement({ partial: true, verification_code: null, groups: [] }), {
        generatedAt: new Date('2025-03-15T12:00:00Z'),
      }),
    );
    const text = textOf(file);
    expect(text).toContain('Partial statement: March 2025 is not over');
    expect(text).toContain('No movements this month.');
    expect(text).toContain('Statement verification code: none');
  });
});

describe('PDF formats', () => {
  it('groups thousands and keeps every decimal', () => {
    expect(formatDecimal('1234.50')).toBe('1,234.50');
    expect(formatDecimal('-1234567.5')).toBe('-1,234,567.50');
    expect(formatDecimal('0.00')).toBe('0.00');
    expect(formatDecimal('-0.00')).toBe('0.00');
    expect(formatDecimal('0.0125', 4)).toBe('0.0125');
    expect(formatDecimal('15000', 0)).toBe('15,000');
    expect(formatPercent('20.000')).toBe('20 %');
    expect(formatPercent('5.500')).toBe('5.5 %');
    expect(formatPercent('0.000')).toBe('0 %');
  });

  it('keeps what the standard fonts can draw and replaces the rest', () => {
    expect(printable('Café “Zoë” – 10 €')).toBe('Café “Zoë” – 10 €');
    expect(printable('Łódź Kraków')).toBe('Lódz Kraków');
    expect(printable('a\u00a0b\u202fc')).toBe('a\u00a0b c');
    expect(printable('東京 🦷')).toBe('?? ?');
    expect(printable('line\r\nnext\u0007')).toBe('line\nnext?');
  });
});
