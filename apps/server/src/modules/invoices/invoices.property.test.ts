import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorld } from '../../test/harness.ts';
import { insertOrg } from '../../test/fixtures.ts';
import { fund } from '../../test/usage-rows.ts';
import { DETAILS, invoiceKit } from './invoice-test-kit.ts';

/**
 * Against a model in exact integers: over random prices, tax rates, and random allocations,
 * initial balances, automatic top-ups, reversals and issuings to a few fresh tenants of Agency
 * One, every issued document is the draft it was issued from, every line is its credits times
 * the price rounded once to the cent (half away from zero), the tax is the subtotal times the
 * rate rounded once, a reversal is on a credit note exactly when its allocation was already
 * issued, and every billable entry ends on exactly one document.
 */
const w = useWorld();
const k = invoiceKit(w);
const db = () => w.t.database.db;

const p2 = (cents: bigint) =>
  `${cents < 0n ? '-' : ''}${(cents < 0n ? -cents : cents) / 100n}.${String((cents < 0n ? -cents : cents) % 100n).padStart(2, '0')}`;
const p4 = (n: number) => `${Math.floor(n / 10_000)}.${String(n % 10_000).padStart(4, '0')}`;
const p3 = (n: number) => `${Math.floor(n / 1000)}.${String(n % 1000).padStart(3, '0')}`;
const toCents = (value: string) => {
  const negative = value.startsWith('-');
  const [whole, frac = ''] = value.replace('-', '').split('.');
  const cents = BigInt(whole!) * 100n + BigInt((frac + '00').slice(0, 2));
  return negative ? -cents : cents;
};
/** n / d rounded half away from zero, d > 0. */
const roundDiv = (n: bigint, d: bigint) => (n < 0n ? -((-n * 2n + d) / (2n * d)) : (n * 2n + d) / (2n * d));

const caseArb = fc.record({
  price: fc.oneof(fc.integer({ min: 0, max: 2_000_000 }), fc.constantFrom(125, 5_000, 3_333)),
  rate: fc.oneof(fc.integer({ min: 0, max: 100_000 }), fc.constantFrom(0, 20_000, 7_500)),
  children: fc.integer({ min: 1, max: 3 }),
  initial: fc.array(fc.option(fc.integer({ min: 1, max: 100_000 }), { nil: null }), { minLength: 3, maxLength: 3 }),
  ops: fc.array(
    fc.record({
      op: fc.constantFrom('allocate', 'allocate', 'top_up', 'reverse', 'issue'),
      child: fc.nat(),
      cents: fc.integer({ min: 1, max: 100_000 }),
      pick: fc.nat(),
    }),
    { minLength: 1, maxLength: 10 },
  ),
});
type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

interface Line {
  entry_id: string;
  kind: string;
  credits: string;
  amount: string;
  reference: string;
}

/** A reversal after issuing (a credit note) and one before (a negative line), at a price with half cents. */
const BOTH_REVERSALS: Case = {
  price: 125,
  rate: 20_000,
  children: 1,
  initial: [1_234, null, null],
  ops: [
    { op: 'allocate', child: 0, cents: 333, pick: 0 },
    { op: 'issue', child: 0, cents: 1, pick: 0 },
    { op: 'top_up', child: 0, cents: 999, pick: 0 },
    { op: 'reverse', child: 0, cents: 1, pick: 0 },
    { op: 'reverse', child: 0, cents: 1, pick: 0 },
  ],
};

let run = 0;

async function check({ price, rate, children: count, initial, ops }: Case) {
  run++;
  expect((await k.setDetails('A1.admin', 'A1', { ...DETAILS, credit_price: p4(price), tax_rate: p3(rate) })).status).toBe(200);
  const children: string[] = [];
  for (let i = 0; i < count; i++) {
    const child = await insertOrg(db(), { name: `Property ${run}.${i}`, type: 'tenant', parentId: w.id('A1') });
    children.push(child.id);
    const amount = initial[i];
    if (amount) {
      await sql`select 1 from ledger_post(gen_random_uuid(), null, true, array[${w.id('A1')}, ${child.id}]::uuid[],
        array[${p2(-BigInt(amount))}, ${p2(BigInt(amount))}]::numeric[], array['allocation_sent', 'initial_balance'],
        array[${JSON.stringify({ to_org_id: child.id, to_org_name: 'c', notes: 'Initial balance' })}::jsonb,
              ${JSON.stringify({ from_org_id: w.id('A1'), from_org_name: 'Agency One', notes: 'Initial balance' })}::jsonb])`.execute(db());
    }
  }
  /** Movements that may still be reversed, and what each reversal gave back. */
  const reversible: { child: string; group: string }[] = [];
  const reverses = new Map<string, string>();
  /** Transaction groups billed on an issued document. */
  const issuedGroups = new Set<string>();

  const expectTotals = (lines: Line[], doc: { subtotal: string; tax: string; total: string }) => {
    let subtotal = 0n;
    for (const line of lines) {
      const amount = roundDiv(toCents(line.credits) * BigInt(price), 10_000n);
      expect(line.amount).toBe(p2(amount));
      subtotal += amount;
    }
    const tax = roundDiv(subtotal * BigInt(rate), 100_000n);
    expect(doc).toMatchObject({ subtotal: p2(subtotal), tax: p2(tax), total: p2(subtotal + tax) });
  };

  async function issue(child: string) {
    const draft = (await k.drafts('A1.admin', 'A1')).body.drafts.find((d: { buyer: { id: string } }) => d.buyer.id === child);
    const res = await k.issue('A1.admin', 'A1', child);
    if (!draft) {
      expect(res.status).toBe(409);
      return;
    }
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const kinds = res.body.invoices.map((i: { kind: string }) => i.kind);
    expect(kinds).toEqual([...(draft.lines.length ? ['invoice'] : []), ...(draft.credit_lines.length ? ['credit_note'] : [])]);
    for (const summary of res.body.invoices) {
      const detail = (await k.get('A1.admin', summary.id)).body;
      const onCredit = summary.kind === 'credit_note';
      expect(detail.lines).toEqual(onCredit ? draft.credit_lines : draft.lines);
      expectTotals(detail.lines, summary);
      if (!onCredit) expect(summary).toMatchObject({ subtotal: draft.subtotal, tax: draft.tax, total: draft.total });
      else expect(summary.total).toBe(draft.credit_total);
      for (const line of detail.lines as Line[]) {
        // A reversal is credited exactly when what it reversed was issued before.
        if (line.kind === 'reversal') expect(issuedGroups.has(reverses.get(line.reference)!)).toBe(onCredit);
        else expect(onCredit).toBe(false);
      }
    }
    for (const summary of res.body.invoices) {
      for (const line of (await k.get('A1.admin', summary.id)).body.lines as Line[]) issuedGroups.add(line.reference);
    }
  }

  for (const { op, child: pick, cents, pick: which } of ops) {
    const child = children[pick % children.length]!;
    if (op === 'allocate') {
      reversible.push({ child, group: await k.allocate('A1.admin', 'A1', child, p2(BigInt(cents))) });
    } else if (op === 'top_up') {
      const { rows } = await sql<{ id: string }>`select gen_random_uuid() as id`.execute(db());
      const group = rows[0]!.id;
      await sql`select 1 from ledger_post(${group}::uuid, null, true, array[${w.id('A1')}, ${child}]::uuid[],
        array[${p2(-BigInt(cents))}, ${p2(BigInt(cents))}]::numeric[], array['allocation_sent', 'allocation_received'],
        array[${JSON.stringify({ notes: 'Automatic top-up', automatic: true, to_org_id: child, to_org_name: 'c' })}::jsonb,
              ${JSON.stringify({ notes: 'Automatic top-up', automatic: true, from_org_id: w.id('A1'), from_org_name: 'Agency One' })}::jsonb])`.execute(
        db(),
      );
      reversible.push({ child, group });
    } else if (op === 'reverse' && reversible.length > 0) {
      const [target] = reversible.splice(which % reversible.length, 1);
      reverses.set(await k.reverse('A1.admin', target!.group), target!.group);
    } else if (op === 'issue') {
      await issue(child);
    }
  }
  for (const child of children) await issue(child);

  // Every billable entry of these children is on exactly one document, and nothing is left.
  const { rows } = await sql<{ billable: number; lines: number; distinct_lines: number; left: number }>`
    select
      (select count(*)::int from credit_ledger_entries e where e.organization_id = any(${children}::uuid[])
         and e.entry_type in ('allocation_received', 'initial_balance', 'reversal_sent')) as billable,
      (select count(*)::int from invoice_lines l join credit_ledger_entries e on e.id = l.entry_id
         where e.organization_id = any(${children}::uuid[])) as lines,
      (select count(distinct l.entry_id)::int from invoice_lines l join credit_ledger_entries e on e.id = l.entry_id
         where e.organization_id = any(${children}::uuid[])) as distinct_lines,
      (select count(*)::int from unnest(${children}::uuid[]) c, invoice_billable(${w.id('A1')}::uuid, c) b) as left`.execute(db());
  expect(rows[0]!.left).toBe(0);
  expect(rows[0]!.lines).toBe(rows[0]!.billable);
  expect(rows[0]!.distinct_lines).toBe(rows[0]!.billable);
}

beforeAll(async () => {
  await fund(db(), w.id('A1'), '9000000.00');
});

describe('invoices against a model', () => {
  it('bill every movement once, at the documented rounding, as the drafts said', async () => {
    await fc.assert(fc.asyncProperty(caseArb, check), { numRuns: 30, examples: [[BOTH_REVERSALS]] });
    // And the seller's numbers, across every run, have no gap.
    const numbers = await db().selectFrom('invoices').select('number').where('seller_id', '=', w.id('A1')).orderBy('number').execute();
    expect(numbers.map((row) => row.number)).toEqual(numbers.map((_, i) => i + 1));
  }, 300_000);
});
