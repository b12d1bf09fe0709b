import { describe, expect, it } from 'vitest';
import { USAGE_REJECTIONS, USAGE_REFUSAL_DETAILS, parseUsageRefusal } from './index.ts';

const ORG = '0b7e3a52-4a3f-4f7e-9d0e-6f1c2a8b9c01';
const cap = { cap: 'subtree', limit: '100.00', window: '2026-11', name: 'Harbor Realty', organization_id: ORG };

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
    expect(() => parseUsageRefusal('spend_cap_reached', { ...cap, window: '2026-11-01' })).toThrow();
    expect(() => parseUsageRefusal('spend_cap_reached', { ...cap, window: 'x2026-11' })).toThrow();
    expect(() => parseUsageRefusal('spend_cap_reached', { ...cap, organization_id: 'Harbor' })).toThrow();
    expect(() => parseUsageRefusal('spend_cap_reached', { ...cap, name: undefined })).toThrow();
    expect(() => parseUsageRefusal('insufficient_credits', { balance: '0.17' })).toThrow();
    expect(() => parseUsageRefusal('insufficient_credits', { balance: '0.1', needed: '1.00' })).toThrow();
    expect(() => parseUsageRefusal('insufficient_credits', { balance: '-0.10', needed: '1.00' })).toThrow();
  });
});
