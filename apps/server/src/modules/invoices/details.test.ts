import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { DETAILS, invoiceKit } from './invoice-test-kit.ts';

/** A seller's billing details: validated, set by its own admins only, read by its own people only. */
const w = useWorld();
const k = invoiceKit(w);
const m = MESSAGES.invoices;

describe('billing details', () => {
  it('are null until set, with the first number to come', async () => {
    const res = await k.getDetails('A1.user', 'A1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ details: null, can_edit: false, next_number: '000001' });
    expect((await k.getDetails('A1.admin', 'A1')).body.can_edit).toBe(true);
  });

  it('refuses bad input with 400 and a message per field', async () => {
    const bad = [
      [{ legal_name: '' }, m.legalNameRequired],
      [{ address: '   ' }, m.addressRequired],
      [{ currency: 'EURO' }, m.currencyInvalid],
      [{ credit_price: '-1' }, m.creditPriceInvalid],
      [{ credit_price: '0.12345' }, m.creditPriceInvalid],
      [{ credit_price: 1e21 }, m.creditPriceInvalid],
      [{ tax_rate: '100.5' }, m.taxRateInvalid],
      [{ tax_rate: '-2' }, m.taxRateInvalid],
      [{ tax_label: '' }, m.taxLabelInvalid],
      [{ terms_days: 366 }, m.termsInvalid],
      [{ terms_days: 1.5 }, m.termsInvalid],
      [{ number_prefix: 'AB/1' }, m.prefixInvalid],
      [{ note: 'x'.repeat(1001) }, m.noteTooLong],
      [{ legal_name: 'Two\nlines' }, m.legalNameTooLong],
    ] as const;
    for (const [change, message] of bad) {
      const res = await k.setDetails('A1.admin', 'A1', { ...DETAILS, ...change });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(JSON.stringify(res.body.error), JSON.stringify(change)).toContain(message);
    }
    expect((await k.getDetails('A1.admin', 'A1')).body.details).toBeNull();
  });

  it('are set by the own admins (upserted, audited) and read back exactly', async () => {
    const first = await k.setDetails('A1.admin', 'A1');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({
      details: {
        legal_name: 'Agency One Ltd',
        address: '1 Main Street\nSpringfield',
        tax_id: 'GB123',
        currency: 'EUR',
        credit_price: '0.0125',
        tax_rate: '20.000',
        tax_label: 'VAT',
        terms_days: 30,
        number_prefix: 'AG1-',
        note: 'Thank you.',
      },
      can_edit: true,
      next_number: 'AG1-000001',
    });
    const second = await k.setDetails('A1.admin', 'A1', { ...DETAILS, credit_price: 2, tax_rate: 0, number_prefix: '', note: '' });
    expect(second.status).toBe(200);
    expect(second.body.details).toMatchObject({ credit_price: '2.0000', tax_rate: '0.000', number_prefix: '', note: null });
    expect(second.body.next_number).toBe('000001');
    const read = await k.getDetails('A1.support', 'A1');
    expect(read.body.details).toEqual(second.body.details);
    const audits = await w.t.database.db
      .selectFrom('audit_log')
      .select(['details', 'target_id'])
      .where('action', '=', 'invoices.details_set')
      .orderBy('id')
      .execute();
    expect(audits.map((row) => row.details)).toEqual([
      { currency: 'EUR', credit_price: '0.0125', tax_rate: '20.000', terms_days: 30 },
      { currency: 'EUR', credit_price: '2.0000', tax_rate: '0.000', terms_days: 30 },
    ]);
    expect(audits[0]!.target_id).toBe(w.id('A1'));
  });

  it("are another organization's business (404) and set by admins only (403)", async () => {
    // A child's details, a tenant's too, are not its parent's to set.
    expect((await k.setDetails('A1.admin', 'T1')).status).toBe(404);
    expect((await k.setDetails('SA1.admin', 'A1')).status).toBe(404);
    // The route refuses those without invoices.manage before anything is read.
    expect((await k.setDetails('A1.manager', 'A1')).status).toBe(403);
    expect((await k.setDetails('T1.admin', 'T1')).status).toBe(403);
    // Outside the caller's subtree the organization does not exist.
    expect((await k.setDetails('A1.admin', 'SA1')).status).toBe(404);
  });

  it('are read by the own people only: above and outside get 404', async () => {
    expect((await k.getDetails('SA1.admin', 'A1')).status).toBe(404);
    expect((await k.getDetails('H.admin', 'A1')).status).toBe(404);
    expect((await k.getDetails('T1.admin', 'A1')).status).toBe(404);
    expect((await k.getDetails('A1.admin', 'SA1')).status).toBe(404);
  });
});
