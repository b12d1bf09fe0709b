import { sql, type Kysely } from 'kysely';
import { MESSAGES, mayViewPrices, type PriceBookItem } from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError } from '../../lib/errors.ts';
import type { Mailer } from '../../lib/mail.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';

export const p = MESSAGES.pricing;

export interface BookRow {
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
export async function bookRows(executor: Executor, org: { id: string; org_type: string }, agentTypeId?: string): Promise<BookRow[]> {
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

export const toItem = (row: BookRow): PriceBookItem => ({
  agent_type: { id: row.id, code: row.code, name: row.name, unit: row.unit, status: row.status },
  my_price: row.my_price,
  book_price: row.book_price,
  children_price: row.children_price,
  margin: row.margin,
  floored: row.floored,
});

/** What every use case of the price books is made with. */
export interface PricingDeps {
  db: Kysely<DB>;
  organizations: OrganizationsService;
  mailer: Mailer;
}

/** The organization whose prices the caller reads: in its read scope, and the caller one of those who see its prices (403 otherwise). */
export async function seller({ db, organizations }: Pick<PricingDeps, 'db' | 'organizations'>, caller: Caller, id: string) {
  const org = await organizations.visible(caller, id, db);
  if (!mayViewPrices(caller, org)) throw new ForbiddenError(p.onlyOwn);
  return org;
}

/** The columns every price row shares: the agent type, the price, from this moment, and who set it. */
export const priceFromNow = (caller: Caller, agentTypeId: string, price: string | null) => ({
  agent_type_id: agentTypeId,
  price,
  effective_from: sql<Date>`clock_timestamp()`,
  created_by: caller.userId,
});
