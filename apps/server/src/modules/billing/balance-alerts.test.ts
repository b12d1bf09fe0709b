import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { sql } from 'kysely';
import { pino } from 'pino';
import { MESSAGES } from '@console/domain';
import { useWorld } from '../../test/harness.ts';
import { PASSWORD, insertOrg, insertUser } from '../../test/fixtures.ts';
import { createMailer } from '../../lib/mail.ts';
import { createBalanceAlertSender, type BalanceAlertSender } from './balance-alerts.ts';

/**
 * Low-balance alerts from the balance change to the admins' mailboxes (the outbox here).
 * The app's own sender runs too; these tests also drive senders of their own, as other
 * server processes would, so the alerts are mailed without waiting for a poll.
 */
const onPostgres = Boolean(inject('pgServerUrl'));
const w = useWorld();
const db = () => w.t.database.db;
const m = MESSAGES.balanceAlerts;
const silent = pino({ level: 'silent' });
const senders: BalanceAlertSender[] = [];

function sender(): BalanceAlertSender {
  const made = createBalanceAlertSender({
    db: db(),
    mailer: createMailer({ db: db(), smtpUrl: null, logger: silent }),
    logger: silent,
    appUrl: 'http://console.test',
    pollMs: 3_600_000,
  });
  senders.push(made);
  return made;
}

/** Sends every pending alert, then waits for any batch another sender holds to finish. */
async function drain(...using: BalanceAlertSender[]) {
  const list = using.length ? using : [sender()];
  await Promise.all(
    list.map(async (s) => {
      while ((await s.sendPending()) > 0);
    }),
  );
  for (let waited = 0; ; waited += 50) {
    const pending = await db()
      .selectFrom('balance_alerts')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('mailed_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (pending.n === 0) return;
    if (waited > 10_000) throw new Error(`${pending.n} alerts still pending`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const houseName = async () => (await db().selectFrom('organizations').select('name').where('id', '=', w.id('H')).executeTakeFirst())?.name;
const mailsTo = (email: string) =>
  db().selectFrom('outbox').select(['subject', 'body_text']).where('to_address', '=', email).orderBy('id').execute();
const alertsOf = (orgId: string) =>
  db()
    .selectFrom('balance_alerts')
    .select(['kind', 'balance', 'threshold', 'mailed_at'])
    .where('organization_id', '=', orgId)
    .orderBy('id')
    .execute();

async function allocate(from: 'H' | 'SA1', to: 'SA1' | 'A1', amount: string) {
  const response = await w.t.request(
    'POST',
    '/api/credits/allocations',
    { from_org_id: w.id(from), to_org_id: w.id(to), amount },
    { token: await w.as(`${from}.admin`) },
  );
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

async function setThreshold(value: string) {
  const response = await w.t.request(
    'PUT',
    `/api/organizations/${w.id('SA1')}/low-balance-threshold`,
    { low_balance_threshold: value },
    { token: await w.as('SA1.admin') },
  );
  expect(response.status).toBe(200);
}

beforeAll(async () => {
  // An admin who left: alerts never reach an inactive account.
  await insertUser(db(), {
    email: 'former-admin@sa1.test',
    password: PASSWORD,
    role: 'super_agency_admin',
    organizationId: w.id('SA1'),
    status: 'inactive',
  });
  const adjusted = await w.t.request(
    'POST',
    '/api/credits/adjustments',
    { direction: 'increase', amount: '1000', reason: 'alerts' },
    { token: await w.as('H.admin') },
  );
  expect(adjusted.status).toBe(200);
  await allocate('H', 'SA1', '500');
});
afterAll(async () => {
  await Promise.all(senders.map((s) => s.close()));
});

describe('low-balance alerts', () => {
  it('a movement crossing the threshold queues exactly one alert, and each active admin gets one mail', async () => {
    await allocate('SA1', 'A1', '450');
    expect(await alertsOf(w.id('SA1'))).toMatchObject([{ kind: 'low_balance', balance: '50.00', threshold: '100.00', mailed_at: null }]);
    await drain();
    const mails = await mailsTo('admin@sa1.test');
    expect(mails).toEqual([
      {
        subject: m.lowBalanceSubject('Super One'),
        body_text: `${m.lowBalance('Super One', '50.00', '100.00')}\n\nCredit ledger: http://console.test/credit-ledger`,
      },
    ]);
    expect(mails[0]!.body_text).toContain('Low balance: Super One has 50.00 credits, below your alert threshold of 100.00 credits.');
    for (const other of [
      'manager@sa1.test',
      'user@sa1.test',
      'support@sa1.test',
      'former-admin@sa1.test',
      'admin@h.test',
      'admin@a1.test',
    ]) {
      expect(await mailsTo(other), other).toEqual([]);
    }
  });

  it('further movements below the threshold, and threshold changes alone, alert nobody', async () => {
    await allocate('SA1', 'A1', '10');
    await setThreshold('30');
    await setThreshold('100');
    await setThreshold('500');
    await setThreshold('100');
    await drain();
    expect(await alertsOf(w.id('SA1'))).toHaveLength(1);
    expect(await mailsTo('admin@sa1.test')).toHaveLength(1);
  });

  it('rising to the threshold and falling below it again within the hour alerts nobody, even with the threshold set to the balance each time', async () => {
    await allocate('H', 'SA1', '60');
    await allocate('SA1', 'A1', '1');
    await setThreshold('99');
    await allocate('SA1', 'A1', '1');
    await setThreshold('100');
    await drain();
    expect(await alertsOf(w.id('SA1'))).toHaveLength(1);
    expect(await mailsTo('admin@sa1.test')).toHaveLength(1);
  });

  it('rising to the threshold and falling below it again an hour after the last alert alerts a second time', async () => {
    await sql`update balance_alerts set created_at = created_at - interval '61 minutes' where organization_id = ${w.id('SA1')}`.execute(
      db(),
    );
    await allocate('H', 'SA1', '2');
    await allocate('SA1', 'A1', '1');
    expect(await alertsOf(w.id('SA1'))).toHaveLength(2);
    await drain();
    const mails = await mailsTo('admin@sa1.test');
    expect(mails).toHaveLength(2);
    expect(mails[1]!.body_text).toContain(m.lowBalance('Super One', '99.00', '100.00'));
  });

  it('writes the amounts of a low-balance mail as the console does: grouped by thousands, two decimals', async () => {
    await db()
      .insertInto('balance_alerts')
      .values({ organization_id: w.id('A1'), kind: 'low_balance', balance: '1234.5', threshold: '10000' })
      .execute();
    await drain();
    const mails = await mailsTo('admin@a1.test');
    expect(mails.at(-1)!.body_text).toMatch(/^Low balance: .+ has 1,234\.50 credits, below your alert threshold of 10,000\.00 credits\.\n/);
  });

  it('mails refused usage to the admins with its own words', async () => {
    await db()
      .insertInto('balance_alerts')
      .values({ organization_id: w.id('T1'), kind: 'insufficient_credits', balance: '3.00', threshold: '100.00' })
      .execute();
    await drain();
    const mails = await mailsTo('admin@t1.test');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe(m.insufficientSubject('Tenant One'));
    expect(mails[0]!.body_text).toContain('Usage refused: Tenant One has 3.00 credits, not enough for the events its agents reported.');
    expect(await mailsTo('user@t1.test')).toEqual([]);
  });

  it("mails a low balance of an organization without an active admin to its parent's active admins, with amounts grouped", async () => {
    const lone = await insertOrg(db(), { name: 'Lone Super', type: 'super_agency', parentId: w.id('H') });
    await insertUser(db(), { email: 'manager@lone.test', password: PASSWORD, role: 'super_agency_manager', organizationId: lone.id });
    await insertUser(db(), {
      email: 'gone-admin@lone.test',
      password: PASSWORD,
      role: 'super_agency_admin',
      organizationId: lone.id,
      status: 'inactive',
    });
    const sent = await w.t.request(
      'POST',
      '/api/credits/allocations',
      { from_org_id: w.id('H'), to_org_id: lone.id, amount: '150' },
      { token: await w.as('H.admin') },
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const before = (await mailsTo('admin@h.test')).length;
    // Its agents' usage takes it from 150.00 to 1.50: below the threshold of 100.00.
    await sql`select 1 from ledger_post(gen_random_uuid(), null, false, array[${lone.id}::uuid], array[-148.50::numeric],
      array['consumption'], array['{}'::jsonb])`.execute(db());
    expect(await alertsOf(lone.id)).toMatchObject([{ kind: 'low_balance', balance: '1.50', threshold: '100.00' }]);
    await drain();
    const mails = (await mailsTo('admin@h.test')).slice(before);
    expect(mails).toEqual([
      {
        subject: 'Low balance: Lone Super (no active admin)',
        body_text: `${m.childLowBalance('Lone Super', (await houseName())!, '1.50', '100.00')}\n\nOrganization: http://console.test/orgs/${lone.id}`,
      },
    ]);
    expect(mails[0]!.body_text).toContain('Low balance: Lone Super, a child of ');
    expect(mails[0]!.body_text).toContain(', has 1.50 credits, below its alert threshold of 100.00. It has no active admin');
    for (const other of ['manager@lone.test', 'gone-admin@lone.test', 'manager@h.test', 'user@h.test', 'admin@sa1.test']) {
      expect(
        (await mailsTo(other)).filter((mail) => mail.subject.includes('Lone Super')),
        other,
      ).toEqual([]);
    }
  });

  it("keeps a low balance of an organization with an active admin to that admin: its parent's admins get nothing", async () => {
    const before = (await mailsTo('admin@sa1.test')).length;
    await db()
      .insertInto('balance_alerts')
      .values({ organization_id: w.id('A1'), kind: 'low_balance', balance: '12.00', threshold: '100.00' })
      .execute();
    await drain();
    expect((await mailsTo('admin@a1.test')).map((mail) => mail.subject)).toContain(m.lowBalanceSubject('Agency One'));
    expect(await mailsTo('admin@sa1.test')).toHaveLength(before);
  });

  it(`senders in several processes share the alerts: each is mailed once (${onPostgres ? 'PostgreSQL: truly concurrent' : 'PGlite: serialized, arithmetic only'})`, async () => {
    await insertUser(db(), { email: 'admin@a2.test', password: PASSWORD, role: 'agency_admin', organizationId: w.id('A2') });
    const alerts = Array.from({ length: 230 }, (_, i) => ({
      organization_id: w.id('A2'),
      kind: 'low_balance' as const,
      balance: `${i}.00`,
      threshold: '500.00',
    }));
    await db().insertInto('balance_alerts').values(alerts).execute();
    await drain(sender(), sender(), sender());
    const mails = await mailsTo('admin@a2.test');
    expect(mails).toHaveLength(230);
    expect(new Set(mails.map((mail) => mail.body_text)).size).toBe(230);
  });
});
