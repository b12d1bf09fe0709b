import { sql, type Kysely } from 'kysely';
import { MESSAGES, mayViewPrices, maySetChildPrice, maySetPrices, type ChildPrice, type ChildPrices } from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import type { Mailer } from '../../lib/mail.ts';
import { lockKeyed } from '../../lib/locks.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import { tellFlooredSellers } from './floored.ts';
import { priceFromNow } from './queries.ts';

const p = MESSAGES.pricing;

interface ChildPriceRow {
  child_id: string;
  child_name: string;
  id: string;
  code: string;
  name: string;
  unit: string;
  status: 'active' | 'retired';
  price: string;
  child_pays: string | null;
  my_price: string | null;
  floored: boolean;
  effective_from: string;
}

/**
 * The seller's child prices in force now, for its live direct children: the newest row per
 * child and agent type, unless it removed the price. What the child pays is its own price (the
 * price chain, which reads the child price), and the seller's own price is the floor.
 */
async function childPriceRows(executor: Executor, sellerId: string): Promise<ChildPriceRow[]> {
  const { rows } = await sql<ChildPriceRow>`
    with cur as (
      select distinct on (cp.child_id, cp.agent_type_id) cp.child_id, cp.agent_type_id, cp.price, cp.effective_from
      from organization_child_prices cp
      where cp.organization_id = ${sellerId}::uuid and cp.effective_from <= now()
      order by cp.child_id, cp.agent_type_id, cp.effective_from desc
    )
    select c.id as child_id, c.name as child_name, t.id, t.code, t.name, t.unit, t.status,
           cur.price::numeric(14, 4)::text as price,
           organization_price(c.id, t.id, now())::numeric(14, 4)::text as child_pays,
           own.price::numeric(14, 4)::text as my_price,
           coalesce(cur.price < own.price, false) as floored,
           to_char(cur.effective_from at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as effective_from
    from cur
    join organizations c on c.id = cur.child_id and c.parent_org_id = ${sellerId}::uuid and c.deleted_at is null
    join agent_types t on t.id = cur.agent_type_id
    cross join lateral (select organization_price(${sellerId}::uuid, t.id, now()) as price) own
    where cur.price is not null
    order by c.name, c.id, t.status, t.name, t.id`.execute(executor);
  return rows;
}

const toItem = (row: ChildPriceRow): ChildPrice => ({
  child: { id: row.child_id, name: row.child_name },
  agent_type: { id: row.id, code: row.code, name: row.name, unit: row.unit, status: row.status },
  price: row.price,
  child_pays: row.child_pays,
  my_price: row.my_price,
  floored: row.floored,
  effective_from: row.effective_from,
});

/**
 * Child prices: a seller's price for one direct child and agent type, in place of its book for
 * that child's subtree. Each change is a row appended to organization_child_prices (a removal is
 * a row with no price), so the history stays whole and the usage engine prices an event by the
 * row in force at its time.
 */
export function createChildPrices({ db, organizations, mailer }: { db: Kysely<DB>; organizations: OrganizationsService; mailer: Mailer }) {
  async function list(caller: Caller, id: string): Promise<ChildPrices> {
    const org = await organizations.visible(caller, id);
    if (!mayViewPrices(caller, org)) throw new ForbiddenError(p.onlyOwn);
    const house = org.org_type === 'house';
    const [rows, children] = await Promise.all([
      house ? [] : childPriceRows(db, org.id),
      house
        ? []
        : db
            .selectFrom('organizations')
            .select(['id', 'name'])
            .where('parent_org_id', '=', org.id)
            .where('deleted_at', 'is', null)
            .orderBy('name')
            .orderBy('id')
            .execute(),
    ]);
    return { organization_id: org.id, can_edit: maySetPrices(caller, org), children, items: rows.map(toItem) };
  }

  /**
   * Appends a child price row (a price, or null to remove it) after the checks: the seller's
   * admins, a live direct child, a priced active agent type, and never below the seller's own
   * price. The book's lock is held as a book change holds it (the `book` lock class), so every
   * event pays the price before or the price after, by its time.
   */
  async function change(caller: Caller, id: string, childId: string, agentTypeId: string, price: string | null, info: ClientInfo) {
    await db.transaction().execute(async (trx) => {
      const org = await organizations.visible(caller, id, trx);
      if (org.org_type === 'house' && mayViewPrices(caller, org)) throw new RuleError(p.houseUsesCatalog, 'house_uses_catalog');
      if (!maySetPrices(caller, org)) throw new ForbiddenError(p.onlyOwnAdmins);
      const child = await trx
        .selectFrom('organizations')
        .select(['id', 'name', 'parent_org_id'])
        .where('id', '=', childId)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (!child || !maySetChildPrice(caller, org, child)) throw new RuleError(p.notDirectChild, 'not_direct_child');
      await lockKeyed(trx, 'book', org.id);
      const { rows } = await sql<{ code: string; status: string; own: string | null; before: string | null; below: boolean }>`
        select t.code, t.status, own.price::numeric(14, 4)::text as own,
               (select cp.price::numeric(14, 4)::text from organization_child_prices cp
                where cp.organization_id = ${org.id}::uuid and cp.child_id = ${child.id}::uuid and cp.agent_type_id = t.id
                order by cp.effective_from desc limit 1) as before,
               coalesce(${price}::numeric < own.price, false) as below
        from agent_types t
        cross join lateral (select organization_price(${org.id}::uuid, t.id, now()) as price) own
        where t.id = ${agentTypeId}::uuid`.execute(trx);
      const row = rows[0];
      if (!row) throw new NotFoundError(MESSAGES.agents.typeNotFound);
      if (price !== null) {
        if (row.own === null) throw new RuleError(p.noPrice, 'no_price');
        if (row.status !== 'active') throw new RuleError(p.retired, 'retired');
        if (row.below) throw new RuleError(p.childBelowOwnPrice(row.own), 'below_own_price');
      }
      if (price === row.before) return;
      await trx
        .insertInto('organization_child_prices')
        .values({
          organization_id: org.id,
          child_id: child.id,
          ...priceFromNow(caller, agentTypeId, price),
        })
        .execute();
      await auditAction(trx, caller, info, {
        organizationId: org.id,
        action: 'pricing.child_price_set',
        targetType: 'organization',
        targetId: child.id,
        details: { agent: row.code, agent_type_id: agentTypeId, child_id: child.id, before: row.before, after: price },
      });
      // A child that sells on below its new price: its book is now under its own price.
      await tellFlooredSellers(trx, mailer, agentTypeId);
    });
    return list(caller, id);
  }

  return {
    list,
    set: (caller: Caller, id: string, childId: string, agentTypeId: string, price: string, info: ClientInfo) =>
      change(caller, id, childId, agentTypeId, price, info),
    clear: (caller: Caller, id: string, childId: string, agentTypeId: string, info: ClientInfo) =>
      change(caller, id, childId, agentTypeId, null, info),
  };
}
