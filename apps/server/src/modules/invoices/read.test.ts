import { beforeAll, describe, expect, it } from 'vitest';
import { invoiceState } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { PASSWORD, insertUser } from '../../test/fixtures.ts';
import { fund } from '../../test/usage-rows.ts';
import { DETAILS, invoiceKit } from './invoice-test-kit.ts';

/**
 * An invoice is read by the seller's people and the billed child's people only: the seller's
 * own parent, the house and a sibling of the buyer get 404, as for one that does not exist.
 */
const w = useWorld();
const k = invoiceKit(w);
const db = () => w.t.database.db;
let toT1: string;
let toA1: string;

beforeAll(async () => {
  await insertUser(db(), { email: 'admin@t2.test', password: PASSWORD, role: 'tenant_admin', organizationId: w.id('T2') });
  await fund(db(), w.id('A1'), '10000.00');
  await fund(db(), w.id('SA1'), '10000.00');
  expect((await k.setDetails('A1.admin', 'A1')).status).toBe(200);
  expect((await k.setDetails('SA1.admin', 'SA1', { ...DETAILS, number_prefix: 'SA-' })).status).toBe(200);
  await k.allocate('A1.admin', 'A1', 'T1', '100');
  await k.allocate('A1.admin', 'A1', 'T2', '200');
  await k.allocate('SA1.admin', 'SA1', 'A1', '300');
  toT1 = (await k.issue('A1.admin', 'A1', 'T1')).body.invoices[0].id;
  await k.issue('A1.admin', 'A1', 'T2');
  toA1 = (await k.issue('SA1.admin', 'SA1', 'A1')).body.invoices[0].id;
});

describe('who reads an invoice', () => {
  it('the seller’s people and the buyer’s people; only the seller’s admins manage it', async () => {
    for (const [who, manages] of [
      ['A1.admin', true],
      ['A1.user', false],
      ['A1.support', false],
      ['T1.admin', false],
      ['T1.user', false],
    ] as const) {
      const res = await k.get(who, toT1);
      expect(res.status, who).toBe(200);
      expect(res.body.can_manage, who).toBe(manages);
    }
    // The seller's parent reads it as the buyer, not as the parent of its seller.
    expect((await k.get('SA1.admin', toA1)).body.can_manage).toBe(true);
    expect((await k.get('A1.admin', toA1)).body.can_manage).toBe(false);
  });

  it('nobody else: above the seller, a sibling of the buyer, another tree, or an unknown id (404)', async () => {
    for (const who of ['SA1.admin', 'SA1.support', 'H.admin', 'admin@t2.test'] as const) {
      const res = await k.get(who, toT1);
      expect(res.status, who).toBe(404);
      expect((await k.as(who, 'GET', `/api/invoices/${toT1}/pdf`)).status, who).toBe(404);
    }
    expect((await k.get('H.admin', toA1)).status).toBe(404);
    expect((await k.get('T1.admin', toA1)).status).toBe(404);
    expect((await k.get('A1.admin', '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await k.get('A1.admin', 'not-an-id')).status).toBe(400);
  });
});

describe('lists', () => {
  it('issued: the seller’s documents, newest first, filtered and paged', async () => {
    const all = await k.list('A1.user', 'A1');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 2, page: 1, page_size: 25, total_pages: 1, can_manage: false });
    expect(all.body.invoices.map((i: { number: string }) => i.number)).toEqual(['AG1-000002', 'AG1-000001']);
    expect((await k.list('A1.admin', 'A1')).body.can_manage).toBe(true);
    const one = await k.list('A1.admin', 'A1', `?buyer_id=${w.id('T2')}`);
    expect(one.body.invoices.map((i: { buyer: { id: string } }) => i.buyer.id)).toEqual([w.id('T2')]);
    const paged = await k.list('A1.admin', 'A1', '?page=2&page_size=1');
    expect(paged.body).toMatchObject({ total: 2, total_pages: 2, invoices: [expect.objectContaining({ number: 'AG1-000001' })] });
    const month = new Date().toISOString().slice(0, 7);
    expect((await k.list('A1.admin', 'A1', `?period=${month}`)).body.total).toBe(2);
    expect((await k.list('A1.admin', 'A1', '?period=2000-01')).body.total).toBe(0);
    expect((await k.list('A1.admin', 'A1', '?state=open')).body.total).toBe(2);
    expect((await k.list('A1.admin', 'A1', '?state=paid')).body.total).toBe(0);
    expect((await k.list('A1.admin', 'A1', '?period=2000-13')).status).toBe(400);
  });

  it('each state listed is the domain’s state of the invoice today', async () => {
    const today = new Date().toISOString().slice(0, 10);
    for (const invoice of (await k.list('A1.admin', 'A1')).body.invoices) {
      expect(invoice.state).toBe(invoiceState({ ...invoice, voided: false, today }));
    }
  });

  it('received: what was billed to the organization, read by its own people', async () => {
    const mine = await k.list('T1.user', 'T1', '?side=received');
    expect(mine.body.invoices.map((i: { id: string }) => i.id)).toEqual([toT1]);
    expect(mine.body.can_manage).toBe(false);
    expect((await k.list('A1.admin', 'A1', '?side=received')).body.invoices.map((i: { id: string }) => i.id)).toEqual([toA1]);
    // Lists are the organization's own books: nobody above it reads them (single invoices, its seller does).
    expect((await k.list('A1.admin', 'T1', '?side=received')).status).toBe(404);
    expect((await k.list('SA1.admin', 'A1')).status).toBe(404);
    expect((await k.list('SA1.admin', 'T1', '?side=received')).status).toBe(404);
    expect((await k.list('admin@t2.test', 'T1', '?side=received')).status).toBe(404);
    expect((await k.list('T1.admin', 'T1')).body.total).toBe(0);
  });
});

describe('the PDF', () => {
  it('is the invoice rendered, named by its number', async () => {
    const res = await fetch(`${w.t.baseUrl}/api/invoices/${toT1}/pdf`, { headers: { authorization: `Bearer ${await w.as('T1.admin')}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('inline; filename="AG1-000001.pdf"');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
