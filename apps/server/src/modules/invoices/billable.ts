import { toCents, fromCents } from '@console/domain';
import { sql } from 'kysely';
import type { InvoiceLine } from '@console/domain';
import type { Executor } from '../../db/schema.ts';

/** A billable entry priced at the seller's billing details as they are now. */
export interface BillableLine extends InvoiceLine {
  buyer_id: string;
  buyer_name: string;
  /** Goes on a credit note: a reversal of credits already on an issued document. */
  on_credit_note: boolean;
}

/**
 * The billable entries of one child of the seller (or of all its direct children), priced now:
 * the one selection (`invoice_billable`) and the one rounding (a line is its credits times the
 * credit price, rounded once to the cent, half away from zero) that both the drafts and the
 * issuing use. Without billing details the price is 0 (the drafts say they are not ready).
 */
export async function billableLines(
  executor: Executor,
  sellerId: string,
  buyerId: string | null,
  before: Date | null = null,
): Promise<BillableLine[]> {
  const { rows } = await sql<BillableLine>`
    select c.id as buyer_id, c.name as buyer_name, b.entry_id, b.occurred_at, b.kind, b.description,
      b.credits::numeric(16, 2)::text as credits,
      coalesce(d.credit_price, 0)::numeric(12, 4)::text as unit_price,
      round(b.credits * coalesce(d.credit_price, 0), 2)::numeric(18, 2)::text as amount,
      b.reference, b.on_credit_note
    from organizations c
    cross join lateral invoice_billable(${sellerId}::uuid, c.id, ${before ? before.toISOString() : null}::timestamptz) b
    left join billing_details d on d.organization_id = ${sellerId}::uuid
    where c.parent_org_id = ${sellerId}::uuid
      and (${buyerId}::uuid is null or c.id = ${buyerId}::uuid)
    order by c.name, c.id, b.seq`.execute(executor);
  return rows;
}

/** Subtotal, tax and total of a document's lines: tax = subtotal × rate / 100, rounded once to the cent (half away from zero). */
export function totalsOf(amounts: readonly string[], taxRate: string): { subtotal: string; tax: string; total: string } {
  const subtotal = amounts.reduce((sum, amount) => sum + toCents(amount), 0n);
  // The rate has at most 3 decimals: in thousandths of a percent, tax = subtotal × milli / 100 000.
  const [whole = '0', frac = ''] = taxRate.split('.');
  const milli = BigInt(whole) * 1000n + BigInt((frac + '000').slice(0, 3));
  const product = subtotal * milli;
  const negative = product < 0n;
  const abs = negative ? -product : product;
  const rounded = (abs + 50_000n) / 100_000n;
  const tax = negative ? -rounded : rounded;
  return { subtotal: fromCents(subtotal), tax: fromCents(tax), total: fromCents(subtotal + tax) };
}

/** A billable line as the contract shows it. */
export const asLine = ({ buyer_id: _b, buyer_name: _n, on_credit_note: _c, ...line }: BillableLine): InvoiceLine => line;

/** The month ("YYYY-MM") of a draft: that of its earliest line. */
export const periodOf = (lines: readonly BillableLine[]): string =>
  lines.reduce((min, line) => (line.occurred_at < min ? line.occurred_at : min), lines[0]!.occurred_at).slice(0, 7);
