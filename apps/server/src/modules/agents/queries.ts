import { sql } from 'kysely';
import { MESSAGES } from '@console/domain';

export const a = MESSAGES.agents;

/**
 * The catalog holds at most this many agent types, so its list, and an organization's live
 * activations (one per type at most), are always whole.
 */
export const AGENT_TYPES_MAX = 1000;

/** The price in force now: every price takes effect when it is written, so it is the latest. */
export const currentPrice = sql<string>`(select p.price::text from agent_prices p
  where p.agent_type_id = t.id order by p.effective_from desc limit 1)`;

/** The first UTC day of a window of `days` days ending today (UTC). */
export const firstDay = (days: number) => sql`((now() at time zone 'UTC')::date - ${days - 1}::int)`;
