import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  AGENT_LIMIT_STANDING_LABELS,
  agentLimitStanding,
  healthTone,
  percentChange,
  percentOf,
  rateTone,
  resourceBarTone,
  responseTimeRating,
} from './dashboard.ts';
import { dashboardQuerySchema } from './schemas/dashboard.ts';
import { ORG_ATTENTION_FILTERS, ORG_ATTENTION_LABELS, listOrganizationsQuerySchema } from './schemas/organizations.ts';

describe('resourceBarTone', () => {
  it('is green under 50%, amber under 75%, red from 75%', () => {
    expect(resourceBarTone(0)).toBe('green');
    expect(resourceBarTone(49.9)).toBe('green');
    expect(resourceBarTone(50)).toBe('amber');
    expect(resourceBarTone(74.9)).toBe('amber');
    expect(resourceBarTone(75)).toBe('red');
    expect(resourceBarTone(100)).toBe('red');
    expect(resourceBarTone(140)).toBe('red');
  });

  it('never gets greener as usage grows', () => {
    const rank = { green: 0, amber: 1, red: 2 };
    fc.assert(
      fc.property(fc.double({ min: 0, max: 200, noNaN: true }), fc.double({ min: 0, max: 200, noNaN: true }), (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a];
        expect(rank[resourceBarTone(low)]).toBeLessThanOrEqual(rank[resourceBarTone(high)]);
      }),
    );
  });
});

describe('rateTone', () => {
  it('is green from 90, amber from 75, red below', () => {
    expect(rateTone(100)).toBe('green');
    expect(rateTone(90)).toBe('green');
    expect(rateTone(89.9)).toBe('amber');
    expect(rateTone(75)).toBe('amber');
    expect(rateTone(74.9)).toBe('red');
    expect(rateTone(0)).toBe('red');
  });
});

describe('healthTone', () => {
  it('colours a health score as a rate, and none without a report', () => {
    expect(healthTone(100)).toBe('green');
    expect(healthTone(90)).toBe('green');
    expect(healthTone(89)).toBe('amber');
    expect(healthTone(75)).toBe('amber');
    expect(healthTone(74)).toBe('red');
    expect(healthTone(0)).toBe('red');
    expect(healthTone(null)).toBeNull();
  });
});

describe('responseTimeRating', () => {
  it('is Good under 3 s, Average under 5 s, else Needs Improvement', () => {
    expect(responseTimeRating(0.2)).toBe('Good');
    expect(responseTimeRating(2.99)).toBe('Good');
    expect(responseTimeRating(3)).toBe('Average');
    expect(responseTimeRating(4.99)).toBe('Average');
    expect(responseTimeRating(5)).toBe('Needs Improvement');
    expect(responseTimeRating(12)).toBe('Needs Improvement');
  });
});

describe('percentOf and percentChange', () => {
  it('rounds to one decimal and has no value against zero', () => {
    expect(percentOf(1, 3)).toBe(33.3);
    expect(percentOf(2, 3)).toBe(66.7);
    expect(percentOf(5, 0)).toBeNull();
    expect(percentOf(0, 10)).toBe(0);
    expect(percentChange(3, 2)).toBe(50);
    expect(percentChange(1, 3)).toBe(-66.7);
    expect(percentChange(0, 4)).toBe(-100);
    expect(percentChange(4, 0)).toBeNull();
    expect(percentChange(0, 0)).toBeNull();
  });
});

describe('dashboardQuerySchema', () => {
  it('takes an optional organization id and refuses anything else', () => {
    expect(dashboardQuerySchema.parse({})).toEqual({});
    expect(dashboardQuerySchema.safeParse({ organization_id: 'nope' }).success).toBe(false);
  });
});

describe('agentLimitStanding', () => {
  it('is at limit from the limit on, near from 80% of it, else nothing', () => {
    expect(agentLimitStanding(10, 10)).toBe('at');
    expect(agentLimitStanding(12, 10)).toBe('at');
    expect(agentLimitStanding(9, 10)).toBe('near');
    expect(agentLimitStanding(8, 10)).toBe('near');
    expect(agentLimitStanding(7, 10)).toBeNull();
    expect(agentLimitStanding(4, 5)).toBe('near');
    expect(agentLimitStanding(3, 5)).toBeNull();
    expect(agentLimitStanding(1, 1)).toBe('at');
    expect(agentLimitStanding(0, 1)).toBeNull();
  });

  it('marks nothing against a limit of 0, which allows no agent', () => {
    expect(agentLimitStanding(0, 0)).toBeNull();
    expect(agentLimitStanding(2, 0)).toBeNull();
    expect(agentLimitStanding(0, -1)).toBeNull();
  });

  it('names the standings word for word', () => {
    expect(AGENT_LIMIT_STANDING_LABELS).toEqual({ at: 'At limit', near: 'Near limit' });
  });
});

describe("the organization list's attention filters", () => {
  it('are low balance, at or near the agent limit, overdue invoices and cap reached, named word for word', () => {
    expect(ORG_ATTENTION_FILTERS).toEqual(['low_balance', 'near_limit', 'overdue_invoices', 'cap_reached']);
    expect(ORG_ATTENTION_LABELS).toEqual({
      low_balance: 'Low balance',
      near_limit: 'At or near agent limit',
      overdue_invoices: 'Overdue invoices',
      cap_reached: 'Cap reached',
    });
  });

  it('the list takes either or none, and nothing else', () => {
    expect(listOrganizationsQuerySchema.parse({ attention: 'low_balance' }).attention).toBe('low_balance');
    expect(listOrganizationsQuerySchema.parse({ attention: 'near_limit' }).attention).toBe('near_limit');
    expect(listOrganizationsQuerySchema.parse({ attention: 'cap_reached' }).attention).toBe('cap_reached');
    expect(listOrganizationsQuerySchema.parse({}).attention).toBeUndefined();
    expect(listOrganizationsQuerySchema.safeParse({ attention: 'at_limit' }).success).toBe(false);
  });
});
