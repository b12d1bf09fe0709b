import { sql, type RawBuilder } from 'kysely';
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

/**
 * What an organization pays per unit of the type `t` now: the catalog price raised by the
 * price books of the sellers above it (organization_price); the catalog's newest price when
 * none is in force yet. Each viewer is shown the price that applies to it, never an
 * ancestor's own price or margin.
 */
export const priceFor = (organizationId: string | RawBuilder<unknown>) =>
  sql<string>`coalesce(organization_price(${organizationId}::uuid, t.id, now())::numeric(14, 4)::text, ${currentPrice})`;

/** The first UTC day of a window of `days` days ending today (UTC). */
export const firstDay = (days: number) => sql`((now() at time zone 'UTC')::date - ${days - 1}::int)`;
