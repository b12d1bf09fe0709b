import { formatAmount } from './format-amount.ts';
import type { OrganizationFacts } from './policy.ts';
import { mayViewMarginsOf, mayViewPricePaidBy, type Viewer } from './policy-prices.ts';
import type { LedgerRow } from './schemas/credits.ts';

/**
 * What of one organization's prices and earnings a viewer is shown, by the margins rule
 * (`mayViewMarginsOf`, `mayViewPricePaidBy`): decided once per organization read and applied
 * to each of its rows by the server before anything leaves it, so the console shows what it
 * was sent and every read (page, export, machine API) withholds the same things.
 */
export interface PricingView {
  /** The price per unit the organization pays: on its usage events, consumption entries, activations and entitlements. */
  prices: boolean;
  /** Its margins: its earnings in detail (margin, units, child, agent) and its price changes. */
  margins: boolean;
}

export function pricingViewOf(viewer: Viewer, org: Pick<OrganizationFacts, 'id' | 'parent_org_id'>): PricingView {
  return { prices: mayViewPricePaidBy(viewer, org), margins: mayViewMarginsOf(viewer, org) };
}

/**
 * A ledger row as the view allows. An earning seen from above keeps its amount and balance
 * (the balance, which every viewer of the ledger reads, moves by it) and loses its margin,
 * units, child and agent. A consumption seen from above the organization's seller loses its
 * price per unit; its charge, units and agent stay: what was spent and used.
 */
export function ledgerRowAsSeen<T extends LedgerRow>(row: T, view: PricingView): T {
  if (row.entry_type === 'earning') return view.margins ? row : { ...row, metadata: {}, agent_type_id: null, units: null };
  if (view.prices || !('price' in row.metadata)) return row;
  const { price: _price, ...metadata } = row.metadata;
  return { ...row, metadata };
}

/** The sentence of an earning seen from above: what it came to, and nothing of how. */
export const earningFromAboveSentence = (amount: string): string => `Earned ${formatAmount(amount)} credits on its children's usage`;

/** A usage event as the view allows: its price per unit only where prices show (its charge and units always). */
export function usageEventAsSeen<T extends { price: string | null }>(event: T, view: Pick<PricingView, 'prices'>): T {
  return view.prices ? event : { ...event, price: null };
}

/** The audit actions whose before and after are a seller's prices (its book, or one child's price). */
const PRICE_ACTIONS = new Set(['pricing.price_set', 'pricing.child_price_set']);

/**
 * An audit row's details as the viewer may read them. A price change's before and after are
 * the seller's book (or its price for one child), and so its margins: from above only which
 * agent's price changed shows.
 */
export function activityDetailsAsSeen(
  viewer: Viewer,
  row: { action: string; organization_id: string | null; details: Record<string, unknown> },
): Record<string, unknown> {
  if (!PRICE_ACTIONS.has(row.action) || (row.organization_id !== null && mayViewMarginsOf(viewer, { id: row.organization_id })))
    return row.details;
  const { before: _before, after: _after, ...details } = row.details;
  return details;
}
