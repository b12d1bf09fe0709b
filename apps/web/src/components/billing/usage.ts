import { AGENT_LIMIT } from '@console/domain';
import { MESSAGES } from '@/lib/wording';

const m = MESSAGES.billingPages;

export type UsageLevel = 'good' | 'warning' | 'critical';

/** Agent limit usage in percent (unrounded; shown floored): active / limit, clamped 0..100, and 0 when the limit is missing or 0. */
export function usagePercent(active: number, limit: number | null | undefined): number {
  if (!limit || limit <= 0) return 0;
  return Math.min(100, Math.max(0, (active / limit) * 100));
}

export function usageLevel(percent: number): UsageLevel {
  if (percent >= AGENT_LIMIT.criticalPercent) return 'critical';
  if (percent >= AGENT_LIMIT.warningPercent) return 'warning';
  return 'good';
}

/** Badge, badge variant, bar colour and advice of each level: good below AGENT_LIMIT.warningPercent, critical from AGENT_LIMIT.criticalPercent. */
export const USAGE_LEVELS = {
  good: { badge: m.badgeGood, variant: 'secondary', bar: 'bg-primary', advice: m.adviceGood },
  warning: { badge: m.badgeWarning, variant: 'outline', bar: 'bg-amber-500', advice: m.adviceWarning },
  critical: { badge: m.badgeCritical, variant: 'destructive', bar: 'bg-destructive', advice: m.adviceCritical },
} as const;

/** A part of a whole in whole percent (0 when the whole is 0), for capacity shares. */
export function sharePercent(part: number, whole: number): number {
  if (whole <= 0) return 0;
  return Math.round((part / whole) * 100);
}
