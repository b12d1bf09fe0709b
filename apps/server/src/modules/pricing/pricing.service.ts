import { sql, type Kysely } from 'kysely';
import { MESSAGES, PAGING, mayViewPrices, maySetPrices, type Earnings, type PriceBook, type PriceBookItem } from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import type { Mailer } from '../../lib/mail.ts';
import { lockKeyed } from '../../lib/locks.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import { createChildPrices } from './child-prices.ts';
import { tellFlooredSellers } from './floored.ts';

const p = MESSAGES.pricing;

interface BookRow {
  id: string;
  code: string;
  name: string;
  unit: string;
  status: 'active' | 'retired';
  my_price: string | null;
  book_price: string | null;
  children_price: string | null;
  margin: string | null;
  floored: boolean;
}

/**
 * One seller's book now, per agent type (or one type): its own price, the book price it set,
 * what its children pay (the greater of the two) and the margin. The house's children pay
 * the catalog: its own price and theirs are the catalog price, with no margin.
 */
async function bookRows(executor: Executor, org: { id: string; org_type: string }, agentTypeId?: string): Promise<BookRow[]> {
  const house = org.org_type === 'house';
  const { rows } = await sql<BookRow>`
    select t.id, t.code, t.name, t.unit, t.status,
           x.own::numeric(14, 4)::text as my_price,
           x.book::numeric(14, 4)::text as book_price,
           x.children::numeric(14, 4)::text as children_price,
           case when ${house} then null else (x.children - x.own)::numeric(14, 4)::text end as margin,
           coalesce(x.book < x.own, false) as floored
    from agent_types t
    cross join lateral (
      select own.price as own, bp.price as book, case when own.price is null then null else greatest(own.price, bp.price) end as children
      from (select organization_price(${org.id}::uuid, t.id, now()) as price) own
      left join lateral (
        select b.price from organization_prices b
        where ${!house} and b.organization_id = ${org.id}::uuid and b.agent_type_id = t.id and b.effective_from <= now()
        order by b.effective_from desc limit 1
      ) bp on true
    ) x
    where ${agentTypeId ?? null}::uuid is null or t.id = ${agentTypeId ?? null}::uuid
    order by t.status, t.name, t.id`.execute(executor);
  return rows;
}

const toItem = (row: BookRow): PriceBookItem => ({
  agent_type: { id: row.id, code: row.code, name: row.name, unit: row.unit, status: row.status },
  my_price: row.my_price,
  book_price: row.book_price,
  children_price: row.children_price,
  margin: row.margin,
  floored: row.floored,
});

/** Price books (what each seller's children pay) and the earnings they bring. */
export function createPricingService({
  db,
  organizations,
  mailer,
}: {
  db: Kysely<DB>;
  organizations: OrganizationsService;
  mailer: Mailer;
}) {
  async function seller(caller: Caller, id: string, executor: Executor = db) {
    const org = await organizations.visible(caller, id, executor);
    if (!mayViewPrices(caller, org)) throw new ForbiddenError(p.onlyOwn);
    return org;
  }

  return {
    /** Mails the sellers whose book a catalog price change just overtook (the catalog calls it in its transaction). */
    tellFlooredSellers: (executor: Executor, agentTypeId: string) => tellFlooredSellers(executor, mailer, agentTypeId),

    /** The seller's prices for single direct children (list, set, clear). */
    childPrices: createChildPrices({ db, organizations, mailer }),

    async book(caller: Caller, id: string): Promise<PriceBook> {
      const org = await seller(caller, id);
      const rows = await bookRows(db, org);
      return { organization_id: org.id, catalog: org.org_type === 'house', can_edit: maySetPrices(caller, org), items: rows.map(toItem) };
    },

    /**
     * Sets what the seller's direct children pay for an agent type from now on (null: its own
     * price passes through). Never below its own price. The book is locked against the usage
     * reading it (the `book` lock class), so each event pays exactly one of the two prices, by
     * its time. A child of this seller that sells on and charges its own children less than
     * its new price is told: its children now pay the new price, and its margin is zero.
     */
    async setPrice(
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
            agent_type_id: agentTypeId,
            price,
            effective_from: sql<Date>`clock_timestamp()`,
            created_by: caller.userId,
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
      const org = await seller(caller, id);
      const [row] = await bookRows(db, org, agentTypeId);
      return { item: toItem(row!) };
    },

    /** The book's changes and the child prices' changes, newest first. */
    async history(caller: Caller, id: string, page: number) {
      const org = await seller(caller, id);
      const pageSize = PAGING.ledgerPageSize;
      const [items, total] = await Promise.all([
        sql<{
          id: string;
          agent_type_id: string;
          code: string;
          name: string;
          child_id: string | null;
          child_name: string | null;
          price: string | null;
          effective_from: string;
          changed_by: string | null;
        }>`
          select b.id, t.id as agent_type_id, t.code, t.name, b.child_id, c.name as child_name, b.price::numeric(14, 4)::text as price,
                 to_char(b.effective_from at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as effective_from, coalesce(nullif(concat_ws(' ', u.first_name, u.last_name), ''), u.email) as changed_by
          from (
            select id, agent_type_id, null::uuid as child_id, price, effective_from, created_by from organization_prices where organization_id = ${org.id}::uuid
            union all
            select id, agent_type_id, child_id, price, effective_from, created_by from organization_child_prices where organization_id = ${org.id}::uuid
          ) b
          join agent_types t on t.id = b.agent_type_id
          left join organizations c on c.id = b.child_id
          left join users u on u.id = b.created_by
          order by b.effective_from desc, b.id desc
          limit ${pageSize} offset ${(page - 1) * pageSize}`.execute(db),
        sql<{ n: string }>`
          select ((select count(*) from organization_prices where organization_id = ${org.id}::uuid)
                + (select count(*) from organization_child_prices where organization_id = ${org.id}::uuid))::text as n`.execute(db),
      ]);
      return {
        items: items.rows.map((row) => ({
          id: row.id,
          agent_type: { id: row.agent_type_id, code: row.code, name: row.name },
          child: row.child_id === null ? null : { id: row.child_id, name: row.child_name ?? '' },
          price: row.price,
          effective_from: row.effective_from,
          changed_by: row.changed_by,
        })),
        total: Number(total.rows[0]!.n),
        page,
        page_size: pageSize,
      };
    },

    /** What the seller earned this calendar month (UTC), by the child it came through and by agent. */
    async earnings(caller: Caller, id: string): Promise<Earnings> {
      const org = await seller(caller, id);
      const month = sql`(date_trunc('month', now() at time zone 'UTC') at time zone 'UTC')`;
      const [byChild, byAgent, head] = await Promise.all([
        sql<{ organization_id: string; name: string; amount: string }>`
          select e.child as organization_id, coalesce(o.name, 'Unknown') as name, e.amount::numeric(16, 2)::text as amount
          from (
            select (metadata->>'child_id')::uuid as child, sum(amount) as amount from credit_ledger_entries
            where organization_id = ${org.id}::uuid and entry_type = 'earning' and created_at >= ${month}
            group by 1
          ) e left join organizations o on o.id = e.child
          order by e.amount desc, name`.execute(db),
        sql<{ agent_type_id: string; code: string; name: string; amount: string }>`
          select t.id as agent_type_id, t.code, t.name, e.amount::numeric(16, 2)::text as amount
          from (
            select agent_type_id, sum(amount) as amount from credit_ledger_entries
            where organization_id = ${org.id}::uuid and entry_type = 'earning' and created_at >= ${month}
            group by 1
          ) e join agent_types t on t.id = e.agent_type_id
          order by e.amount desc, t.name`.execute(db),
        sql<{ month: string }>`select to_char(now() at time zone 'UTC', 'YYYY-MM') as month`.execute(db),
      ]);
      const total = byAgent.rows.reduce((sum, row) => sum + BigInt(row.amount.replace('.', '')), 0n);
      const cents = total.toString().padStart(3, '0');
      return {
        month: head.rows[0]!.month,
        total: `${cents.slice(0, -2)}.${cents.slice(-2)}`,
        by_child: byChild.rows,
        by_agent: byAgent.rows,
      };
    },
  };
}

export type PricingService = ReturnType<typeof createPricingService>;
