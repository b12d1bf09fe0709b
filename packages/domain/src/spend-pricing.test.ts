import { describe, expect, it } from 'vitest';
import { activitySentence } from './activity.ts';
import { activityDetailsAsSeen, earningFromAboveSentence, ledgerRowAsSeen, pricingViewOf, usageEventAsSeen } from './margins.ts';
import type { Actor } from './policy.ts';
import {
  maySetChildPrice,
  maySetPrices,
  maySetSpendControls,
  mayViewMarginsOf,
  mayViewPricePaidBy,
  mayViewPrices,
} from './policy-prices.ts';
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

describe('who sets a price for one child', () => {
  it("the book's editors, for a direct child of their own organization only", () => {
    expect(maySetChildPrice(actor('agency_admin', 'agency'), own('agency'), child('tenant'))).toBe(true);
    expect(maySetChildPrice(actor('super_agency_admin', 'super_agency'), own('super_agency'), child('agency'))).toBe(true);
    expect(maySetChildPrice(actor('agency_admin', 'agency'), own('agency'), grandchild)).toBe(false);
    expect(maySetChildPrice(actor('agency_manager', 'agency'), own('agency'), child('tenant'))).toBe(false);
    expect(maySetChildPrice(actor('house_admin', 'house'), own('house'), child('super_agency'))).toBe(false);
    expect(maySetChildPrice(actor('agency_admin', 'agency', 'suspended'), own('agency'), child('tenant'))).toBe(false);
    expect(maySetChildPrice(actor('super_agency_admin', 'super_agency'), child('agency'), grandchild)).toBe(false);
  });

  it("hides a child price's before and after from above, as a book change's", () => {
    const row = { action: 'pricing.child_price_set', organization_id: 'c', details: { agent: 'scribe', before: null, after: '0.4000' } };
    expect(activityDetailsAsSeen({ organization: { id: 'own' } }, row)).toEqual({ agent: 'scribe' });
    expect(activityDetailsAsSeen({ organization: { id: 'c' } }, row)).toEqual(row.details);
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

  it.each([['-1'], ['1.234'], ['abc'], ['']])('a top-up line of %j is refused in words of the line, not of a cap', (below) => {
    const result = topUpSchema.safeParse({ below, amount: '10', monthly_max: '100' });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['below', MESSAGES.spend.topUpLineInvalid],
    ]);
  });

  it('a cap may be removed with null', () => {
    expect(monthlyCapSchema.parse({ monthly_cap: null })).toEqual({ monthly_cap: null });
    expect(spendControlsInputSchema.parse({ spend_cap: null, top_up: null })).toEqual({ spend_cap: null, top_up: null });
  });

  it('a key or an activation takes a cap per window, each left out staying; at least one is named', () => {
    expect(monthlyCapSchema.parse({ daily_cap: '5', weekly_cap: null })).toEqual({ daily_cap: '5.00', weekly_cap: null });
    const none = monthlyCapSchema.safeParse({});
    expect(none.error?.issues[0]?.message).toBe(MESSAGES.spend.capMissing);
    expect(monthlyCapSchema.safeParse({ weekly_cap: '-1' }).error?.issues[0]?.message).toBe(MESSAGES.spend.capInvalid);
    expect(spendControlsInputSchema.parse({ spend_cap: '9', top_up: null, daily_spend_cap: '1.5', weekly_spend_cap: null })).toEqual({
      spend_cap: '9.00',
      top_up: null,
      daily_spend_cap: '1.50',
      weekly_spend_cap: null,
    });
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

describe('the margins rule', () => {
  const viewer = { organization: { id: 'own' } };
  const ledgerRow = (entry_type: 'earning' | 'consumption', metadata: Record<string, unknown>) => ({
    id: 'e',
    organization_id: 'x',
    amount: entry_type === 'earning' ? '0.75' : '-3.75',
    entry_type,
    transaction_group: 'g',
    metadata,
    balance_after: '99.00',
    external_ref: null,
    agent_type_id: 'bot',
    units: '10.0000',
    created_by: null,
    created_at: '2024-01-05T15:04:00.000Z',
  });

  it("shows a seller's margins to its own people only, and a price to the organization and its seller", () => {
    expect(mayViewMarginsOf(viewer, { id: 'own' })).toBe(true);
    expect(mayViewMarginsOf(viewer, child('agency'))).toBe(false);
    expect(mayViewMarginsOf(viewer, { id: 'p' })).toBe(false);
    expect(mayViewPricePaidBy(viewer, own('agency'))).toBe(true);
    expect(mayViewPricePaidBy(viewer, child('agency'))).toBe(true);
    expect(mayViewPricePaidBy(viewer, grandchild)).toBe(false);
    expect(mayViewPricePaidBy(viewer, { id: 'h', parent_org_id: null })).toBe(false);
    expect(pricingViewOf(viewer, child('agency'))).toEqual({ prices: true, margins: false });
    expect(pricingViewOf(viewer, grandchild)).toEqual({ prices: false, margins: false });
    expect(pricingViewOf(viewer, own('agency'))).toEqual({ prices: true, margins: true });
  });

  it('withholds from a ledger row exactly what the view does not show', () => {
    const earning = ledgerRow('earning', { agent: 'bot', margin: '0.0750', child_id: 'c', child_name: 'Tenant One', units: '10.0000' });
    expect(ledgerRowAsSeen(earning, { prices: true, margins: true })).toBe(earning);
    expect(ledgerRowAsSeen(earning, { prices: true, margins: false })).toEqual({
      ...earning,
      metadata: {},
      agent_type_id: null,
      units: null,
    });
    const consumption = ledgerRow('consumption', { agent: 'bot', events: 1, units: '10.0000', price: '0.3750' });
    expect(ledgerRowAsSeen(consumption, { prices: true, margins: false })).toBe(consumption);
    const { price: _price, ...unpriced } = consumption.metadata;
    expect(ledgerRowAsSeen(consumption, { prices: false, margins: false })).toEqual({ ...consumption, metadata: unpriced });
    expect(earningFromAboveSentence('1234.5')).toBe("Earned 1,234.50 credits on its children's usage");
    expect(usageEventAsSeen({ id: 'e', price: '0.3750' }, { prices: false })).toEqual({ id: 'e', price: null });
    expect(usageEventAsSeen({ id: 'e', price: '0.3750' }, { prices: true })).toEqual({ id: 'e', price: '0.3750' });
  });

  it("names a seller's price change from above without its prices", () => {
    const details = { agent: 'bot', agent_type_id: 't', before: null, after: '0.3750' };
    const row = { action: 'pricing.price_set', organization_id: 'c', details };
    expect(activityDetailsAsSeen({ organization: { id: 'c' } }, row)).toBe(details);
    const seen = activityDetailsAsSeen(viewer, row);
    expect(seen).toEqual({ agent: 'bot', agent_type_id: 't' });
    expect(activitySentence({ action: 'pricing.price_set', actor: 'Ana', organization: null, target: 'Agency One', details: seen })).toBe(
      'Ana set what the children of Agency One pay for bot',
    );
    expect(activitySentence({ action: 'pricing.price_set', actor: 'Ana', organization: null, target: 'Agency One', details })).toBe(
      'Ana set what the children of Agency One pay for bot from pass-through to 0.375 a unit',
    );
    const other = { action: 'billing.agent_limit', organization_id: 'c', details: { before: 1, after: 2 } };
    expect(activityDetailsAsSeen(viewer, other)).toBe(other.details);
  });
});
