import { maySetPrices, type PriceBook } from '@console/domain';
import type { Caller } from '../../lib/caller.ts';
import { bookRows, seller, toItem, type PricingDeps } from './queries.ts';

export function createBook(deps: Pick<PricingDeps, 'db' | 'organizations'>) {
  /** The seller's book now: per agent type its own price, its book price, what its children pay and the margin. */
  async function book(caller: Caller, id: string): Promise<PriceBook> {
    const org = await seller(deps, caller, id);
    const rows = await bookRows(deps.db, org);
    return { organization_id: org.id, catalog: org.org_type === 'house', can_edit: maySetPrices(caller, org), items: rows.map(toItem) };
  }

  return { book };
}
