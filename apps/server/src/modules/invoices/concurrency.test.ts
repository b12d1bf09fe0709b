import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createMailer } from '../../lib/mail.ts';
import { useWorld } from '../../test/harness.ts';
import { insertOrg } from '../../test/fixtures.ts';
import { fund } from '../../test/usage-rows.ts';
import { invoiceKit } from './invoice-test-kit.ts';
import { createMonthlyIssuer } from './monthly-issuer.ts';

/**
 * Issuing at the same moment on PostgreSQL, where transactions truly run side by side (PGlite
 * runs one at a time): a seller's numbers stay 1..N without a gap or a repeat, and a movement
 * is billed once whoever issues it.
 */
const onPostgres = Boolean(inject('pgServerUrl'));
const w = useWorld();
const k = invoiceKit(w);
const db = () => w.t.database.db;
const CHILDREN = 12;
const children: string[] = [];

beforeAll(async () => {
  if (!onPostgres) return;
  await fund(db(), w.id('A1'), '100000.00');
  expect((await k.setDetails('A1.admin', 'A1')).status).toBe(200);
  for (let i = 0; i < CHILDREN; i++) {
    const child = await insertOrg(db(), { name: `Parallel ${i}`, type: 'tenant', parentId: w.id('A1') });
    children.push(child.id);
    await k.allocate('A1.admin', 'A1', child.id, '100');
  }
});

describe.skipIf(!onPostgres)('concurrent issuing (PostgreSQL)', () => {
  it('numbers every document of a seller 1..N, once each, when all children are issued at once', async () => {
    const answers = await Promise.all(children.map((child) => k.issue('A1.admin', 'A1', child)));
    expect(answers.map((res) => res.status)).toEqual(children.map(() => 200));
    const numbers = answers.map((res) => res.body.invoices[0].number as string).sort();
    expect(numbers).toEqual(children.map((_, i) => `AG1-${String(i + 1).padStart(6, '0')}`));
  });

  it('bills a movement once when the same draft is issued twice at once, beside the monthly issuers', async () => {
    for (const child of children.slice(0, 4)) await k.allocate('A1.admin', 'A1', child, '10');
    const nextMonth = new Date(Date.now() + 40 * 86_400_000);
    const issuers = [0, 1].map(() =>
      createMonthlyIssuer({
        db: db(),
        mailer: createMailer({ db: db(), smtpUrl: null, logger: w.t.app.log }),
        appUrl: 'http://console.test',
        logger: w.t.app.log,
        pollMs: 3_600_000,
      }),
    );
    const [http, monthly] = await Promise.all([
      Promise.all(children.slice(0, 4).flatMap((child) => [k.issue('A1.admin', 'A1', child), k.issue('A1.admin', 'A1', child)])),
      Promise.all(issuers.map((issuer) => issuer.issueDue(nextMonth))),
    ]);
    await Promise.all(issuers.map((issuer) => issuer.close()));
    const issuedByHttp = http.filter((res) => res.status === 200).length;
    expect(http.every((res) => res.status === 200 || res.status === 409)).toBe(true);
    expect(issuedByHttp + monthly[0]!.issued + monthly[1]!.issued).toBe(4);
    const rows = await db().selectFrom('invoices').select('number').where('seller_id', '=', w.id('A1')).orderBy('number').execute();
    expect(rows.map((row) => row.number)).toEqual(Array.from({ length: CHILDREN + 4 }, (_, i) => i + 1));
    expect((await k.drafts('A1.admin', 'A1')).body.drafts).toEqual([]);
  });
});
