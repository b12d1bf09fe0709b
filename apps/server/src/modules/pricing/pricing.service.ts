import type { Executor } from '../../db/schema.ts';
import { createBook } from './book.ts';
import { createChildPrices } from './child-prices.ts';
import { createEarnings } from './earnings.ts';
import { tellFlooredSellers } from './floored.ts';
import { createHistory } from './history.ts';
import { createPaidHistory } from './paid-history.ts';
import type { PricingDeps } from './queries.ts';
import { createSetPrice } from './set-price.ts';

/** Price books (what each seller's children pay) and the earnings they bring. */
export function createPricingService(deps: PricingDeps) {
  const { book } = createBook(deps);
  const { setPrice } = createSetPrice(deps);
  const { history } = createHistory(deps);
  const { paidHistory } = createPaidHistory(deps);
  const { earnings } = createEarnings(deps);
  return {
    /** Mails the sellers whose book a catalog price change just overtook (the catalog calls it in its transaction). */
    tellFlooredSellers: (executor: Executor, agentTypeId: string) => tellFlooredSellers(executor, deps.mailer, agentTypeId),

    /** The seller's prices for single direct children (list, set, clear). */
    childPrices: createChildPrices(deps),

    book,
    setPrice,
    history,
    paidHistory,
    earnings,
  };
}

export type PricingService = ReturnType<typeof createPricingService>;
