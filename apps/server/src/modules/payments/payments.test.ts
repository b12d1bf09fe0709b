import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES, WEBHOOK_EVENT_DATA } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { PASSWORD, insertUser, tablesDigest } from '../../test/fixtures.ts';
import { dayFromToday, insertInvoice } from './test-invoices.ts';

/**
 * Payments, reversals and voiding through HTTP: the invoice's state follows them, an overpayment
 * writes nothing, and only the seller's own admins change an invoice (404 for anyone who may not
 * read it, 403 for a reader who may not change it).
 */
const w = useWorld();
const db = () => w.t.database.db;
const m = MESSAGES.invoices;
const today = dayFromToday(0);

const pay = async (who: string, invoiceId: string, amount: string, extra: Record<string, unknown> = {}) =>
  w.t.request(
    'POST',
    `/api/invoices/${invoiceId}/payments`,
    { amount, paid_on: today, method: 'bank_transfer', reference: 'REF-1', ...extra },
    { token: await w.as(who) },
  );
const reverse = async (who: string, invoiceId: string, paymentId: string, reason = 'bounced') =>
  w.t.request('POST', `/api/invoices/${invoiceId}/payments/${paymentId}/reverse`, { reason }, { token: await w.as(who) });
const voidIt = async (who: string, invoiceId: string, reason = 'issued by mistake') =>
  w.t.request('POST', `/api/invoices/${invoiceId}/void`, { reason }, { token: await w.as(who) });

const eventsOf = (invoiceId: string, type: string) =>
  db()
    .selectFrom('webhook_events')
    .select(['type', 'organization_id', 'data'])
    .where('type', '=', type as never)
    .where(sql<boolean>`data ->> 'invoice_id' = ${invoiceId}`)
    .execute();
const auditsOf = (invoiceId: string) =>
  db()
    .selectFrom('audit_log')
    .select(['action', 'organization_id', 'target_id', 'details'])
    .where(sql<boolean>`details ->> 'invoice_id' = ${invoiceId}`)
    .orderBy('id')
    .execute();
const mailsTo = (email: string) => db().selectFrom('outbox').select(['subject', 'body_text']).where('to_address', '=', email).execute();

beforeAll(async () => {
  // A stranger: an admin of another agency under the same super agency.
  await insertUser(db(), { email: 'admin@a2.test', password: PASSWORD, role: 'agency_admin', organizationId: w.id('A2') });
});

describe('recording payments', () => {
  it('a partial then a full payment: partially paid, then paid, with the event, the receipt and the audit rows', async () => {
    const invoice = await insertInvoice(db(), { seller: w.id('A1'), buyer: w.id('T1'), total: '100.00' });
    const first = await pay('A1.admin', invoice.id, '40');
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({ id: invoice.id, state: 'partially_paid', paid: '40.00', outstanding: '60.00', can_manage: true });
    expect(first.body.payments).toHaveLength(1);
    expect(first.body.payments[0]).toMatchObject({ amount: '40.00', paid_on: today, method: 'bank_transfer', reference: 'REF-1' });
    expect(await eventsOf(invoice.id, 'invoice.paid')).toEqual([]);

    const second = await pay('A1.admin', invoice.id, '60.00');
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ state: 'paid', paid: '100.00', outstanding: '0.00' });

    const events = await eventsOf(invoice.id, 'invoice.paid');
    expect(events).toHaveLength(1);
    expect(events[0]!.organization_id).toBe(w.id('T1'));
    expect(WEBHOOK_EVENT_DATA['invoice.paid'].parse(events[0]!.data)).toMatchObject({
      invoice_id: invoice.id,
      number: invoice.number,
      seller: { id: w.id('A1'), name: 'Agency One' },
      total: '100.00',
      outstanding: '0.00',
    });
    const receipts = (await mailsTo('admin@t1.test')).filter((mail) => mail.subject === m.paidSubject(invoice.number));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.body_text).toContain(m.paid('Agency One', invoice.number, '100.00', 'USD'));

    const audits = await auditsOf(invoice.id);
    expect(audits.map((a) => a.action)).toEqual(['invoices.payment_record', 'invoices.payment_record']);
    expect(audits[0]).toMatchObject({ organization_id: w.id('A1'), target_id: w.id('T1') });
    expect(audits[0]!.details).toMatchObject({ number: invoice.number, amount: '40.00', currency: 'USD' });

    // Paid in full: nothing more is owed.
    const more = await pay('A1.admin', invoice.id, '0.01');
    expect(more.status).toBe(422);
    expect(more.body.error.message).toBe(m.overpayment('0.00', 'USD'));
  });

  it('refuses an overpayment with what is owed, and writes nothing', async () => {
    const invoice = await insertInvoice(db(), { seller: w.id('A1'), buyer: w.id('T1'), total: '100.00' });
    expect((await pay('A1.admin', invoice.id, '30.00')).status).toBe(201);
    const before = await tablesDigest(db(), ['invoice_payments', 'audit_log', 'webhook_events', 'outbox']);
    const refused = await pay('A1.admin', invoice.id, '70.01');
    expect(refused.status).toBe(422);
    expect(refused.body.error.message).toBe(m.overpayment('70.00', 'USD'));
    expect(await tablesDigest(db(), ['invoice_payments', 'audit_log', 'webhook_events', 'outbox'])).toBe(before);
  });

  it('refuses a payment dated in the future, on a credit note, and on a void invoice', async () => {
    const invoice = await insertInvoice(db(), { seller: w.id('A1'), buyer: w.id('T1'), total: '10.00' });
    const future = await pay('A1.admin', invoice.id, '1.00', { paid_on: dayFromToday(2) });
    expect(future.status).toBe(422);
    expect(future.body.error.message).toBe(m.paymentDateInvalid);

    const credit = await insertInvoice(db(), { seller: w.id('A1'), buyer: w.id('T1'), total: '-10.00', kind: 'credit_note' });
    const onCredit = await pay('A1.admin', credit.id, '1.00');
    expect(onCredit.status).toBe(422);
    expect(onCredit.body.error.message).toBe(m.creditNoteNoPayments);

    expect((await voidIt('A1.admin', invoice.id)).status).toBe(200);
    const onVoid = await pay('A1.admin', invoice.id, '1.00');
    expect(onVoid.status).toBe(409);
    expect(onVoid.body.error.message).toBe(m.notPayable);
  });
});

describe('reversing payments', () => {
  it('reopens the invoice; a second reversal is refused; an unknown payment is 404', async () => {
    const invoice = await insertInvoice(db(), { seller: w.id('A1'), buyer: w.id('T1'), total: '50.00' });
    const paid = await pay('A1.admin', invoice.id, '50.00');
    expect(paid.body.state).toBe('paid');
    const paymentId = paid.body.payments[0].id as string;

    const reversed = await reverse('A1.admin', invoice.id, paymentId, 'the transfer bounced');
    expect(reversed.status, JSON.stringify(reversed.body)).toBe(200);
    expect(reversed.body).toMatchObject({ state: 'open', paid: '0.00', outstanding: '50.00' });
    expect(reversed.body.payments[0]).toMatchObject({ id: paymentId, reverse_reason: 'the transfer bounced' });
    expect(reversed.body.payments[0].reversed_at).not.toBeNull();

    const again = await reverse('A1.admin', invoice.id, paymentId);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(m.paymentAlreadyReversed);

    const unknown = await reverse('A1.admin', invoice.id, '00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    // A payment of another invoice is not this invoice's.
    const other = await insertInvoice(db(), { seller: w.id('A1'), buyer: w.id('T2'), total: '5.00' });
    expect((await reverse('A1.admin', other.id, paymentId)).status).toBe(404);

    const audits = await auditsOf(invoice.id);
    expect(audits.map((a) => a.action)).toEqual(['invoices.payment_record', 'invoices.payment_reverse']);
    expect(audits[1]!.details).toMatchObject({ payment_id: paymentId, amount: '50.00', reason: 'the transfer bounced' });

    // Owed again in full: it can be paid again.
    expect((await pay('A1.admin', invoice.id, '50.00')).body.state).toBe('paid');
  });
});

describe('voiding', () => {
  it('is refused while a payment stands, allowed once it is reversed, and only once', async () => {
    const invoice = await insertInvoice(db(), { seller: w.id('A1'), buyer: w.id('T1'), total: '20.00' });
    const paid = await pay('A1.admin', invoice.id, '5.00');
    const refused = await voidIt('A1.admin', invoice.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(m.voidHasPayments);

    await reverse('A1.admin', invoice.id, paid.body.payments[0].id);
    const voided = await voidIt('A1.admin', invoice.id, 'wrong child');
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({ state: 'void', void_reason: 'wrong child', outstanding: '0.00' });
    expect(voided.body.voided_at).not.toBeNull();

    const twice = await voidIt('A1.admin', invoice.id);
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe(m.alreadyVoid);
    expect((await auditsOf(invoice.id)).map((a) => a.action)).toContain('invoices.void');
  });

  it('voids a credit note', async () => {
    const credit = await insertInvoice(db(), { seller: w.id('A1'), buyer: w.id('T1'), total: '-3.00', kind: 'credit_note' });
    const voided = await voidIt('A1.admin', credit.id);
    expect(voided.status).toBe(200);
    expect(voided.body.state).toBe('void');
  });
});

describe('who may change an invoice', () => {
  it.each([
    // Organizations above the seller never see its invoices; nor does a stranger.
    ['SA1.admin', 404],
    ['H.admin', 404],
    ['admin@a2.test', 404],
    // No invoices.manage: refused before anything is read.
    ['A1.manager', 403],
    ['T1.admin', 403],
  ])('%s on an invoice of Agency One to Tenant One: %i, and nothing is written', async (who, status) => {
    const invoice = await insertInvoice(db(), { seller: w.id('A1'), buyer: w.id('T1'), total: '10.00' });
    const paymentId = (await pay('A1.admin', invoice.id, '1.00')).body.payments[0].id as string;
    await w.as(who); // signed in first: a sign-in writes its own audit row
    const before = await tablesDigest(db(), ['invoices', 'invoice_payments', 'audit_log']);
    expect((await pay(who, invoice.id, '1.00')).status).toBe(status);
    expect((await reverse(who, invoice.id, paymentId)).status).toBe(status);
    expect((await voidIt(who, invoice.id)).status).toBe(status);
    expect(await tablesDigest(db(), ['invoices', 'invoice_payments', 'audit_log'])).toBe(before);
  });

  it('the billed child reads its invoice but may not change it (403); an unknown invoice is 404', async () => {
    // Super One bills Agency One: Agency One's admin holds invoices.manage, but not of its seller's invoices.
    const invoice = await insertInvoice(db(), { seller: w.id('SA1'), buyer: w.id('A1'), total: '10.00' });
    const refused = await pay('A1.admin', invoice.id, '1.00');
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(m.onlyOwnAdmins);
    expect((await voidIt('A1.admin', invoice.id)).status).toBe(403);
    expect((await pay('SA1.admin', invoice.id, '1.00')).status).toBe(201);
    const unknown = await pay('A1.admin', '00000000-0000-4000-8000-000000000000', '1.00');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe(m.invoiceNotFound);
  });
});
