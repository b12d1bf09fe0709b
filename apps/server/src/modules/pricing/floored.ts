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
 * until it sets a new book, at most once an hour per book. Called in the change's transaction
 * once the new price row is written. Which sellers that is has one rule, the one the webhook
 * events follow (price_move_events, run by the trigger on the price row): the mail is sent to
 * the sellers of the price.floored events this transaction wrote (their `created_at` is the
 * transaction's start, `now()`). The mail goes out after the commit.
 */
export async function tellFlooredSellers(executor: Executor, mailer: Mailer, agentTypeId: string): Promise<number> {
  const { rows } = await sql<{ id: string; name: string; agent: string; book: string; own: string }>`
    select distinct on (e.organization_id) e.organization_id as id, o.name, e.data -> 'agent_type' ->> 'name' as agent,
           e.data ->> 'book' as book, e.data ->> 'own_price' as own
    from webhook_events e
    join organizations o on o.id = e.organization_id
    where e.created_at = now() and e.type = 'price.floored' and e.data -> 'agent_type' ->> 'id' = ${agentTypeId}
    order by e.organization_id`.execute(executor);
  // At most one such mail an hour per seller's book: a parent moving its price up and down would
  // otherwise mail the seller's admins at each rise. A book the seller sets at another price is
  // told of again.
  // The count rolls back with the change.
  const told = [];
  for (const row of rows) {
    const key = `floored:${row.id}:${agentTypeId}:${row.book}`;
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
