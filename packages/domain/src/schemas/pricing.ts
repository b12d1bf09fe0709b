import { z } from 'zod';
import { amountStringSchema } from './amounts.ts';
import { agentTypeSchema, decimal4StringSchema, priceInputSchema } from './agents.ts';
import { pageNumberSchema } from './common.ts';

/**
 * Price books. What an organization pays for an agent type (its own price) is the greatest
 * of the catalog price and the book prices of its ancestors below the house: the house's
 * children pay the catalog; a super agency or an agency sets what its direct children pay,
 * never below its own price. A seller whose own price rises above its book passes the
 * higher price on (its margin is zero until it sets a new book price).
 */

/** One agent type as a seller sees it: what it pays, what it charges its children, its margin per unit. */
export const priceBookItemSchema = z.object({
  agent_type: agentTypeSchema.pick({ id: true, code: true, name: true, unit: true, status: true }),
  /** What the organization itself pays per unit now; null when the type has no price yet. */
  my_price: decimal4StringSchema.nullable(),
  /** The book price it set for its children, or null: pass-through (they pay its own price). */
  book_price: decimal4StringSchema.nullable(),
  /** What its direct children pay per unit now: the greater of the book price and its own. */
  children_price: decimal4StringSchema.nullable(),
  /** children_price − my_price: what it earns per unit its children use. */
  margin: decimal4StringSchema.nullable(),
  /** The book price is below its own price, so its children pay its own price (no margin). */
  floored: z.boolean(),
});
export type PriceBookItem = z.infer<typeof priceBookItemSchema>;

export const priceBookSchema = z.object({
  organization_id: z.uuid(),
  /** True for the house: its children pay the catalog, which is edited there. */
  catalog: z.boolean(),
  /** Whether the caller may change this book (the server decides, with maySetPrices). */
  can_edit: z.boolean(),
  items: z.array(priceBookItemSchema),
});
export type PriceBook = z.infer<typeof priceBookSchema>;

export const priceParamsSchema = z.object({ id: z.uuid(), agentTypeId: z.uuid() });

/** A new book price for one agent type (at most four decimals), or null to pass the own price through. */
export const setPriceSchema = z.object({ price: priceInputSchema.nullable() });
export const priceBookItemResponseSchema = z.object({ item: priceBookItemSchema });

export const priceHistoryQuerySchema = z.object({ page: pageNumberSchema });
export const priceChangeSchema = z.object({
  id: z.uuid(),
  agent_type: agentTypeSchema.pick({ id: true, code: true, name: true }),
  /** The book price from then on; null: pass-through. */
  price: decimal4StringSchema.nullable(),
  effective_from: z.string(),
  changed_by: z.string().nullable(),
});
export type PriceChange = z.infer<typeof priceChangeSchema>;
export const priceHistorySchema = z.object({
  items: z.array(priceChangeSchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});

/** What an organization earned this calendar month (UTC) from its children's usage, by child and by agent. */
export const earningsSchema = z.object({
  /** The month, "YYYY-MM" (UTC). */
  month: z.string(),
  total: amountStringSchema,
  by_child: z.array(z.object({ organization_id: z.uuid(), name: z.string(), amount: amountStringSchema })),
  by_agent: z.array(z.object({ agent_type_id: z.uuid(), code: z.string(), name: z.string(), amount: amountStringSchema })),
});
export type Earnings = z.infer<typeof earningsSchema>;
