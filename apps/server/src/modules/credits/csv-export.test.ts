import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { useWorld } from '../../test/harness.ts';
import { parseCsv } from '../../test/csv.ts';
import { activate, insertAgentType } from '../../test/usage-rows.ts';
import { reconcile } from './reconcile.ts';

/**
 * The ledger export through real HTTP, of entries whose notes and external references start
 * like spreadsheet formulas (`=`, `+`, `-`, `@`, tab, CR, alone or after a `;`): every such
 * cell reaches the file as text, with a leading apostrophe, and plain numbers stay numbers.
 */
const w = useWorld();
const db = () => w.t.database.db;

/** Notes the API stores as sent (it trims them, so a leading tab or CR cannot come this way). */
const HOSTILE_NOTES = ['=HYPERLINK("http://evil.test","click")', '+1+1', '-2+3', '@SUM(A1:A9)', 'budget;=1+2', 'q1; +cmd', 'a;\t=1'];
/** Usage event ids, which become the consumption entries' external references. */
const HOSTILE_EVENT_IDS = ['=cmd|"/c calc"!A0', '+ev', '-ev', '@ev'];
/** Written straight to the ledger: a leading tab and a leading CR, which the API would trim. */
const RAW = [
  { notes: '\t=1+1', external_ref: '\r=2+2' },
  { notes: '\r@x', external_ref: '\tcmd' },
];

beforeAll(async () => {
  const token = await w.as('H.admin');
  expect(
    (await w.t.request('POST', '/api/credits/adjustments', { direction: 'increase', amount: '1000', reason: 'csv export' }, { token }))
      .status,
  ).toBe(200);
  for (const notes of HOSTILE_NOTES) {
    const response = await w.t.request(
      'POST',
      '/api/credits/allocations',
      { from_org_id: w.id('H'), to_org_id: w.id('SA1'), amount: '1.00', notes },
      { token },
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  }
  const agent = await insertAgentType(db(), 'csv-agent', '1.0000');
  await activate(db(), w.id('H'), agent.id);
  const occurred_at = new Date(Date.now() - 60_000).toISOString();
  const usage = await w.t.request(
    'POST',
    '/api/credits/usage',
    {
      events: HOSTILE_EVENT_IDS.map((id) => ({ id, organization_id: w.id('H'), agent: agent.code, units: '1', occurred_at })),
      refunds: [{ organization_id: w.id('H'), amount: '0.50', external_ref: '=refund()', refund_of: '+ev' }],
    },
    { token },
  );
  expect(usage.status, JSON.stringify(usage.body)).toBe(200);
  expect(usage.body.results.map((r: { status: string }) => r.status)).toEqual(HOSTILE_EVENT_IDS.map(() => 'accepted'));
  expect(usage.body.refunds[0].status).toBe('recorded');
  // Increases by SQL, each with its balance, so the books still reconcile.
  await db()
    .transaction()
    .execute(async (trx) => {
      for (const raw of RAW) {
        const { rows } = await sql<{ credit_balance: string }>`
        update organization_billing_settings set credit_balance = credit_balance + 1
        where organization_id = ${w.id('H')} returning credit_balance::text`.execute(trx);
        await sql`
        insert into credit_ledger_entries (organization_id, amount, entry_type, transaction_group, metadata, balance_after, external_ref)
        values (${w.id('H')}, 1, 'adjustment_increase', gen_random_uuid(), ${JSON.stringify({ notes: raw.notes, reason: 'raw' })}::jsonb,
                ${rows[0]!.credit_balance}, ${raw.external_ref})`.execute(trx);
      }
    });
  expect((await reconcile(db())).ok).toBe(true);
});

async function exportOf(orgKey: 'H' | 'SA1', path = '/api/credits/ledger/export') {
  const response = await fetch(`${w.t.baseUrl}${path}?organization_id=${w.id(orgKey)}`, {
    headers: { authorization: `Bearer ${await w.as('H.admin')}` },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/csv');
  const [header, ...rows] = parseCsv(await response.text());
  return rows.map((cells) => Object.fromEntries(header!.map((name, i) => [name, cells[i]!])));
}

describe('the ledger CSV export neutralises cells that start like formulas', () => {
  it('notes: each hostile note arrives as text with a leading apostrophe, on both sides of the allocation', async () => {
    for (const org of ['H', 'SA1'] as const) {
      const rows = await exportOf(org);
      const notes = rows.filter((r) => r.entry_type!.startsWith('allocation_')).map((r) => r.notes);
      expect(notes.sort(), org).toEqual(
        [`'=HYPERLINK("http://evil.test","click")`, "'+1+1", "'-2+3", "'@SUM(A1:A9)", "budget;'=1+2", "q1;' +cmd", "a;'\t=1"].sort(),
      );
    }
  });

  it("external references of refunds, and the events' ids in the events export", async () => {
    const rows = await exportOf('H');
    // The batch's one consumption entry holds no event id; the refund names the event it returns.
    const refs = rows.filter((r) => r.entry_type === 'consumption' || r.entry_type === 'refund').map((r) => [r.entry_type, r.external_ref]);
    expect(refs.sort()).toEqual(
      [
        ['consumption', ''],
        ['refund', "'=refund()"],
      ].sort(),
    );
    const events = await exportOf('H', '/api/usage-events/export');
    expect(events.map((r) => r.id).sort()).toEqual([`'=cmd|"/c calc"!A0`, "'+ev", "'-ev", "'@ev"].sort());
  });

  it('a leading tab or CR, in notes and in external references', async () => {
    const rows = await exportOf('H');
    const raw = rows.filter((r) => r.entry_type === 'adjustment_increase' && r.external_ref !== '');
    expect(raw.map((r) => [r.notes, r.external_ref]).sort()).toEqual(
      [
        ["'\t=1+1", "'\r=2+2"],
        ["'\r@x", "'\tcmd"],
      ].sort(),
    );
  });

  it('plain numbers stay numbers, and no cell or ";" part of one starts like a formula', async () => {
    const rows = await exportOf('H');
    const sent = rows.filter((r) => r.entry_type === 'allocation_sent');
    expect(sent.map((r) => r.amount)).toEqual(HOSTILE_NOTES.map(() => '-1.00'));
    expect(rows.filter((r) => r.entry_type === 'consumption').map((r) => r.amount)).toEqual([`-${HOSTILE_EVENT_IDS.length}.00`]);
    for (const row of rows) {
      for (const [column, cell] of Object.entries(row)) {
        for (const part of cell.split(';')) {
          if (/^-?\d+(\.\d+)?$/.test(part)) continue;
          expect(part, `${column} of ${row.id}`).not.toMatch(/^(\s*[=+\-@]|[\t\r])/);
        }
      }
    }
  });
});
