import { amountInputSchema } from '@console/domain';
import { z } from 'zod';
import { MESSAGES } from './wording';

/**
 * An amount typed in a number input: empty or not numeric → "Amount must be a
 * number"; zero or negative → "Amount must be greater than zero"; more than two decimals →
 * "Please enter a valid amount". The output is the exact decimal string the API takes.
 */
export const amountFieldSchema = z
  .string({ error: MESSAGES.credits.amountNotNumber })
  .trim()
  .refine((value) => value !== '' && Number.isFinite(Number(value)), MESSAGES.credits.amountNotNumber)
  .transform((value, ctx) => {
    const parsed = amountInputSchema.safeParse(value);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
    return z.NEVER;
  });
