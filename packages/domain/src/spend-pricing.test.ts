import { describe, expect, it } from 'vitest';
import { maySetPrices, maySetSpendControls, mayViewPrices, type Actor } from './policy.ts';
import { capAmountSchema, monthlyCapSchema, spendControlsInputSchema, topUpSchema } from './schemas/spend.ts';
import { setPriceSchema } from './schemas/pricing.ts';
import { MESSAGES } from './messages.ts';
import type { OrgType } from './hierarchy.ts';

const actor = (role: string, type: OrgType, status: 'active' | 'suspended' = 'active'): Actor => ({
  userId: 'u',
  role,
  organization: { id: 'own', org_type: type, path: '/h/own/', status },
});
const own = (type: OrgType) => ({ id: 'own', parent_org_id: 'p', org_type: type });
const child = (type: OrgType) => ({ id: 'c', parent_org_id: 'own', org_type: type });
const grandchild = { id: 'g', parent_org_id: 'c', org_type: 'tenant' as const };

describe('who sees and sets prices', () => {
  it.each([
    ['super_agency_admin', 'super_agency', true, true],
    ['agency_admin', 'agency', true, true],
    ['agency_manager', 'agency', true, false],
    ['agency_user', 'agency', true, false],
    ['agency_support', 'agency', true, false],
    ['house_admin', 'house', true, false],
    ['tenant_admin', 'tenant', false, false],
  ] as const)('%s of its own %s: views %s, sets %s', (role, type, views, sets) => {
    expect(mayViewPrices(actor(role, type), own(type))).toBe(views);
    expect(maySetPrices(actor(role, type), own(type))).toBe(sets);
  });

  it("never an ancestor's or a child's book, and not while frozen", () => {
    expect(mayViewPrices(actor('agency_admin', 'agency'), { id: 'parent', org_type: 'super_agency' })).toBe(false);
    expect(mayViewPrices(actor('super_agency_admin', 'super_agency'), child('agency'))).toBe(false);
    expect(maySetPrices(actor('super_agency_admin', 'super_agency'), child('agency'))).toBe(false);
    expect(maySetPrices(actor('agency_admin', 'agency', 'suspended'), own('agency'))).toBe(false);
    expect(mayViewPrices(actor('agency_admin', 'agency', 'suspended'), own('agency'))).toBe(true);
    expect(mayViewPrices(actor('agency_admin', 'agency'), { id: 'own' })).toBe(false);
  });
});

describe('who sets a spend cap and top-up', () => {
  it("a direct child's by its parent's admins, never its own, a grandchild's or while frozen", () => {
    expect(maySetSpendControls(actor('agency_admin', 'agency'), child('tenant'))).toBe(true);
    expect(maySetSpendControls(actor('house_admin', 'house'), child('super_agency'))).toBe(true);
    expect(maySetSpendControls(actor('agency_manager', 'agency'), child('tenant'))).toBe(false);
    expect(maySetSpendControls(actor('agency_admin', 'agency'), own('agency'))).toBe(false);
    expect(maySetSpendControls(actor('super_agency_admin', 'super_agency'), grandchild)).toBe(false);
    expect(maySetSpendControls(actor('agency_admin', 'agency', 'suspended'), child('tenant'))).toBe(false);
  });
});

describe('cap and top-up amounts', () => {
  it.each([
    ['500', '500.00'],
    [12.5, '12.50'],
    ['0', '0.00'],
    [' 007.1 ', '7.10'],
  ])('%j is the cap %j', (input, cap) => {
    expect(capAmountSchema.parse(input)).toBe(cap);
  });

  it.each([['-1'], ['1.234'], ['abc'], [''], [Number.NaN], [null]])('%j is refused in words', (input) => {
    const result = capAmountSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(MESSAGES.spend.capInvalid);
  });

  it('a cap may be removed with null', () => {
    expect(monthlyCapSchema.parse({ monthly_cap: null })).toEqual({ monthly_cap: null });
    expect(spendControlsInputSchema.parse({ spend_cap: null, top_up: null })).toEqual({ spend_cap: null, top_up: null });
  });

  it('a top-up is never larger than its monthly maximum, and moves more than nothing', () => {
    expect(topUpSchema.parse({ below: '50', amount: '100', monthly_max: '100' })).toEqual({
      below: '50.00',
      amount: '100.00',
      monthly_max: '100.00',
    });
    const above = topUpSchema.safeParse({ below: '50', amount: '100.01', monthly_max: '100' });
    expect(above.error?.issues.map((i) => [i.path, i.message])).toEqual([[['amount'], MESSAGES.spend.topUpAboveMonthlyMax]]);
    expect(topUpSchema.safeParse({ below: '50', amount: '0', monthly_max: '100' }).success).toBe(false);
    expect(topUpSchema.safeParse({ below: '50', amount: '99', monthly_max: '1000' }).success).toBe(true);
  });
});

describe('a book price', () => {
  it('has at most four decimals, or is null for pass-through', () => {
    expect(setPriceSchema.parse({ price: '0.3' })).toEqual({ price: '0.3000' });
    expect(setPriceSchema.parse({ price: null })).toEqual({ price: null });
    expect(setPriceSchema.safeParse({ price: '0.30001' }).success).toBe(false);
    expect(setPriceSchema.safeParse({ price: '-1' }).success).toBe(false);
  });
});
