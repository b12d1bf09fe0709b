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
  /** The child a child price was set for; null: a change of the book. */
  child: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  /** The price from then on; null: pass-through (the book), or the child price removed (a child price). */
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

/** The most changes of what an organization pays that its paid history lists. */
export const PAID_HISTORY_MAX = 50;
/**
 * A change of what an organization pays for an agent type (its own price), made by the catalog or
 * by a seller above it (a book, or a price for the child on its path): so a seller whose parent
 * raises its price sees it beside its own book's history.
 */
export const paidChangeSchema = z.object({
  agent_type: agentTypeSchema.pick({ id: true, code: true, name: true }),
  /** What it paid per unit just before, and from `effective_from` on. */
  before: decimal4StringSchema,
  after: decimal4StringSchema,
  effective_from: z.string(),
  /** The seller above whose price moved it; null: the catalog. */
  set_by: z.object({ id: z.uuid(), name: z.string() }).nullable(),
});
export type PaidChange = z.infer<typeof paidChangeSchema>;
export const paidHistorySchema = z.object({ items: z.array(paidChangeSchema) });

/** What an organization earned this calendar month (UTC) from its children's usage, by child and by agent. */
export const earningsSchema = z.object({
  /** The month, "YYYY-MM" (UTC). */
  month: z.string(),
  total: amountStringSchema,
  by_child: z.array(z.object({ organization_id: z.uuid(), name: z.string(), amount: amountStringSchema })),
  by_agent: z.array(z.object({ agent_type_id: z.uuid(), code: z.string(), name: z.string(), amount: amountStringSchema })),
});
export type Earnings = z.infer<typeof earningsSchema>;

/**
 * Child prices. A seller may charge one direct child its own price for an agent type: it
 * replaces the book price for that child and everything below it, never below the seller's own
 * price. Removing it (an appended row, as every change) puts the child back on the book.
 */
export const childPriceParamsSchema = z.object({ id: z.uuid(), childId: z.uuid(), agentTypeId: z.uuid() });
/** A child price for one agent type (at most four decimals); it is removed with DELETE, not with null. */
export const setChildPriceSchema = z.object({ price: priceInputSchema });

/** One child price in force. */
export const childPriceSchema = z.object({
  child: z.object({ id: z.uuid(), name: z.string() }),
  agent_type: agentTypeSchema.pick({ id: true, code: true, name: true, unit: true, status: true }),
  /** The price the seller set for this child. */
  price: decimal4StringSchema,
  /** What the child pays per unit now: the child price, or the seller's own price when that rose above it. */
  child_pays: decimal4StringSchema.nullable(),
  /** The seller's own price now (the floor). */
  my_price: decimal4StringSchema.nullable(),
  /** The child price is below the seller's own price, so the child pays the own price (no margin). */
  floored: z.boolean(),
  effective_from: z.string(),
});
export type ChildPrice = z.infer<typeof childPriceSchema>;

export const childPricesSchema = z.object({
  organization_id: z.uuid(),
  /** Whether the caller may set and remove child prices here (the server decides, with maySetChildPrice). */
  can_edit: z.boolean(),
  /** The direct children a child price can be set for. */
  children: z.array(z.object({ id: z.uuid(), name: z.string() })),
  items: z.array(childPriceSchema),
});
export type ChildPrices = z.infer<typeof childPricesSchema>;
