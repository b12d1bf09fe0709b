import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../../test/harness.ts';
import { dayFromToday, insertBillingDetails, insertInvoice, insertPayment } from './test-invoices.ts';

/**
 * Receivables by child and age, and the organization list's `overdue_invoices` filter. Old
 * invoices are written straight with their dates (an issued invoice's dates never change).
 */
const w = useWorld();
const db = () => w.t.database.db;
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);

const receivables = async (who: string, orgKey: 'A1' | 'SA1' | 'T1') =>
  w.t.request('GET', `/api/organizations/${w.id(orgKey)}/receivables`, undefined, { token: await w.as(who) });

beforeAll(async () => {
  await insertBillingDetails(db(), w.id('A1'), 'EUR');
  const A1 = w.id('A1');
  // Tenant One: 100.00 of 10 days ago (not yet due), 70.00 left of 100.00 of 45 days ago (overdue),
  // 50.00 of 90 days ago (overdue).
  await insertInvoice(db(), { seller: A1, buyer: w.id('T1'), total: '100.00', issuedAt: daysAgo(10), currency: 'EUR' });
  const partly = await insertInvoice(db(), { seller: A1, buyer: w.id('T1'), total: '100.00', issuedAt: daysAgo(45), currency: 'EUR' });
  await insertPayment(db(), { invoiceId: partly.id, amount: '30.00', paidOn: dayFromToday(-5) });
  await insertPayment(db(), { invoiceId: partly.id, amount: '50.00', paidOn: dayFromToday(-5), reversedReason: 'bounced' });
  await insertInvoice(db(), { seller: A1, buyer: w.id('T1'), total: '50.00', issuedAt: daysAgo(90), currency: 'EUR' });
  // Tenant Two: 0.01 of 31 days ago, due today (not overdue yet); the rest owes nothing.
  await insertInvoice(db(), {
    seller: A1,
    buyer: w.id('T2'),
    total: '0.01',
    issuedAt: daysAgo(31),
    dueOn: dayFromToday(0),
    currency: 'EUR',
  });
  const paid = await insertInvoice(db(), { seller: A1, buyer: w.id('T2'), total: '40.00', issuedAt: daysAgo(70), currency: 'EUR' });
  await insertPayment(db(), { invoiceId: paid.id, amount: '40.00', paidOn: dayFromToday(-60) });
  await insertInvoice(db(), { seller: A1, buyer: w.id('T2'), total: '-5.00', kind: 'credit_note', issuedAt: daysAgo(3), currency: 'EUR' });
  const voided = await insertInvoice(db(), { seller: A1, buyer: w.id('T2'), total: '9.00', issuedAt: daysAgo(80), currency: 'EUR' });
  await db().updateTable('invoices').set({ voided_at: new Date(), void_reason: 'mistake' }).where('id', '=', voided.id).execute();
  // Super One bills Agency One: overdue, but Agency One's receivables do not hold it.
  await insertInvoice(db(), { seller: w.id('SA1'), buyer: A1, total: '7.00', issuedAt: daysAgo(40) });
});

describe('receivables', () => {
  it('the seller sees what each child owes by age, the overdue count, and the totals, in its currency', async () => {
    const response = await receivables('A1.admin', 'A1');
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toEqual({
      currency: 'EUR',
      children: [
        {
          organization: { id: w.id('T1'), name: 'Tenant One' },
          days_0_30: '100.00',
          days_31_60: '70.00',
          days_61_plus: '50.00',
          total: '220.00',
          overdue: 2,
        },
        {
          organization: { id: w.id('T2'), name: 'Tenant Two' },
          days_0_30: '0.00',
          days_31_60: '0.01',
          days_61_plus: '0.00',
          total: '0.01',
          overdue: 0,
        },
      ],
      totals: { days_0_30: '100.00', days_31_60: '70.01', days_61_plus: '50.00', total: '220.01', overdue: 2 },
    });
    // Any of the seller's people with billing.view reads them.
    expect((await receivables('A1.manager', 'A1')).status).toBe(200);
  });

  it('a seller without billing details has no currency; nothing owed lists no child', async () => {
    const response = await receivables('T1.admin', 'T1');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      currency: null,
      children: [],
      totals: { days_0_30: '0.00', days_31_60: '0.00', days_61_plus: '0.00', total: '0.00', overdue: 0 },
    });
  });

  it.each([
    ['SA1.admin', 'A1'],
    ['H.admin', 'A1'],
    ['T1.admin', 'A1'],
    ['A1.admin', 'SA1'],
  ] as const)("%s reading %s's receivables: 404", async (who, org) => {
    expect((await receivables(who, org)).status).toBe(404);
  });
});

describe('the organization list filter overdue_invoices', () => {
  const listed = async (who: string, query: string) => {
    const response = await w.t.request('GET', `/api/organizations?${query}`, undefined, { token: await w.as(who) });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return (response.body.organizations as { id: string }[]).map((org) => org.id);
  };

  it("flags the children with an overdue invoice of the caller's own organization only", async () => {
    expect(await listed('A1.admin', 'attention=overdue_invoices')).toEqual([w.id('T1')]);
    expect(await listed('A1.admin', 'attention=overdue_invoices&view=descendants')).toEqual([w.id('T1')]);
    // Super One sees Agency One (its own overdue invoice), never the invoices Agency One issued.
    expect(await listed('SA1.admin', 'attention=overdue_invoices&view=descendants')).toEqual([w.id('A1')]);
    expect(await listed('SA1.admin', `attention=overdue_invoices&organization_id=${w.id('A1')}`)).toEqual([]);
    expect(await listed('H.admin', 'attention=overdue_invoices&view=descendants')).toEqual([]);
  });
});
