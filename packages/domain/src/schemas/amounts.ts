import { z } from 'zod';
import { MESSAGES } from '../messages.ts';

const c = MESSAGES.credits;

/** Exact decimal amounts travel as strings ("1234.50"): never a float. */
export const amountStringSchema = z.string().regex(/^-?\d+\.\d{2}$/);

/**
 * A positive amount with at most two decimals, as a JSON number or a string. It becomes
 * an exact decimal string ("12.50"); floats never reach arithmetic or storage.
 */
export const amountInputSchema = z.union([z.number(), z.string()], { error: c.amountNotNumber }).transform((value, ctx) => {
  const text = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  const match = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) {
    ctx.addIssue({ code: 'custom', message: /^-/.test(text) ? c.amountPositive : c.amountInvalid });
    return z.NEVER;
  }
  const normalized = `${BigInt(match[1]!)}.${(match[2] ?? '').padEnd(2, '0')}`;
  if (normalized === '0.00') {
    ctx.addIssue({ code: 'custom', message: c.amountPositive });
    return z.NEVER;
  }
  return normalized;
});

/**
 * Hundredths of an exact amount with at most two decimals ("-12.5" → -1250n), so money is
 * added and compared without a float. Anything else is a programming error: amounts reach
 * here from the database (numeric with 2 decimals) or from validated input.
 */
export function toCents(amount: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount);
  if (!match) throw new Error(`not an amount with at most 2 decimals: ${amount}`);
  const value = BigInt(match[2]!) * 100n + BigInt((match[3] ?? '').padEnd(2, '0'));
  return match[1] ? -value : value;
}

/** An amount with two decimals from hundredths (-1250n → "-12.50"). */
export function fromCents(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}
