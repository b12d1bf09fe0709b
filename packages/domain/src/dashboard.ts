/** Colour rules of the dashboard, as pure functions both sides may use. */

import { AGENT_LIMIT } from './constants.ts';

export type Tone = 'green' | 'amber' | 'red';

/** A resource bar: under 50% green, under 75% amber, else red. */
export function resourceBarTone(percent: number): Tone {
  if (percent < 50) return 'green';
  if (percent < 75) return 'amber';
  return 'red';
}

/** A rate (success rate and the like): 90 or more green, 75 or more amber, else red. */
export function rateTone(rate: number): Tone {
  if (rate >= 90) return 'green';
  if (rate >= 75) return 'amber';
  return 'red';
}

export type ResponseTimeRating = 'Good' | 'Average' | 'Needs Improvement';

/** A response time in seconds: under 3 s Good, under 5 s Average, else Needs Improvement. */
export function responseTimeRating(seconds: number): ResponseTimeRating {
  if (seconds < 3) return 'Good';
  if (seconds < 5) return 'Average';
  return 'Needs Improvement';
}

/**
 * `part` as a percentage of `whole`, rounded to one decimal; null when `whole` is zero
 * (a share of nothing has no meaning, and the bar shows no colour).
 */
export function percentOf(part: number, whole: number): number | null {
  if (whole === 0) return null;
  return Math.round((part / whole) * 1000) / 10;
}

/**
 * The change from `previous` to `current` in percent, rounded to one decimal; null when
 * `previous` is zero (growth from nothing is not a percentage).
 */
export function percentChange(current: number, previous: number): number | null {
  if (previous === 0) return null;
  return Math.round(((current - previous) / previous) * 1000) / 10;
}

/**
 * A health score (0 to 100, as an agent runtime reports it) coloured as a rate: 90 or more
 * green, 75 or more amber, else red; null when the runtime has reported none.
 */
export function healthTone(score: number | null): Tone | null {
  return score === null ? null : rateTone(score);
}

/** Where an organization's active agents stand against its agent limit. */
export type AgentLimitStanding = 'at' | 'near';

export const AGENT_LIMIT_STANDING_LABELS: Record<AgentLimitStanding, string> = { at: 'At limit', near: 'Near limit' };

/**
 * `at` when the active agents reach the limit (or exceed a lowered one), `near` when they
 * reach AGENT_LIMIT.nearPercent of it, else null. A limit of 0 allows no agent, so it has
 * no standing to mark. Whole numbers only: active × 100 ≥ limit × nearPercent.
 */
export function agentLimitStanding(active: number, limit: number): AgentLimitStanding | null {
  if (limit <= 0) return null;
  if (active >= limit) return 'at';
  if (active * 100 >= limit * AGENT_LIMIT.nearPercent) return 'near';
  return null;
}
