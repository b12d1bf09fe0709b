import { formatUnits, type ActivationStatus, type AgentKind } from '@console/domain';
import { formatDistanceStrict } from 'date-fns';

export const AGENT_KIND_LABELS: Record<AgentKind, string> = {
  assistant: 'Assistant',
  automation: 'Automation',
  integration: 'Integration',
  analytics: 'Analytics',
  other: 'Other',
};

export const ACTIVATION_STATUS_LABELS: Record<ActivationStatus, string> = {
  active: 'Active',
  inactive: 'Inactive',
  error: 'Error',
};

/** The status of a live activation whose runtime has not reported yet: it counts against the limit all the same. */
export const AWAITING_FIRST_REPORT = 'Awaiting first report';

/**
 * Whether an activation's runtime has never reported: its status is then only the default
 * it was stored with, not anything the runtime said.
 */
export function awaitingFirstReport(activation: { last_active_at: string | null }): boolean {
  return activation.last_active_at === null;
}

/** Units as the domain formats them ("12.5", "1,200"). */
export { formatUnits };

/** Units with their unit: "12.5 × 1k tokens". */
export function formatUnitsOf(value: string, unit: string): string {
  return `${formatUnits(value)} × ${unit}`;
}

/** A price per unit: "0.25 credits per run". */
export function formatPrice(price: string, unit: string): string {
  return `${formatUnits(price)} credits per ${unit}`;
}

/** How long ago an agent was last active: "5 minutes ago"; null when never. */
export function lastActive(iso: string | null, now = new Date()): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  // A runtime's clock may run a little ahead: "just now" rather than "in 3 seconds".
  if (date.getTime() >= now.getTime()) return 'just now';
  return formatDistanceStrict(date, now, { addSuffix: true });
}
