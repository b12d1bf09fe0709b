import { describe, expect, it } from 'vitest';
import { agentLimitRange, agentLimitRefusal } from './schemas/billing.ts';

describe('agent limit', () => {
  const facts = { childrenTotal: 2, active: 3, max: 12 };

  it('refuses a limit below the children total, above the capacity left, or below the active agents, in that order', () => {
    expect(agentLimitRefusal(1, facts)).toBe('below_children_limits');
    expect(agentLimitRefusal(1, { childrenTotal: 2, active: 0, max: 12 })).toBe('below_children_limits');
    expect(agentLimitRefusal(13, facts)).toBe('above_parent_capacity');
    expect(agentLimitRefusal(2, facts)).toBe('below_active_agents');
    expect(agentLimitRefusal(0, { childrenTotal: 0, active: 1, max: null })).toBe('below_active_agents');
  });

  it('allows every limit from the larger of the children total and the active agents up to the capacity left', () => {
    expect(agentLimitRefusal(3, facts)).toBeNull();
    expect(agentLimitRefusal(12, facts)).toBeNull();
    expect(agentLimitRefusal(2, { childrenTotal: 2, active: 0, max: 2 })).toBeNull();
    expect(agentLimitRefusal(1_000, { childrenTotal: 0, active: 0, max: null })).toBeNull();
  });

  it('the range starts at the larger of the children total and the active agents', () => {
    expect(agentLimitRange(facts)).toEqual({ min: 3, max: 12 });
    expect(agentLimitRange({ childrenTotal: 5, active: 3, max: 12 })).toEqual({ min: 5, max: 12 });
    expect(agentLimitRange({ childrenTotal: 4, active: 1, max: null })).toEqual({ min: 4, max: null });
  });

  it('shows a capacity left below 0 as 0', () => {
    expect(agentLimitRange({ childrenTotal: 0, active: 0, max: -2 })).toEqual({ min: 0, max: 0 });
    expect(agentLimitRange({ childrenTotal: 0, active: 0, max: 0 })).toEqual({ min: 0, max: 0 });
  });

  it('agrees with the refusal at both ends of its range', () => {
    for (const f of [facts, { childrenTotal: 5, active: 3, max: 12 }, { childrenTotal: 1, active: 4, max: null }]) {
      const { min, max } = agentLimitRange(f);
      expect(agentLimitRefusal(min, f)).toBeNull();
      expect(agentLimitRefusal(min - 1, f)).not.toBeNull();
      if (max !== null) {
        expect(agentLimitRefusal(max, f)).toBeNull();
        expect(agentLimitRefusal(max + 1, f)).toBe('above_parent_capacity');
      }
    }
  });
});
