import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { useWorld } from '../../test/harness.ts';
import { parseCsv } from '../../test/csv.ts';
import { activate, fund, insertAgentType, insertApiKey } from '../../test/usage-rows.ts';

/**
 * The margins rule on every read: a seller's margins (its earnings in detail, its book and its
 * changes) are shown to its own people only, and the price an organization pays per unit to
 * it and to its parent (its seller). Super One sells at 0.3000 what it buys at 0.2500, Agency
 * One at 0.3750: Super One sees Agency One's spending and what its earnings came to, never
 * the 0.3750 its tenant pays nor the 0.0750 Agency One earns on each unit.
 */
const w = useWorld();
const db = () => w.t.database.db;

let bot: { id: string; code: string };
let superKey: { key: string };
let agencyKey: { key: string };

const as = async (who: string, path: string) => w.t.request('GET', path, undefined, { token: await w.as(who) });
const byKey = (key: { key: string }, path: string) =>
  w.t.request('GET', path, undefined, { headers: { authorization: `Bearer ${key.key}` } });
const ledgerOf = async (who: string, org: 'A1' | 'T1', query = '') =>
  (await as(who, `/api/credits/ledger?organization_id=${w.id(org)}${query}`)).body.entries as any[];
const eventsOf = async (who: string, org: 'SA1' | 'A1' | 'T1') =>
  (await as(who, `/api/usage-events?organization_id=${w.id(org)}`)).body.events as any[];

async function csvOf(who: string, path: string) {
  const response = await fetch(`${w.t.baseUrl}${path}`, { headers: { authorization: `Bearer ${await w.as(who)}` } });
  expect(response.status).toBe(200);
  const text = await response.text();
  const [header, ...rows] = parseCsv(text);
  return { text, rows: rows.map((cells) => Object.fromEntries(header!.map((name, i) => [name, cells[i]!]))) };
}

beforeAll(async () => {
  bot = await insertAgentType(db(), 'mbot', '0.2500');
  for (const org of ['T1', 'A1', 'SA1'] as const) {
    await activate(db(), w.id(org), bot.id);
    await fund(db(), w.id(org), '100.00');
  }
  const set = async (org: 'SA1' | 'A1', price: string) =>
    expect(
      (await w.t.request('PUT', `/api/organizations/${w.id(org)}/prices/${bot.id}`, { price }, { token: await w.as(`${org}.admin`) }))
        .status,
    ).toBe(200);
  await set('SA1', '0.3000');
  await set('A1', '0.3750');
  superKey = await insertApiKey(db(), w.id('SA1'), { name: 'super runtime' });
  agencyKey = await insertApiKey(db(), w.id('A1'), { name: 'agency runtime' });
  const now = new Date().toISOString();
  const report = await w.t.request(
    'POST',
    '/api/v1/usage-events',
    {
      events: [
        { id: 'm-t1', organization_id: w.id('T1'), agent: 'mbot', units: '10', occurred_at: now },
        { id: 'm-a1', organization_id: w.id('A1'), agent: 'mbot', units: '10', occurred_at: now },
        { id: 'm-sa1', organization_id: w.id('SA1'), agent: 'mbot', units: '10', occurred_at: now },
      ],
    },
    { headers: { authorization: `Bearer ${superKey.key}` } },
  );
  expect(report.body.results.map((r: any) => r.credits_charged)).toEqual(['3.75', '3.00', '2.50']);
});

describe('the ledger seen from above', () => {
  it("shows a seller's own earnings in detail, and from above only what they came to", async () => {
    const own = (await ledgerOf('A1.admin', 'A1')).find((e) => e.entry_type === 'earning');
    expect(own).toMatchObject({ amount: '0.75', units: '10.0000', agent_type_id: bot.id });
    expect(own.metadata).toMatchObject({ margin: '0.0750', child_name: 'Tenant One', units: '10.0000' });
    for (const who of ['SA1.admin', 'H.admin']) {
      const seen = (await ledgerOf(who, 'A1')).find((e) => e.entry_type === 'earning');
      expect(seen, who).toMatchObject({ amount: '0.75', units: null, agent_type_id: null, metadata: {} });
      expect(seen.description, who).toBe("Earned 0.75 credits on its children's usage");
      expect(seen.balance_after, who).toBe(own.balance_after);
    }
  });

  it('shows the price a consumption was charged at to the organization and its seller, and not from further up', async () => {
    const price = async (who: string, org: 'A1' | 'T1') =>
      (await ledgerOf(who, org)).find((e) => e.entry_type === 'consumption').metadata.price ?? null;
    expect(await price('T1.admin', 'T1')).toBe('0.3750');
    expect(await price('A1.admin', 'T1')).toBe('0.3750');
    expect(await price('SA1.admin', 'T1')).toBeNull();
    expect(await price('A1.admin', 'A1')).toBe('0.3000');
    expect(await price('SA1.admin', 'A1')).toBe('0.3000');
    expect(await price('H.admin', 'A1')).toBeNull();
    // What was spent and used stays in view from above.
    const spent = (await ledgerOf('SA1.admin', 'T1')).find((e) => e.entry_type === 'consumption');
    expect(spent).toMatchObject({ amount: '-3.75', units: '10.0000', agent_type_id: bot.id });
  });

  it('does not find an earning from above by the agent it came through', async () => {
    const byAgent = await ledgerOf('SA1.admin', 'A1', `&agent_type_id=${bot.id}`);
    expect(byAgent.map((e) => e.entry_type)).toEqual(['consumption']);
    const byText = await ledgerOf('SA1.admin', 'A1', '&q=mbot');
    expect(byText.map((e) => e.entry_type)).toEqual(['consumption']);
    expect((await ledgerOf('A1.admin', 'A1', `&agent_type_id=${bot.id}`)).map((e) => e.entry_type).sort()).toEqual([
      'consumption',
      'earning',
    ]);
  });

  it('exports from above what the page shows: no margin, child, agent or units of an earning, no price', async () => {
    const agency = await csvOf('SA1.admin', `/api/credits/ledger/export?organization_id=${w.id('A1')}`);
    const earning = agency.rows.find((row) => row.entry_type === 'earning')!;
    expect(earning).toMatchObject({ amount: '0.75', agent: '', units: '', description: "Earned 0.75 credits on its children's usage" });
    expect(agency.text).not.toContain('Tenant One');
    expect(agency.text).not.toContain('0.075');
    const own = await csvOf('A1.admin', `/api/credits/ledger/export?organization_id=${w.id('A1')}`);
    expect(own.rows.find((row) => row.entry_type === 'earning')).toMatchObject({ agent: 'mbot', units: '10.0000' });
  });
});

describe('usage events seen from above', () => {
  it('carry their price to the organization and its seller only', async () => {
    const price = async (who: string, org: 'SA1' | 'A1' | 'T1') => (await eventsOf(who, org))[0].price;
    expect(await price('T1.admin', 'T1')).toBe('0.3750');
    expect(await price('A1.admin', 'T1')).toBe('0.3750');
    expect(await price('SA1.admin', 'T1')).toBeNull();
    expect(await price('H.admin', 'T1')).toBeNull();
    expect(await price('SA1.admin', 'A1')).toBe('0.3000');
    expect(await price('H.admin', 'A1')).toBeNull();
    expect(await price('H.admin', 'SA1')).toBe('0.2500');
    // The charge and the units stay: what the organization spent and used.
    expect((await eventsOf('SA1.admin', 'T1'))[0]).toMatchObject({ units: '10.0000', credits_charged: '3.75' });
  });

  it('are exported the same way', async () => {
    const fromAbove = await csvOf('SA1.admin', `/api/usage-events/export?organization_id=${w.id('T1')}`);
    expect(fromAbove.rows).toEqual([expect.objectContaining({ id: 'm-t1', price: '', credits_charged: '3.75' })]);
    const fromSeller = await csvOf('A1.admin', `/api/usage-events/export?organization_id=${w.id('T1')}`);
    expect(fromSeller.rows).toEqual([expect.objectContaining({ id: 'm-t1', price: '0.3750' })]);
  });

  it("and through the machine API a key sees what its organization's people see", async () => {
    const price = async (key: { key: string }, org: 'A1' | 'T1') =>
      (await byKey(key, `/api/v1/usage-events?organization_id=${w.id(org)}`)).body.events[0].price;
    expect(await price(superKey, 'T1')).toBeNull();
    expect(await price(superKey, 'A1')).toBe('0.3000');
    expect(await price(agencyKey, 'T1')).toBe('0.3750');
    const entitled = async (key: { key: string }, org: 'A1' | 'T1') =>
      (await byKey(key, `/api/v1/entitlements?organization_id=${w.id(org)}&agent=mbot`)).body;
    expect(await entitled(superKey, 'T1')).toMatchObject({ allowed: true, price: null });
    expect(await entitled(superKey, 'A1')).toMatchObject({ allowed: true, price: '0.3000' });
    expect(await entitled(agencyKey, 'T1')).toMatchObject({ allowed: true, price: '0.3750' });
  });
});

describe('everything else an ancestor reads', () => {
  it("activations carry the organization's price to it and its seller only", async () => {
    const price = async (who: string, org: 'A1' | 'T1') =>
      (await as(who, `/api/organizations/${w.id(org)}/agents`)).body.activations.find((a: any) => a.agent_type.id === bot.id).agent_type
        .price;
    expect(await price('T1.admin', 'T1')).toBe('0.3750');
    expect(await price('A1.admin', 'T1')).toBe('0.3750');
    expect(await price('SA1.admin', 'T1')).toBeNull();
    expect(await price('SA1.admin', 'A1')).toBe('0.3000');
    expect(await price('H.admin', 'A1')).toBeNull();
  });

  it("the activity log names a seller's price change from above, not the prices", async () => {
    const changes = async (who: string) =>
      (await as(who, `/api/activity?organization_id=${w.id('A1')}&action=pricing.price_set`)).body.events as any[];
    const [own] = await changes('A1.admin');
    expect(own.details).toMatchObject({ before: null, after: '0.3750', agent: 'mbot' });
    expect(own.sentence).toContain('to 0.375 a unit');
    for (const who of ['SA1.admin', 'H.admin']) {
      const [seen] = await changes(who);
      expect(seen.details, who).not.toHaveProperty('after');
      expect(seen.details, who).not.toHaveProperty('before');
      expect(seen.sentence, who).toMatch(/set what the children of Agency One pay for mbot$/);
    }
    const exported = await csvOf('SA1.admin', `/api/activity/export?organization_id=${w.id('SA1')}`);
    expect(exported.text).not.toContain('0.375');
    expect(exported.text).toContain('0.3 a unit');
  });

  it('the dashboard, the webhook events and the alerts carry no price or margin of a seller below', async () => {
    const dashboard = await as('SA1.admin', `/api/dashboard?organization_id=${w.id('A1')}`);
    expect(dashboard.status).toBe(200);
    const text = JSON.stringify(dashboard.body);
    expect(text).not.toMatch(/margin|price|0\.375|0\.075/);
    const events = await sql<{ data: string }>`select data::text as data from webhook_events`.execute(db());
    for (const event of events.rows) expect(event.data).not.toMatch(/margin|price/);
    const alerts = await sql<{ detail: string | null }>`select detail::text as detail from balance_alerts`.execute(db());
    for (const alert of alerts.rows) expect(alert.detail ?? '').not.toMatch(/margin|price/);
  });
});
