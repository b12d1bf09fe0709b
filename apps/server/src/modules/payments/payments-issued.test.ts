import { describe, expect, it } from 'vitest';
import { useWorld } from '../../test/harness.ts';
import { dayFromToday } from './test-invoices.ts';

/**
 * The whole way through HTTP: credits moved down to a tenant, its agency issues the invoice at
 * once, records a partial and then a full payment, and the tenant's admin reads it paid; the
 * receivables and the export follow.
 */
const w = useWorld();

describe('an invoice issued through the API', () => {
  it('is paid in two payments, and the billed child sees it paid', async () => {
    const call = async (who: string, method: string, path: string, body?: unknown) => {
      const response = await w.t.request(method, path, body, { token: await w.as(who) });
      expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300);
      return response.body;
    };
    await call('H.admin', 'POST', '/api/credits/adjustments', { direction: 'increase', amount: '10000', reason: 'payments test' });
    await call('H.admin', 'POST', '/api/credits/allocations', { from_org_id: w.id('H'), to_org_id: w.id('SA1'), amount: '5000' });
    await call('SA1.admin', 'POST', '/api/credits/allocations', { from_org_id: w.id('SA1'), to_org_id: w.id('A1'), amount: '4000' });
    await call('A1.admin', 'POST', '/api/credits/allocations', { from_org_id: w.id('A1'), to_org_id: w.id('T1'), amount: '1000' });
    await call('A1.admin', 'PUT', `/api/organizations/${w.id('A1')}/billing-details`, {
      legal_name: 'Agency One Ltd',
      address: '1 Main Street',
      currency: 'EUR',
      credit_price: '0.05',
      tax_rate: '20',
      tax_label: 'VAT',
      terms_days: 30,
    });
    const issued = await call('A1.admin', 'POST', `/api/organizations/${w.id('A1')}/invoice-drafts/issue`, { buyer_id: w.id('T1') });
    const invoice = issued.invoices.find((i: { kind: string }) => i.kind === 'invoice');
    // 1000 credits at 0.05 is 50.00, and 20 % tax.
    expect(invoice).toMatchObject({ total: '60.00', state: 'open', currency: 'EUR' });

    const receivables = await call('A1.admin', 'GET', `/api/organizations/${w.id('A1')}/receivables`);
    expect(receivables.totals).toMatchObject({ days_0_30: '60.00', total: '60.00', overdue: 0 });

    const pay = (amount: string) =>
      call('A1.admin', 'POST', `/api/invoices/${invoice.id}/payments`, { amount, paid_on: dayFromToday(0), method: 'bank_transfer' });
    expect(await pay('10.00')).toMatchObject({ state: 'partially_paid', outstanding: '50.00' });
    expect(await pay('50.00')).toMatchObject({ state: 'paid', outstanding: '0.00' });

    const seen = await call('T1.admin', 'GET', `/api/invoices/${invoice.id}`);
    expect(seen).toMatchObject({ state: 'paid', paid: '60.00', can_manage: false });
    expect((await call('A1.admin', 'GET', `/api/organizations/${w.id('A1')}/receivables`)).children).toEqual([]);

    const csv = await call('A1.admin', 'GET', `/api/organizations/${w.id('A1')}/invoices/export?month=${dayFromToday(0).slice(0, 7)}`);
    expect(csv).toContain(`${invoice.number},invoice,`);
    expect(csv).toContain(',60.00,60.00,0.00,paid,');
  });
});
