import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sql } from 'kysely';
import { STATEMENT_GROUP_KINDS } from '@console/domain';
import { balanceOf } from '../../test/books.ts';
import { PASSWORD, insertOrg, insertUser } from '../../test/fixtures.ts';
import { useWorld } from '../../test/harness.ts';
import { insertAgentType } from '../../test/usage-rows.ts';

/**
 * Property: whatever moved, a statement closes to the ledger. Each run makes an agency of its
 * own with two tenants and posts random movements through the one ledger writer, last month's
 * dated in it (in order, before this month's): allocations and top-ups (some marked automatic
 * on the received side only, as the pairing must still find), reversals, adjustments,
 * consumption by agent with units, refunds of it, earnings through either tenant. The agency's
 * own admin then reads both months' statements of the three organizations, which must equal a
 * model computed here from the entries read back, and the month under way must close to the
 * stored balance.
 */
const w = useWorld({ topUpPollMs: 3_600_000 });
const db = () => w.t.database.db;

const now = new Date();
const monthOf = (offset: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1)).toISOString().slice(0, 7);
const [M0, M1] = [monthOf(0), monthOf(-1)];
const START = { [M1]: `${M1}-01T00:00:00.000Z`, [M0]: `${M0}-01T00:00:00.000Z` } as Record<string, string>;

const OPS = ['allocate', 'top_up', 'top_up_received_only', 'reverse', 'increase', 'decrease', 'consume', 'refund', 'earn'] as const;
interface Op {
  last: boolean;
  op: (typeof OPS)[number];
  tenant: 0 | 1;
  cents: number;
  units: number;
  agent: 0 | 1;
}
const opArb: fc.Arbitrary<Op> = fc.record({
  last: fc.boolean(),
  op: fc.constantFrom(...OPS),
  tenant: fc.constantFrom(0 as const, 1 as const),
  cents: fc.integer({ min: 1, max: 20_000 }),
  units: fc.integer({ min: 1, max: 5_000_000 }),
  agent: fc.constantFrom(0 as const, 1 as const),
});

interface Posting {
  org: string;
  amount: string;
  type: string;
  meta: Record<string, unknown>;
  ref?: string;
  refundOf?: string;
  agent?: string;
  units?: string;
}

const amount = (cents: bigint) =>
  `${cents < 0n ? '-' : ''}${(cents < 0n ? -cents : cents) / 100n}.${String((cents < 0n ? -cents : cents) % 100n).padStart(2, '0')}`;
const toCents = (text: string) => (text.startsWith('-') ? -1n : 1n) * BigInt(text.replace('-', '').replace('.', ''));
const units4 = (text: string) => BigInt(text.replace('.', ''));

async function post(postings: Posting[], at: Date | null) {
  const column = <T>(pick: (p: Posting) => T) => postings.map(pick);
  await db()
    .transaction()
    .execute(async (trx) => {
      if (at) await sql`select set_config('console.ledger_at', ${at.toISOString()}, true)`.execute(trx);
      await sql`select 1 from ledger_post(gen_random_uuid(), null, false, ${column((p) => p.org)}::uuid[], ${column((p) => p.amount)}::numeric[],
          ${column((p) => p.type)}::text[], ${column((p) => JSON.stringify(p.meta))}::jsonb[], ${column((p) => p.ref ?? null)}::text[],
          ${column((p) => p.refundOf ?? null)}::text[], ${column((p) => p.agent ?? null)}::uuid[], ${column((p) => p.units ?? null)}::numeric[])`.execute(
        trx,
      );
    });
}

interface Entry {
  entry_type: string;
  amount: string;
  balance_after: string;
  metadata: Record<string, any>;
  transaction_group: string;
  agent_type_id: string | null;
  units: string | null;
  external_ref: string | null;
  refund_of: string | null;
  created_at: string;
  code: string;
}

/** The statement as the documented rules make it, from the organization's entries read back. */
function model(entries: Entry[], all: Entry[], month: string, names: Map<string, string>) {
  const start = Date.parse(START[month]!);
  const end = month === M0 ? Number.POSITIVE_INFINITY : Date.parse(START[M0]!);
  const before = entries.filter((e) => Date.parse(e.created_at) < start);
  const upToEnd = entries.filter((e) => Date.parse(e.created_at) < end);
  const inside = upToEnd.filter((e) => Date.parse(e.created_at) >= start);
  const groups = new Map<
    string,
    { kind: string; counterparty: string | null; agent: string | null; units: bigint | null; entries: number; cents: bigint }
  >();
  for (const e of inside) {
    const automatic = (x: Entry) => x.metadata.automatic === true;
    const pair = () => all.find((x) => x.transaction_group === e.transaction_group && x.entry_type === 'allocation_received')!;
    const kind =
      e.entry_type === 'allocation_received' && automatic(e)
        ? 'top_up_received'
        : e.entry_type === 'allocation_sent' && ('automatic' in e.metadata ? automatic(e) : automatic(pair()))
          ? 'top_up_sent'
          : e.entry_type;
    const counterparty =
      e.metadata.from_org_id ?? e.metadata.to_org_id ?? (e.entry_type === 'earning' ? (e.metadata.child_id ?? null) : null);
    const agent =
      e.entry_type === 'consumption'
        ? e.agent_type_id
        : e.entry_type === 'refund'
          ? (all.find((x) => x.entry_type === 'consumption' && x.external_ref === e.refund_of)?.agent_type_id ?? null)
          : null;
    const key = `${kind}|${counterparty}|${agent}`;
    const group = groups.get(key) ?? { kind, counterparty, agent, units: null, entries: 0, cents: 0n };
    if (e.entry_type === 'consumption') group.units = (group.units ?? 0n) + units4(e.units!);
    group.entries += 1;
    group.cents += toCents(e.amount);
    groups.set(key, group);
  }
  const unitPrice = (cents: bigint, units: bigint) => {
    // round(|amount| / units, 6), half away from zero: amount in cents, units in ten-thousandths.
    const scaled = ((cents < 0n ? -cents : cents) * 100_000_000n * 2n + units) / (2n * units);
    return `${scaled / 1_000_000n}.${String(scaled % 1_000_000n).padStart(6, '0')}`;
  };
  return {
    opening: before.at(-1)?.balance_after ?? '0.00',
    closing: upToEnd.at(-1)?.balance_after ?? '0.00',
    code: upToEnd.at(-1)?.code ?? null,
    entries: inside.length,
    groups: [...groups.values()]
      .map((g) => ({
        kind: g.kind,
        counterparty: g.counterparty ? { id: g.counterparty, name: names.get(g.counterparty)! } : null,
        agent: g.agent ? { id: g.agent, name: names.get(g.agent)! } : null,
        units: g.units === null ? null : `${g.units / 10_000n}.${String(g.units % 10_000n).padStart(4, '0')}`,
        unit_price: g.units !== null && g.units > 0n ? unitPrice(g.cents, g.units) : null,
        entries: g.entries,
        amount: amount(g.cents),
      }))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
  };
}

let agents: { id: string; code: string }[];
let run = 0;

beforeAll(async () => {
  agents = [await insertAgentType(db(), 'prop-a'), await insertAgentType(db(), 'prop-b')];
});

async function check(ops: Op[]) {
  run += 1;
  const agency = await insertOrg(db(), { name: `Prop Agency ${run}`, type: 'agency', parentId: w.id('SA1') });
  const tenants = [
    await insertOrg(db(), { name: `Prop Tenant ${run}a`, type: 'tenant', parentId: agency.id }),
    await insertOrg(db(), { name: `Prop Tenant ${run}b`, type: 'tenant', parentId: agency.id }),
  ];
  const names = new Map<string, string>([
    [agency.id, `Prop Agency ${run}`],
    [tenants[0]!.id, `Prop Tenant ${run}a`],
    [tenants[1]!.id, `Prop Tenant ${run}b`],
    ...agents.map((a) => [a.id, `Agent ${a.code}`] as [string, string]),
  ]);
  const email = `prop-${run}@agency.test`;
  await insertUser(db(), { email, password: PASSWORD, role: 'agency_admin', organizationId: agency.id });

  // Last month's first (each a minute after the one before), then this month's, as dates follow postings.
  const ordered = [
    { ...ops[0]!, last: true, op: 'increase' as const, cents: 500_000 },
    ...ops.filter((o) => o.last),
    ...ops.filter((o) => !o.last),
  ];
  const balance = new Map<string, bigint>([
    [agency.id, 0n],
    [tenants[0]!.id, 0n],
    [tenants[1]!.id, 0n],
  ]);
  const consumed: { ref: string; org: string; left: bigint }[] = [];
  let minute = 0;
  for (const [n, o] of ordered.entries()) {
    const a = agency.id;
    const t = tenants[o.tenant]!.id;
    const x = BigInt(o.cents);
    const to = { to_org_id: t, to_org_name: names.get(t) };
    const from = { from_org_id: a, from_org_name: names.get(a) };
    const postings: Posting[] = [];
    const has = (org: string) => balance.get(org)! >= x;
    if (o.op === 'allocate' && has(a)) {
      postings.push(
        { org: a, amount: amount(-x), type: 'allocation_sent', meta: to },
        { org: t, amount: amount(x), type: 'allocation_received', meta: from },
      );
    } else if ((o.op === 'top_up' || o.op === 'top_up_received_only') && has(a)) {
      const sentMeta = o.op === 'top_up' ? { ...to, automatic: true } : to;
      postings.push(
        { org: a, amount: amount(-x), type: 'allocation_sent', meta: sentMeta },
        { org: t, amount: amount(x), type: 'allocation_received', meta: { ...from, automatic: true } },
      );
    } else if (o.op === 'reverse' && has(t)) {
      const link = { reverses_transaction_id: crypto.randomUUID(), reason: 'property' };
      postings.push(
        { org: t, amount: amount(-x), type: 'reversal_sent', meta: { ...link, to_org_id: a, to_org_name: names.get(a) } },
        { org: a, amount: amount(x), type: 'reversal_received', meta: { ...link, from_org_id: t, from_org_name: names.get(t) } },
      );
    } else if (o.op === 'increase') {
      postings.push({ org: a, amount: amount(x), type: 'adjustment_increase', meta: { reason: 'property' } });
    } else if (o.op === 'decrease' && has(a)) {
      postings.push({ org: a, amount: amount(-x), type: 'adjustment_decrease', meta: { reason: 'property' } });
    } else if (o.op === 'consume' && has(t)) {
      const ref = `c-${run}-${n}`;
      consumed.push({ ref, org: t, left: x });
      const units = `${Math.floor(o.units / 10_000)}.${String(o.units % 10_000).padStart(4, '0')}`;
      postings.push({ org: t, amount: amount(-x), type: 'consumption', meta: {}, ref, agent: agents[o.agent]!.id, units });
    } else if (o.op === 'refund') {
      const of = consumed.find((c) => c.org === t && c.left > 0n);
      if (of) {
        const back = x < of.left ? x : of.left;
        of.left -= back;
        postings.push({
          org: t,
          amount: amount(back),
          type: 'refund',
          meta: { refund_of: of.ref },
          ref: `r-${run}-${n}`,
          refundOf: of.ref,
        });
      }
    } else if (o.op === 'earn') {
      const units = `${o.units % 1000}.0000`;
      postings.push({
        org: a,
        amount: amount(x),
        type: 'earning',
        meta: { child_id: t, child_name: names.get(t) },
        agent: agents[o.agent]!.id,
        units: units === '0.0000' ? '1.0000' : units,
      });
    }
    if (postings.length === 0) continue;
    for (const p of postings) balance.set(p.org, balance.get(p.org)! + toCents(p.amount));
    await post(postings, o.last ? new Date(Date.parse(START[M1]!) + 60_000 * ++minute) : null);
  }

  const token = (await w.t.signIn(email, PASSWORD)).token;
  const { rows: all } = await sql<Entry>`
    select entry_type, amount::text, balance_after::text, metadata, transaction_group, agent_type_id, units::text, external_ref, refund_of,
           to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_at, encode(hash, 'hex') as code,
           organization_id
    from credit_ledger_entries where organization_id in (${agency.id}, ${tenants[0]!.id}, ${tenants[1]!.id})
    order by created_at, seq`.execute(db());
  for (const org of [agency.id, tenants[0]!.id, tenants[1]!.id]) {
    const entries = all.filter((e) => (e as unknown as { organization_id: string }).organization_id === org);
    for (const month of [M1, M0]) {
      const response = await w.t.request('GET', `/api/organizations/${org}/statements/${month}`, undefined, { token });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const body = response.body;
      const expected = model(entries, all, month, names);
      expect(body.opening_balance).toBe(expected.opening);
      expect(body.closing_balance).toBe(expected.closing);
      expect(body.entries).toBe(expected.entries);
      expect(body.verification_code).toBe(expected.code);
      expect([...body.groups].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual(expected.groups);
      const kinds = body.groups.map((g: { kind: (typeof STATEMENT_GROUP_KINDS)[number] }) => STATEMENT_GROUP_KINDS.indexOf(g.kind));
      expect(kinds).toEqual([...kinds].sort((p, q) => p - q));
      const sum = body.groups.reduce((total: bigint, g: { amount: string }) => total + toCents(g.amount), 0n);
      expect(toCents(body.opening_balance) + sum).toBe(toCents(body.closing_balance));
      expect(toCents(body.credits_in) + toCents(body.credits_out)).toBe(sum);
    }
    const current = await w.t.request('GET', `/api/organizations/${org}/statements/${M0}`, undefined, { token });
    expect(current.body.closing_balance).toBe(await balanceOf(db(), org));
    expect(toCents(current.body.closing_balance)).toBe(balance.get(org));
  }
}

describe('statements, property-tested', () => {
  it('close to the ledger: opening + groups = closing = the balance, and the groups are the model of the entries', async () => {
    await fc.assert(fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), check), { numRuns: 30 });
  }, 600_000);
});
