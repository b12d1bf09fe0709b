import { sql } from 'kysely';
import { ALERT_REPEAT_HOURS, MESSAGES } from '@console/domain';
import type { Executor } from '../../db/schema.ts';
import { activeAdmins } from '../../lib/admins.ts';
import type { Mailer } from '../../lib/mail.ts';
import { countHit } from '../../lib/rate-limit.ts';

const p = MESSAGES.pricing;

/**
 * Tells the active admins of every seller whose book for an agent type a price change has
 * just put below its own price: its children now pay its own price and its margin is zero
 * until it sets a new book, at most once an hour per book. Called in the change's transaction once the new price row is
 * written: `now()`, the transaction's start, still reads the prices before the change, and
 * 'infinity' the newest rows, the new one included. The mail goes out after the commit.
 */
export async function tellFlooredSellers(executor: Executor, mailer: Mailer, agentTypeId: string): Promise<number> {
  const { rows } = await sql<{ id: string; name: string; agent: string; book: string; own: string; book_from: string }>`
    with books as (
      select distinct on (b.organization_id) b.organization_id, b.price, b.effective_from
      from organization_prices b
      where b.agent_type_id = ${agentTypeId}::uuid
      order by b.organization_id, b.effective_from desc
    )
    select o.id, o.name, t.name as agent, books.price::numeric(14, 4)::text as book, x.after::numeric(14, 4)::text as own,
           books.effective_from::text as book_from
    from books
    join organizations o on o.id = books.organization_id and o.deleted_at is null
    join agent_types t on t.id = ${agentTypeId}::uuid
    cross join lateral (
      select organization_price(o.id, t.id, now()) as before, organization_price(o.id, t.id, 'infinity') as after
    ) x
    where books.price < x.after and books.price >= coalesce(x.before, 0)
    order by o.id`.execute(executor);
  // At most one such mail an hour per seller's book: a parent moving its price up and down would
  // otherwise mail the seller's admins at each rise. A book the seller sets anew is told of again.
  // The count rolls back with the change.
  const told = [];
  for (const row of rows) {
    const key = `floored:${row.id}:${agentTypeId}:${row.book_from}`;
    if ((await countHit(executor, key, ALERT_REPEAT_HOURS * 3_600_000)).current === 1) told.push(row);
  }
  if (told.length === 0) return 0;
  const admins = await activeAdmins(
    executor,
    told.map((row) => row.id),
  );
  for (const admin of admins) {
    const seller = told.find((row) => row.id === admin.organization_id)!;
    await mailer.send(
      { to: admin.email, subject: p.flooredSubject(seller.agent), text: p.flooredMail(seller.name, seller.agent, seller.own, seller.book) },
      executor,
    );
  }
  return told.length;
}
