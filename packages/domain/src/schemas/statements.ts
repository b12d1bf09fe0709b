import { z } from 'zod';
import { MESSAGES } from '../messages.ts';
import { amountStringSchema } from './amounts.ts';
import { monthSchema } from './invoices.ts';

const m = MESSAGES.invoices;

/**
 * An organization's monthly statement: its balance at the start of the month (UTC), every
 * movement of the month grouped, and its balance at the end. The groups sum to the closing
 * balance minus the opening one, to the cent, because they are read from the ledger itself.
 * Each organization's ledger is hash-chained (each entry's hash covers the previous entry's
 * hash and its own fields); the statement carries the chain head at the month's end as its
 * verification code, so a later check can tell whether the entries it sums are still as they
 * were.
 */

/** How a statement groups movements: by kind, and within a kind by counterparty or agent type. */
export const STATEMENT_GROUP_KINDS = [
  'allocation_received',
  'top_up_received',
  'initial_balance',
  'allocation_sent',
  'top_up_sent',
  'consumption',
  'refund',
  'earning',
  'reversal_sent',
  'reversal_received',
  'adjustment_increase',
  'adjustment_decrease',
  'expiry',
  'expiry_returned',
] as const;
export type StatementGroupKind = (typeof STATEMENT_GROUP_KINDS)[number];
export const STATEMENT_GROUP_LABELS: Record<StatementGroupKind, string> = {
  allocation_received: 'Allocations received',
  top_up_received: 'Automatic top-ups received',
  initial_balance: 'Initial balance received',
  allocation_sent: 'Allocations sent',
  top_up_sent: 'Automatic top-ups sent',
  consumption: 'Consumption',
  refund: 'Refunds',
  earning: 'Earnings',
  reversal_sent: 'Reversals given back',
  reversal_received: 'Reversals received back',
  adjustment_increase: 'Adjustments (increase)',
  adjustment_decrease: 'Adjustments (decrease)',
  expiry: 'Credits expired',
  expiry_returned: 'Expired credits returned',
};

const orgRef = z.object({ id: z.uuid(), name: z.string() });

export const statementGroupSchema = z.object({
  kind: z.enum(STATEMENT_GROUP_KINDS),
  /** The other organization (allocations, top-ups, reversals, initial balance; earnings: the child below which usage earned). */
  counterparty: orgRef.nullable(),
  /** Consumption and refunds: the agent type. */
  agent: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  /** Consumption and refunds: the units and the average price per unit (amount ÷ units, 6 decimals). */
  units: z.string().nullable(),
  unit_price: z.string().nullable(),
  entries: z.number().int(),
  /** Signed: credits in are positive, credits out negative. */
  amount: amountStringSchema,
});
export type StatementGroup = z.infer<typeof statementGroupSchema>;

/** A 64-character hexadecimal SHA-256 chain head. */
export const chainHeadSchema = z.string().regex(/^[0-9a-f]{64}$/);

export const statementSchema = z.object({
  organization: orgRef.extend({ org_type: z.string() }),
  month: monthSchema,
  /** The month's first instant and the next month's, UTC (the end is excluded). */
  period_start: z.string(),
  period_end: z.string(),
  /** The month has not ended: the statement runs to now and will grow. */
  partial: z.boolean(),
  opening_balance: amountStringSchema,
  closing_balance: amountStringSchema,
  credits_in: amountStringSchema,
  credits_out: amountStringSchema,
  groups: z.array(statementGroupSchema),
  entries: z.number().int(),
  /** The ledger chain head at the period's end (the hash of the last entry before it); null for an empty ledger. */
  verification_code: chainHeadSchema.nullable(),
  /**
   * Opening plus the groups equals closing. False only when the ledger was changed outside its
   * one writer (its balance_after no longer follows its amounts): `db:reconcile` names where.
   */
  closes: z.boolean(),
});
export type Statement = z.infer<typeof statementSchema>;

export const statementParamsSchema = z.object({ id: z.uuid({ error: 'Not a valid id.' }), month: monthSchema });
export const verifyStatementQuerySchema = z.object({
  code: z
    .string()
    .trim()
    .transform((value) => value.toLowerCase())
    .pipe(z.string().regex(/^[0-9a-f]{64}$/, m.codeInvalid)),
});
export const CHAIN_BREAKS = ['edited', 'missing_before', 'missing_at_end'] as const;
export type ChainBreak = (typeof CHAIN_BREAKS)[number];
export const CHAIN_BREAK_LABELS: Record<ChainBreak, string> = {
  edited: 'was changed after it was written',
  missing_before: 'follows an entry that was deleted or moved',
  missing_at_end: 'is no longer the last entry: a later one was deleted',
};
export const statementVerificationSchema = z.object({
  month: monthSchema,
  code: chainHeadSchema,
  /** The chain head the ledger holds today at the month's end. */
  head: chainHeadSchema.nullable(),
  /** The code is the head the ledger holds, and the chain up to it is whole. */
  matches: z.boolean(),
  chain: z.object({
    whole: z.boolean(),
    checked: z.number().int(),
    first_broken: z.object({ id: z.uuid().nullable(), seq: z.string().nullable(), reason: z.enum(CHAIN_BREAKS) }).nullable(),
  }),
});
export type StatementVerification = z.infer<typeof statementVerificationSchema>;
