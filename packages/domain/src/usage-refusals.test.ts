import { describe, expect, it } from 'vitest';
import { MESSAGES, USAGE_REJECTIONS, USAGE_REFUSAL_DETAILS, capRefusalOf, parseUsageRefusal, usageCapRefusal } from './index.ts';

const ORG = '0b7e3a52-4a3f-4f7e-9d0e-6f1c2a8b9c01';
const SETTER = '5d2c1b0a-9e8f-4a7b-8c6d-5e4f3a2b1c0d';
const cap = {
  cap: 'subtree',
  limit: '100.00',
  window: 'week',
  window_start: '2026-11-30',
  resets_at: '2026-12-07T00:00:00.000Z',
  name: 'Harbor Realty',
  organization_id: ORG,
  set_by_id: SETTER,
  set_by_name: 'Bay Agency',
};

describe('a refusal the usage engine gives', () => {
  it('has a detail schema for every reason the domain lists, and no other', () => {
    expect(Object.keys(USAGE_REFUSAL_DETAILS).sort()).toEqual([...USAGE_REJECTIONS].sort());
  });

  it('parses each reason with its own detail', () => {
    expect(parseUsageRefusal('out_of_reach', null)).toEqual({ reason: 'out_of_reach', detail: null });
    expect(parseUsageRefusal('organization_not_active', null)).toEqual({ reason: 'organization_not_active', detail: null });
    expect(parseUsageRefusal('unknown_agent', null)).toEqual({ reason: 'unknown_agent', detail: null });
    expect(parseUsageRefusal('agent_not_active', null)).toEqual({ reason: 'agent_not_active', detail: null });
    for (const rule of ['ahead', 'behind', 'no_price']) {
      expect(parseUsageRefusal('invalid', { rule })).toEqual({ reason: 'invalid', detail: { rule } });
    }
    for (const reason of ['key_cap_reached', 'activation_cap_reached', 'spend_cap_reached']) {
      for (const scope of ['key', 'activation', 'subtree']) {
        expect(parseUsageRefusal(reason, { ...cap, cap: scope })).toEqual({ reason, detail: { ...cap, cap: scope } });
      }
    }
    const short = { balance: '0.17', needed: '999999999999899900000.00' };
    expect(parseUsageRefusal('insufficient_credits', short)).toEqual({ reason: 'insufficient_credits', detail: short });
  });

  it('fails on a reason the domain does not know, rather than telling a person nothing', () => {
    expect(() => parseUsageRefusal('window_cap_reached', null)).toThrow();
    expect(() => parseUsageRefusal(null, null)).toThrow();
  });

  it('fails on a detail that does not fit its reason', () => {
    expect(() => parseUsageRefusal('out_of_reach', { rule: 'ahead' })).toThrow();
    expect(() => parseUsageRefusal('invalid', { rule: 'late' })).toThrow();
    expect(() => parseUsageRefusal('invalid', null)).toThrow();
    expect(() => parseUsageRefusal('spend_cap_reached', { ...cap, cap: 'day' })).toThrow();
    expect(() => parseUsageRefusal('spend_cap_reached', { ...cap, limit: '100' })).toThrow();
    expect(() => parseUsageRefusal('spend_cap_reached', { ...cap, limit: 'x100.00' })).toThrow();
    expect(() => parseUsageRefusal('spend_cap_reached', { ...cap, limit: '100.00x' })).toThrow();
    expect(() => parseUsageRefusal('spend_cap_reached', { ...cap, window: '2026-11' })).toThrow();
    expect(() => parseUsageRefusal('spend_cap_reached', { ...cap, window: 'year' })).toThrow();
    expect(() => parseUsageRefusal('spend_cap_reached', { ...cap, window_start: '2026-11' })).toThrow();
    expect(() => parseUsageRefusal('spend_cap_reached', { ...cap, resets_at: '2026-12-07' })).toThrow();
    expect(() => parseUsageRefusal('spend_cap_reached', { ...cap, set_by_id: 'Bay' })).toThrow();
    expect(() => parseUsageRefusal('spend_cap_reached', { ...cap, set_by_name: undefined })).toThrow();
    expect(() => parseUsageRefusal('spend_cap_reached', { ...cap, organization_id: 'Harbor' })).toThrow();
    expect(() => parseUsageRefusal('spend_cap_reached', { ...cap, name: undefined })).toThrow();
    expect(() => parseUsageRefusal('insufficient_credits', { balance: '0.17' })).toThrow();
    expect(() => parseUsageRefusal('insufficient_credits', { balance: '0.1', needed: '1.00' })).toThrow();
    expect(() => parseUsageRefusal('insufficient_credits', { balance: '-0.10', needed: '1.00' })).toThrow();
  });
});

describe('the cap a refusal names, as the machine API tells it', () => {
  const above = MESSAGES.usage.organizationAbove;

  it('names the cap, its window, when it resets and who set it', () => {
    expect(usageCapRefusal(parseUsageRefusal('spend_cap_reached', cap).detail as never)).toEqual({
      scope: 'subtree',
      limit: '100.00',
      window: 'week',
      window_start: '2026-11-30',
      resets_at: '2026-12-07T00:00:00.000Z',
      name: 'Harbor Realty',
      organization_id: ORG,
      set_by: { organization_id: SETTER, name: 'Bay Agency' },
    });
  });

  it('reads "an organization above yours", with no id, for each organization the key may not see', () => {
    const hidden = { ...cap, name: null, organization_id: null, set_by_id: null, set_by_name: null };
    expect(capRefusalOf(parseUsageRefusal('spend_cap_reached', hidden))).toMatchObject({
      name: above,
      organization_id: null,
      set_by: { organization_id: null, name: above },
    });
    const setterHidden = { ...cap, set_by_id: null, set_by_name: null };
    expect(capRefusalOf(parseUsageRefusal('activation_cap_reached', setterHidden))).toMatchObject({
      name: 'Harbor Realty',
      organization_id: ORG,
      set_by: { organization_id: null, name: above },
    });
    expect(above).toBe('an organization above yours');
  });

  it('is null for every other reason', () => {
    expect(capRefusalOf(parseUsageRefusal('insufficient_credits', { balance: '0.17', needed: '1.00' }))).toBeNull();
    expect(capRefusalOf(parseUsageRefusal('out_of_reach', null))).toBeNull();
  });
});
