import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../../test/harness.ts';
import { parseCsv } from '../../test/csv.ts';
import { INVOICE_EXPORT_COLUMNS, PAYMENT_EXPORT_COLUMNS } from './exports.ts';
import { insertInvoice, insertPayment } from './test-invoices.ts';

/**
 * The accounting exports of a month: the documented columns in their order, the month's
 * documents only (UTC), and names that start like formulas reaching the file as text.
 */
const w = useWorld();
const db = () => w.t.database.db;
const HOSTILE = '=HYPERLINK("http://evil.test","x")';

let march: { id: string; number: string };
let credit: { id: string; number: string };
let paymentIds: string[];

beforeAll(async () => {
  const A1 = w.id('A1');
  await insertInvoice(db(), { seller: A1, buyer: w.id('T2'), total: '1.00', issuedAt: new Date('2025-02-28T23:59:59.999Z') });
  march = await insertInvoice(db(), {
    seller: A1,
    buyer: w.id('T1'),
    total: '120.00',
    issuedAt: new Date('2025-03-01T00:00:00.000Z'),
    dueOn: '2025-03-31',
    buyerName: HOSTILE,
  });
  credit = await insertInvoice(db(), {
    seller: A1,
    buyer: w.id('T2'),
    total: '-20.00',
    kind: 'credit_note',
    issuedAt: new Date('2025-03-31T23:59:59.000Z'),
    dueOn: '2025-03-31',
  });
  await insertInvoice(db(), { seller: A1, buyer: w.id('T2'), total: '2.00', issuedAt: new Date('2025-04-01T00:00:00.000Z') });
  // Another seller's invoice of the same month.
  await insertInvoice(db(), { seller: w.id('SA1'), buyer: A1, total: '3.00', issuedAt: new Date('2025-03-10T00:00:00.000Z') });
  paymentIds = [
    await insertPayment(db(), { invoiceId: march.id, amount: '20.00', paidOn: '2025-03-05', reference: '-wire 42' }),
    await insertPayment(db(), { invoiceId: march.id, amount: '30.00', paidOn: '2025-03-31', reversedReason: 'bounced' }),
  ];
  await insertPayment(db(), { invoiceId: march.id, amount: '1.00', paidOn: '2025-04-01' });
});

const exported = async (who: string, what: 'invoices' | 'payments', month = '2025-03', org = w.id('A1')) =>
  w.t.request('GET', `/api/organizations/${org}/${what}/export?month=${month}`, undefined, { token: await w.as(who) });

describe('invoice export', () => {
  it("lists the month's invoices and credit notes by number, with the documented columns", async () => {
    const response = await exported('A1.admin', 'invoices');
    expect(response.status, String(response.body)).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="invoices-2025-03-\d{4}-\d\d-\d\d\.csv"$/);
    const [header, ...rows] = parseCsv(response.body as string);
    expect(header).toEqual([...INVOICE_EXPORT_COLUMNS]);
    expect(header).toEqual([
      'number',
      'kind',
      'issued_at',
      'period',
      'buyer_id',
      'buyer_name',
      'currency',
      'subtotal',
      'tax',
      'total',
      'paid',
      'outstanding',
      'state',
      'due_on',
      'voided_at',
    ]);
    expect(rows).toEqual([
      [
        march.number,
        'invoice',
        '2025-03-01T00:00:00.000Z',
        '2025-03',
        w.id('T1'),
        `'${HOSTILE}`,
        'USD',
        '120.00',
        '0.00',
        '120.00',
        // As of the export: the April payment counts too, the reversed one does not.
        '21.00',
        '99.00',
        'overdue',
        '2025-03-31',
        '',
      ],
      [
        credit.number,
        'credit_note',
        '2025-03-31T23:59:59.000Z',
        '2025-03',
        w.id('T2'),
        'Tenant Two',
        'USD',
        '-20.00',
        '0.00',
        '-20.00',
        '0.00',
        '0.00',
        'credit',
        '2025-03-31',
        '',
      ],
    ]);
  });

  it('an empty month is the header alone', async () => {
    const response = await exported('A1.admin', 'invoices', '2024-01');
    expect(response.status).toBe(200);
    expect(parseCsv(response.body as string)).toEqual([[...INVOICE_EXPORT_COLUMNS]]);
  });
});

describe('payment export', () => {
  it('lists the payments dated in the month, reversed ones with when and why', async () => {
    const response = await exported('A1.admin', 'payments');
    expect(response.status, String(response.body)).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/filename="payments-2025-03-/);
    const [header = [], ...rows] = parseCsv(response.body as string);
    expect(header).toEqual([...PAYMENT_EXPORT_COLUMNS]);
    expect(header).toEqual([
      'payment_id',
      'invoice_number',
      'buyer_id',
      'buyer_name',
      'paid_on',
      'amount',
      'currency',
      'method',
      'reference',
      'recorded_at',
      'reversed_at',
      'reverse_reason',
    ]);
    expect(rows.map((row) => row.filter((_cell, i) => header[i] !== 'recorded_at' && header[i] !== 'reversed_at'))).toEqual([
      [paymentIds[0], march.number, w.id('T1'), `'${HOSTILE}`, '2025-03-05', '20.00', 'USD', 'bank_transfer', "'-wire 42", ''],
      [paymentIds[1], march.number, w.id('T1'), `'${HOSTILE}`, '2025-03-31', '30.00', 'USD', 'bank_transfer', '', 'bounced'],
    ]);
    const at = (row: string[], column: string) => row[header.indexOf(column)]!;
    expect(at(rows[0]!, 'recorded_at')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(at(rows[0]!, 'reversed_at')).toBe('');
    expect(at(rows[1]!, 'reversed_at')).toMatch(/^\d{4}-\d\d-\d\dT/);
  });
});

describe('who may export', () => {
  it.each([
    ['SA1.admin', 404],
    ['H.admin', 404],
    ['T1.admin', 403],
    ['A1.manager', 403],
  ] as const)("%s exporting Agency One's books: %i", async (who, status) => {
    expect((await exported(who, 'invoices')).status).toBe(status);
    expect((await exported(who, 'payments')).status).toBe(status);
  });

  it('a month that is not YYYY-MM is 400', async () => {
    expect((await exported('A1.admin', 'invoices', '2025-13')).status).toBe(400);
  });
});
