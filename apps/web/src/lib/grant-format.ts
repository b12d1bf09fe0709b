import type { GrantRow } from '@console/domain';
import { MESSAGES } from './wording';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A grant's agent types by name, or "Every agent". */
export const agentsOf = (grant: Pick<GrantRow, 'agent_types'>): string =>
  grant.agent_types ? grant.agent_types.map((type) => type.name).join(', ') : MESSAGES.grantPages.terms.everyAgent;

/** How long until an instant, as "5 hours" under a day and "3 days" from then on (whole days, never rounded up). */
export function expiresIn(at: string, now = Date.now()): string {
  const w = MESSAGES.grantPages.expiring;
  const left = Math.max(0, Date.parse(at) - now);
  if (left < DAY_MS) return w.inHours(Math.ceil(left / HOUR_MS));
  return w.inDays(Math.floor(left / DAY_MS));
}
