import { sql } from 'kysely';
import { MESSAGES, mayViewPrices, maySetPrices, type PriceBookItem } from '@console/domain';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import { lockKeyed } from '../../lib/locks.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { tellFlooredSellers } from './floored.ts';
import { bookRows, p, priceFromNow, seller, toItem, type PricingDeps } from './queries.ts';

export function createSetPrice({ db, organizations, mailer }: PricingDeps) {
  /**
   * Sets what the seller's direct children pay for an agent type from now on (null: its own
   * price passes through). Never below its own price. The book is locked against the usage
   * reading it (the `book` lock class), so each event pays exactly one of the two prices, by
   * its time. A child of this seller that sells on and charges its own children less than
   * its new price is told: its children now pay the new price, and its margin is zero.
   */
  async function setPrice(
    caller: Caller,
    id: string,
    agentTypeId: string,
    price: string | null,
    info: ClientInfo,
  ): Promise<{ item: PriceBookItem }> {
    await db.transaction().execute(async (trx) => {
      const org = await organizations.visible(caller, id, trx);
      if (org.org_type === 'house' && mayViewPrices(caller, org)) throw new RuleError(p.houseUsesCatalog, 'house_uses_catalog');
      if (!maySetPrices(caller, org)) throw new ForbiddenError(p.onlyOwnAdmins);
      await lockKeyed(trx, 'book', org.id);
      const [before] = await bookRows(trx, org, agentTypeId);
      if (!before) throw new NotFoundError(MESSAGES.agents.typeNotFound);
      if (before.my_price === null) throw new RuleError(p.noPrice, 'no_price');
      const { rows } = await sql<{ below: boolean }>`select ${price}::numeric < ${before.my_price}::numeric as below`.execute(trx);
      if (price !== null && rows[0]!.below) throw new RuleError(p.belowOwnPrice(before.my_price), 'below_own_price');
      if (price === before.book_price) return;
      await trx
        .insertInto('organization_prices')
        .values({
          organization_id: org.id,
          ...priceFromNow(caller, agentTypeId, price),
        })
        .execute();
      await auditAction(trx, caller, info, {
        organizationId: org.id,
        action: 'pricing.price_set',
        targetType: 'organization',
        targetId: org.id,
        details: { agent: before.code, agent_type_id: agentTypeId, before: before.book_price, after: price },
      });
      // Children that sell on below the new price: their book is now under their own price.
      await tellFlooredSellers(trx, mailer, agentTypeId);
    });
    const org = await seller({ db, organizations }, caller, id);
    const [row] = await bookRows(db, org, agentTypeId);
    return { item: toItem(row!) };
  }

  return { setPrice };
}
