import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { API_PREFIX, pathOf, queryStringOf, responseSchema } from './contract.ts';
import { API } from './endpoints/index.ts';
import { MESSAGES } from './messages.ts';
import {
  lowBalanceThresholdSchema,
  priceInputSchema,
  unitsInputSchema,
  updateAgentTypeSchema,
  usageBatchSchema,
} from './schemas/agents.ts';
import { amountInputSchema, amountStringSchema } from './schemas/amounts.ts';
import { isSingleLineText } from './schemas/common.ts';
import { dateOrDateTime, usageImportSchema } from './schemas/credits.ts';
import { listOrganizationsQuerySchema } from './schemas/organizations.ts';
import { listUsersQuerySchema } from './schemas/users.ts';

/** What a schema makes of a value, or the messages it refuses it with. */
function read(schema: z.ZodType, value: unknown): { value: unknown } | { refused: string[] } {
  const result = schema.safeParse(value);
  return result.success ? { value: result.data } : { refused: result.error.issues.map((issue) => issue.message) };
}

describe('amounts: exact decimals, never floats', () => {
  it.each([
    ['12.5', '12.50'],
    [12.5, '12.50'],
    [' 7 ', '7.00'],
    ['0.01', '0.01'],
    ['000123.4', '123.40'],
    ['999999999999.99', '999999999999.99'],
  ])('takes %j as %j', (input, amount) => {
    expect(read(amountInputSchema, input)).toEqual({ value: amount });
  });

  it.each([
    ['0', MESSAGES.credits.amountPositive],
    [0, MESSAGES.credits.amountPositive],
    ['0.00', MESSAGES.credits.amountPositive],
    ['-5', MESSAGES.credits.amountPositive],
    [-5, MESSAGES.credits.amountPositive],
    ['1.234', MESSAGES.credits.amountInvalid],
    ['1e3', MESSAGES.credits.amountInvalid],
    ['1000000000000', MESSAGES.credits.amountInvalid],
    ['12.', MESSAGES.credits.amountInvalid],
    ['x12', MESSAGES.credits.amountInvalid],
    ['12x', MESSAGES.credits.amountInvalid],
    // zod's number refuses an infinite number before the amount rule reads it.
    [Number.POSITIVE_INFINITY, MESSAGES.credits.amountNotNumber],
    ['', MESSAGES.credits.amountInvalid],
    [true, MESSAGES.credits.amountNotNumber],
  ])('refuses %j: %s', (input, message) => {
    expect(read(amountInputSchema, input)).toEqual({ refused: [message] });
  });

  it('answers amounts as strings with two places', () => {
    for (const ok of ['0.00', '-12.50', '1234567.89']) expect(amountStringSchema.safeParse(ok).success).toBe(true);
    for (const bad of ['1.5', '1', 'x1.00', '1.00x', '--1.00', 1.5])
      expect(amountStringSchema.safeParse(bad).success, String(bad)).toBe(false);
  });
});

describe('prices and units: four places', () => {
  it('takes a price of 0 or more and units above 0, as exact strings', () => {
    expect(read(priceInputSchema, '0')).toEqual({ value: '0.0000' });
    expect(read(priceInputSchema, 1.5)).toEqual({ value: '1.5000' });
    expect(read(priceInputSchema, '0012.3456')).toEqual({ value: '12.3456' });
    expect(read(unitsInputSchema, '0.0001')).toEqual({ value: '0.0001' });
    expect(read(unitsInputSchema, 3)).toEqual({ value: '3.0000' });
    expect(read(unitsInputSchema, '10')).toEqual({ value: '10.0000' });
  });

  it('refuses units of 0, five places, negatives, exponents and non-numbers', () => {
    for (const bad of ['0', 0, '0.0000', '1.23456', '-1', '1e2', 'x1', '1x', Number.NaN, null]) {
      const result = read(unitsInputSchema, bad);
      expect(result, String(bad)).toHaveProperty('refused');
      expect((result as { refused: string[] }).refused).toEqual(['Units must be a number above 0 with at most 4 decimal places.']);
    }
    for (const bad of ['1.23456', '-1', 'abc']) expect(read(priceInputSchema, bad), bad).toHaveProperty('refused');
  });

  it('takes a price as a plain decimal string only: no space around it, no sign, no exponent, no bare point', () => {
    for (const bad of [' 1', '1 ', ' 1 ', '\t1', '1\n', '+1', '1e2', '.5', '1.', '1,5', '']) {
      expect(read(priceInputSchema, bad), JSON.stringify(bad)).toEqual({
        refused: ['Enter a price of at least 0 with at most 4 decimal places.'],
      });
    }
  });

  it('bounds the integer digits', () => {
    const tooLong = '1'.repeat(20);
    expect(read(unitsInputSchema, tooLong)).toHaveProperty('refused');
    expect(read(priceInputSchema, tooLong)).toHaveProperty('refused');
  });
});

describe('single-line text', () => {
  it('refuses the C0 and C1 controls at both ends of their ranges, and the line and paragraph separators', () => {
    for (const code of [0x00, 0x09, 0x1f, 0x7f, 0x9f, 0x2028, 0x2029])
      expect(isSingleLineText(`a${String.fromCharCode(code)}b`), code.toString(16)).toBe(false);
    for (const code of [0x20, 0x7e, 0xa0, 0xe9]) expect(isSingleLineText(`a${String.fromCharCode(code)}b`), code.toString(16)).toBe(true);
  });
});

describe('low-balance threshold', () => {
  it('takes 0 or more with two places', () => {
    expect(read(lowBalanceThresholdSchema, { low_balance_threshold: 0 })).toEqual({ value: { low_balance_threshold: '0.00' } });
    expect(read(lowBalanceThresholdSchema, { low_balance_threshold: ' 0100.5 ' })).toEqual({ value: { low_balance_threshold: '100.50' } });
    expect(read(lowBalanceThresholdSchema, { low_balance_threshold: '100.25' })).toEqual({ value: { low_balance_threshold: '100.25' } });
  });

  it('refuses negatives, three places and non-numbers with one message each', () => {
    for (const bad of ['-1', '1.234', 'x', '1x', 'x1', '1'.repeat(13)]) {
      expect(read(lowBalanceThresholdSchema, { low_balance_threshold: bad }), String(bad)).toEqual({
        refused: ['Enter a threshold of 0 or more, with at most 2 decimal places.'],
      });
    }
    for (const bad of [null, Number.POSITIVE_INFINITY]) {
      expect(read(lowBalanceThresholdSchema, { low_balance_threshold: bad })).toEqual({ refused: ['Enter a threshold of 0 or more.'] });
    }
  });
});

describe('agent type edits', () => {
  it('need at least one change', () => {
    expect(read(updateAgentTypeSchema, {})).toEqual({ refused: ['Nothing to update.'] });
    expect(read(updateAgentTypeSchema, { name: undefined })).toEqual({ refused: ['Nothing to update.'] });
    expect(read(updateAgentTypeSchema, { price: '2' })).toEqual({ value: { price: '2.0000' } });
  });
});

const ORG = '6f1c2b9e-8d4a-4c3b-9a7e-2f5d1e0c4b3a';
const refund = (i: number) => ({ organization_id: ORG, amount: '1', external_ref: `r${i}`, refund_of: `e${i}` });
const event = (overrides: Record<string, unknown> = {}) => ({
  id: 'evt-1',
  organization_id: ORG,
  agent: 'scribe',
  units: '1',
  occurred_at: '2026-01-31T12:00:00Z',
  ...overrides,
});

describe('usage batches and imports', () => {
  it('take events between the years 1000 and 9998', () => {
    expect(usageBatchSchema.safeParse({ events: [event()] }).success).toBe(true);
    expect(usageBatchSchema.safeParse({ events: [event({ occurred_at: '1000-01-01T00:00:00Z' })] }).success).toBe(true);
    expect(usageBatchSchema.safeParse({ events: [event({ occurred_at: '9998-12-31T00:00:00Z' })] }).success).toBe(true);
    expect(read(usageBatchSchema, { events: [event({ occurred_at: '0999-12-31T00:00:00Z' })] })).toEqual({
      refused: ['Use a date between the years 1000 and 9998.'],
    });
    expect(read(usageBatchSchema, { events: [event({ occurred_at: '9999-01-01T00:00:00Z' })] })).toEqual({
      refused: ['Use a date between the years 1000 and 9998.'],
    });
  });

  it('take at most 50 metadata keys an event', () => {
    const metadata = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    expect(usageBatchSchema.safeParse({ events: [event({ metadata: metadata(50) })] }).success).toBe(true);
    expect(read(usageBatchSchema, { events: [event({ metadata: metadata(51) })] })).toEqual({ refused: ['At most 50 metadata keys.'] });
  });

  it('need one item and hold at most 1,000 in all', () => {
    expect(read(usageImportSchema, {})).toEqual({ refused: ['Send at least one event or refund.'] });
    expect(read(usageImportSchema, { events: [], refunds: [] })).toEqual({ refused: ['Send at least one event or refund.'] });
    expect(usageImportSchema.safeParse({ events: [event()] }).success).toBe(true);
    expect(usageImportSchema.safeParse({ refunds: [refund(1)] }).success).toBe(true);
    const events = Array.from({ length: 600 }, (_, i) => event({ id: `e${i}` }));
    const refunds = Array.from({ length: 400 }, (_, i) => refund(i));
    expect(usageImportSchema.safeParse({ events, refunds }).success).toBe(true);
    expect(read(usageImportSchema, { events, refunds: [...refunds, refund(400)] })).toEqual({
      refused: ['An import holds at most 1000 events and refunds in all.'],
    });
  });

  it('read dates and date-times in the same year range', () => {
    expect(dateOrDateTime.safeParse('2026-01-31').success).toBe(true);
    expect(dateOrDateTime.safeParse('1000-01-01').success).toBe(true);
    expect(dateOrDateTime.safeParse('9998-12-31T23:00:00+01:00').success).toBe(true);
    expect(dateOrDateTime.safeParse('0999-12-31').success).toBe(false);
    expect(dateOrDateTime.safeParse('9999-01-01').success).toBe(false);
  });
});

describe('calling an endpoint', () => {
  it('fills the path parameters, each encoded, under /api', () => {
    expect(pathOf(API.organizations.get, { id: 'a/b c' })).toBe(`${API_PREFIX}/organizations/a%2Fb%20c`);
    expect(pathOf({ path: '/x/:first_id/y/:second' }, { first_id: 1, second: 'z' })).toBe('/api/x/1/y/z');
    expect(pathOf({ path: '/health' })).toBe('/api/health');
    expect(() => pathOf(API.organizations.get)).toThrow('Missing path parameter "id" for /organizations/:id');
  });

  it('writes a query string in key order, leaving out empty values', () => {
    expect(queryStringOf(undefined)).toBe('');
    expect(queryStringOf({})).toBe('');
    expect(queryStringOf({ a: undefined, b: null, c: '' })).toBe('');
    expect(queryStringOf({ page: 2, q: 'a b', zero: 0, no: false })).toBe('?page=2&q=a+b&zero=0&no=false');
  });

  it('finds the success schema of a status, null for one without a body', () => {
    expect(responseSchema(API.organizations.get, 200)).toBe(API.organizations.get.responses[200]);
    expect(responseSchema(API.organizations.get, 201)).toBeNull();
  });
});

describe('list pages', () => {
  it.each(['0', '-1', '1.5', 'two', '1000001'])('page=%s is refused in words, on both lists', (page) => {
    for (const schema of [listOrganizationsQuerySchema, listUsersQuerySchema]) {
      const result = schema.safeParse({ page });
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([MESSAGES.generic.invalidPage]);
    }
  });

  it('takes 1 and 1,000,000, and 1 when none is given', () => {
    for (const schema of [listOrganizationsQuerySchema, listUsersQuerySchema]) {
      expect(schema.parse({ page: '1' }).page).toBe(1);
      expect(schema.parse({ page: '1000000' }).page).toBe(1_000_000);
      expect(schema.parse({}).page).toBe(1);
    }
  });

  it('says what a page must be', () => {
    expect(MESSAGES.generic.invalidPage).toBe('The page must be a whole number from 1 up.');
  });
});
