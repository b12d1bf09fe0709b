import { describe, expect, inject, it } from 'vitest';
import { sql } from 'kysely';
import { MESSAGES } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { dayFromToday, insertInvoice } from './test-invoices.ts';

/**
 * Concurrent payments against one invoice (PostgreSQL: PGlite runs one transaction at a time,
 * so nothing races there): the invoice's row lock serializes them, so they never add up to more
 * than its total.
 */
const onPostgres = Boolean(inject('pgServerUrl'));
const w = useWorld();
const db = () => w.t.database.db;

describe.skipIf(!onPostgres)('payments at the same moment', () => {
  it('ten payments of 20 % each: exactly five are taken, the invoice is paid and never overpaid', async () => {
    for (let round = 0; round < 3; round++) {
      const invoice = await insertInvoice(db(), { seller: w.id('A1'), buyer: w.id('T1'), total: '123.45' });
      const token = await w.as('A1.admin');
      const responses = await Promise.all(
        Array.from({ length: 10 }, () =>
          w.t.request(
            'POST',
            `/api/invoices/${invoice.id}/payments`,
            { amount: '24.69', paid_on: dayFromToday(0), method: 'card' },
            { token },
          ),
        ),
      );
      const statuses = responses.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 201, 201, 201, 201, 422, 422, 422, 422, 422]);
      for (const refused of responses.filter((r) => r.status === 422)) {
        expect(refused.body.error.message).toBe(MESSAGES.invoices.overpayment('0.00', 'USD'));
      }
      const paid = await db()
        .selectFrom('invoice_payments')
        .select(sql<string>`sum(amount)::text`.as('sum'))
        .where('invoice_id', '=', invoice.id)
        .executeTakeFirstOrThrow();
      expect(paid.sum).toBe('123.45');
      const events = await db()
        .selectFrom('webhook_events')
        .select('id')
        .where('type', '=', 'invoice.paid')
        .where(sql<boolean>`data ->> 'invoice_id' = ${invoice.id}`)
        .execute();
      expect(events).toHaveLength(1);
    }
  });
});
