import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { fund } from '../../test/usage-rows.ts';
import { DETAILS, invoiceKit } from './invoice-test-kit.ts';

/**
 * Agency One bills its tenants T1 and T2 at 0.0125 EUR a credit, 20 % VAT, 30 days: drafts are
 * what issuing issues, numbers follow each other per seller, reversals are negative lines
 * before issuing and credit notes after, and an issued invoice never changes.
 */
const w = useWorld();
const k = invoiceKit(w);
const db = () => w.t.database.db;
const m = MESSAGES.invoices;
const today = () => new Date().toISOString().slice(0, 10);
const plusDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  await fund(db(), w.id('A1'), '100000.00');
  await fund(db(), w.id('SA1'), '100000.00');
});

describe('issuing a draft at once', () => {
  it('needs billing details (422), a direct child (404) and something to bill (409)', async () => {
    await k.allocate('A1.admin', 'A1', 'T1', '1000', 'Q1 pack');
    const notReady = await k.drafts('A1.admin', 'A1');
    expect(notReady.body).toMatchObject({ ready: false, currency: null });
    expect(notReady.body.drafts[0].lines[0]).toMatchObject({ credits: '1000.00', unit_price: '0.0000', amount: '0.00' });
    const missing = await k.issue('A1.admin', 'A1', 'T1');
    expect(missing.status).toBe(422);
    expect(missing.body.error.message).toBe(m.detailsMissing);
    expect((await k.setDetails('A1.admin', 'A1', DETAILS)).status).toBe(200);
    const notChild = await k.issue('A1.admin', 'A1', 'A3');
    expect(notChild.status).toBe(404);
    expect(notChild.body.error.message).toBe(m.notYourChild);
    expect((await k.issue('A1.admin', 'SA1', 'A1')).status).toBe(404);
    const nothing = await k.issue('A1.admin', 'A1', 'T2');
    expect(nothing.status).toBe(409);
    expect(nothing.body.error.message).toBe(m.nothingToIssue);
    // Issuing is the seller's admins' (the route's permission) and never a tenant's.
    expect((await k.issue('A1.manager', 'A1', 'T1')).status).toBe(403);
    expect((await k.drafts('SA1.admin', 'A1')).status).toBe(404);
    // Nothing was numbered by the refusals.
    expect((await k.getDetails('A1.admin', 'A1')).body.next_number).toBe('AG1-000001');
  });

  it('issues exactly the draft: lines rounded once each, tax once on the subtotal', async () => {
    await k.allocate('A1.admin', 'A1', 'T1', '333.33');
    const drafts = await k.drafts('A1.admin', 'A1');
    expect(drafts.body.ready).toBe(true);
    expect(drafts.body.currency).toBe('EUR');
    const draft = drafts.body.drafts.find((d: { buyer: { id: string } }) => d.buyer.id === w.id('T1'));
    expect(draft).toMatchObject({ subtotal: '16.67', tax: '3.33', total: '20.00', credit_lines: [], credit_total: '0.00' });
    expect(draft.period).toBe(today().slice(0, 7));
    expect(draft.lines.map((l: { amount: string; kind: string }) => [l.kind, l.amount])).toEqual([
      ['allocation', '12.50'],
      ['allocation', '4.17'],
    ]);
    expect(draft.lines[0].description).toBe('Credits allocated: Q1 pack');

    const issued = await k.issue('A1.admin', 'A1', 'T1');
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect(issued.body.invoices).toHaveLength(1);
    const summary = issued.body.invoices[0];
    expect(summary).toMatchObject({
      kind: 'invoice',
      number: 'AG1-000001',
      seller: { id: w.id('A1'), name: 'Agency One' },
      buyer: { id: w.id('T1'), name: 'Tenant One' },
      period: draft.period,
      due_on: plusDays(30),
      currency: 'EUR',
      subtotal: '16.67',
      tax: '3.33',
      total: '20.00',
      paid: '0.00',
      outstanding: '20.00',
      state: 'open',
    });
    const detail = (await k.get('A1.admin', summary.id)).body;
    expect(detail.lines).toEqual(draft.lines);
    expect(detail).toMatchObject({
      seller_details: {
        id: w.id('A1'),
        name: 'Agency One',
        legal_name: 'Agency One Ltd',
        address: '1 Main Street\nSpringfield',
        tax_id: 'GB123',
      },
      // A buyer without billing details of its own is printed by its name.
      buyer_details: { id: w.id('T1'), name: 'Tenant One', legal_name: 'Tenant One', address: '', tax_id: '' },
      credit_price: '0.0125',
      tax_rate: '20.000',
      tax_label: 'VAT',
      terms_days: 30,
      note: 'Thank you.',
      payments: [],
      voided_at: null,
      can_manage: true,
    });
    const { rows } = await sql<{ head: string }>`select encode(hash, 'hex') as head from credit_ledger_entries
      where organization_id = ${w.id('T1')} order by seq desc limit 1`.execute(db());
    expect(detail.verification_code).toBe(rows[0]!.head);
    expect(detail.verification_code).toMatch(/^[0-9a-f]{64}$/);
    const after = await k.drafts('A1.admin', 'A1');
    expect(after.body.drafts.find((d: { buyer: { id: string } }) => d.buyer.id === w.id('T1'))).toBeUndefined();
  });

  it('mails the buyer’s admins, writes the invoice.issued event for the buyer and the audit row', async () => {
    const mail = await db().selectFrom('outbox').select(['subject', 'body_text']).where('to_address', '=', 'admin@t1.test').execute();
    expect(mail).toContainEqual({
      subject: m.issuedSubject('Agency One', 'AG1-000001'),
      body_text: `${m.issued('Agency One', 'Tenant One', 'AG1-000001', '20.00', 'EUR', plusDays(30))}\n\nInvoice: http://console.test/invoices/${(await db().selectFrom('invoices').select('id').where('number_text', '=', 'AG1-000001').executeTakeFirstOrThrow()).id}`,
    });
    expect(await db().selectFrom('outbox').select('id').where('to_address', '=', 'user@t1.test').execute()).toEqual([]);
    const events = await db()
      .selectFrom('webhook_events')
      .select(['organization_id', 'data'])
      .where('type', '=', 'invoice.issued')
      .execute();
    expect(events).toHaveLength(1);
    expect(events[0]!.organization_id).toBe(w.id('T1'));
    expect(events[0]!.data).toMatchObject({
      kind: 'invoice',
      number: 'AG1-000001',
      seller: { id: w.id('A1'), name: 'Agency One' },
      total: '20.00',
      outstanding: '20.00',
      due_on: plusDays(30),
      currency: 'EUR',
    });
    const audit = await db()
      .selectFrom('audit_log')
      .select(['organization_id', 'target_id', 'details'])
      .where('action', '=', 'invoices.issue')
      .execute();
    expect(audit).toEqual([
      {
        organization_id: w.id('A1'),
        target_id: w.id('T1'),
        details: expect.objectContaining({ number: 'AG1-000001', kind: 'invoice', total: '20.00', currency: 'EUR' }),
      },
    ]);
  });

  it('bills a reversal before issuing as a negative line, and after issuing on a credit note', async () => {
    const same = await k.allocate('A1.admin', 'A1', 'T2', '200');
    await k.reverse('A1.admin', same);
    const billed = await k.allocate('A1.admin', 'A1', 'T1', '400');
    expect((await k.issue('A1.admin', 'A1', 'T1')).body.invoices[0].number).toBe('AG1-000002');
    await k.reverse('A1.admin', billed);

    const drafts = (await k.drafts('A1.admin', 'A1')).body.drafts;
    const t2 = drafts.find((d: { buyer: { id: string } }) => d.buyer.id === w.id('T2'));
    expect(t2.lines.map((l: { kind: string; credits: string; amount: string }) => [l.kind, l.credits, l.amount])).toEqual([
      ['allocation', '200.00', '2.50'],
      ['reversal', '-200.00', '-2.50'],
    ]);
    expect(t2).toMatchObject({ total: '0.00', credit_lines: [] });
    const t1 = drafts.find((d: { buyer: { id: string } }) => d.buyer.id === w.id('T1'));
    expect(t1).toMatchObject({ lines: [], subtotal: '0.00', total: '0.00', credit_total: '-6.00' });
    expect(t1.credit_lines.map((l: { kind: string; amount: string }) => [l.kind, l.amount])).toEqual([['reversal', '-5.00']]);

    const credit = await k.issue('A1.admin', 'A1', 'T1');
    expect(credit.body.invoices).toEqual([
      expect.objectContaining({
        kind: 'credit_note',
        number: 'AG1-000003',
        subtotal: '-5.00',
        tax: '-1.00',
        total: '-6.00',
        state: 'credit',
        outstanding: '0.00',
      }),
    ]);
    const mail = await db().selectFrom('outbox').select('subject').where('to_address', '=', 'admin@t1.test').execute();
    expect(mail.map((row) => row.subject)).toContain(m.creditNoteSubject('Agency One', 'AG1-000003'));
    const zero = await k.issue('A1.admin', 'A1', 'T2');
    expect(zero.body.invoices).toEqual([expect.objectContaining({ kind: 'invoice', number: 'AG1-000004', total: '0.00' })]);
  });

  it('numbers each seller on its own, without gaps', async () => {
    await k.setDetails('SA1.admin', 'SA1', { ...DETAILS, legal_name: 'Super One plc', number_prefix: '' });
    await k.allocate('SA1.admin', 'SA1', 'A1', '50');
    const issued = await k.issue('SA1.admin', 'SA1', 'A1');
    expect(issued.body.invoices[0]).toMatchObject({ number: '000001', buyer: { id: w.id('A1') } });
    // Agency One has billing details of its own: it is printed by them as a buyer.
    const detail = (await k.get('SA1.admin', issued.body.invoices[0].id)).body;
    expect(detail.buyer_details).toMatchObject({ legal_name: 'Agency One Ltd', address: '1 Main Street\nSpringfield', tax_id: 'GB123' });
    const numbers = await db().selectFrom('invoices').select('number').where('seller_id', '=', w.id('A1')).orderBy('number').execute();
    expect(numbers.map((row) => row.number)).toEqual([1, 2, 3, 4]);
    expect((await k.getDetails('A1.admin', 'A1')).body.next_number).toBe('AG1-000005');
  });

  it('freezes what it issued: SQL cannot change an invoice or its lines, and new details reach only later ones', async () => {
    const invoice = await db()
      .selectFrom('invoices')
      .select(['id', 'total'])
      .where('number_text', '=', 'AG1-000001')
      .executeTakeFirstOrThrow();
    await expect(sql`update invoices set total = 0 where id = ${invoice.id}`.execute(db())).rejects.toThrow(/never changes/);
    await expect(sql`update invoices set buyer = '{}'::jsonb where id = ${invoice.id}`.execute(db())).rejects.toThrow(/never changes/);
    await expect(sql`update invoice_lines set amount = 0 where invoice_id = ${invoice.id}`.execute(db())).rejects.toThrow(/never change/);
    await expect(sql`delete from invoice_lines where invoice_id = ${invoice.id}`.execute(db())).rejects.toThrow(/never deleted/);
    await expect(sql`delete from invoices where id = ${invoice.id}`.execute(db())).rejects.toThrow(/never deleted/);
    const before = (await k.get('A1.admin', invoice.id)).body;
    expect((await k.setDetails('A1.admin', 'A1', { ...DETAILS, credit_price: '1', legal_name: 'Renamed' })).status).toBe(200);
    expect((await k.get('A1.admin', invoice.id)).body).toEqual(before);
    await k.allocate('A1.admin', 'A1', 'T1', '10');
    const draft = (await k.drafts('A1.admin', 'A1')).body.drafts[0];
    expect(draft.lines[0]).toMatchObject({ unit_price: '1.0000', amount: '10.00' });
  });
  it('bills nowhere the credits given back of an allocation on a voided invoice: it was never charged', async () => {
    const allocation = await k.allocate('A1.admin', 'A1', 'T1', '100');
    const invoice = (await k.issue('A1.admin', 'A1', 'T1')).body.invoices[0];
    const voided = await w.t.request(
      'POST',
      `/api/invoices/${invoice.id}/void`,
      { reason: 'Issued by mistake' },
      { token: await w.as('A1.admin') },
    );
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    await k.reverse('A1.admin', allocation);
    const drafts = (await k.drafts('A1.admin', 'A1')).body.drafts;
    expect(drafts.find((d: { buyer: { id: string } }) => d.buyer.id === w.id('T1'))).toBeUndefined();
  });
});
