import { RATE_LIMITS } from '@console/domain';

/** The limits every bounded door reads: RATE_LIMITS, scaled by RATE_LIMIT_FACTOR (or a test's own). */
export type RateLimitSettings = { [K in keyof typeof RATE_LIMITS]: number };

/**
 * The production limits under RATE_LIMIT_FACTOR: each count is multiplied by it, each
 * least interval between two requests divided by it, and windows stay as they are.
 */
export function scaledRateLimits(factor: number): RateLimitSettings {
  const scale = (name: string, value: number) => {
    if (name.endsWith('IntervalSeconds')) return value / factor;
    if (name.endsWith('WindowSeconds') || name === 'windowSeconds') return value;
    return Math.round(value * factor);
  };
  return Object.fromEntries(Object.entries(RATE_LIMITS).map(([name, value]) => [name, scale(name, value)])) as RateLimitSettings;
}
