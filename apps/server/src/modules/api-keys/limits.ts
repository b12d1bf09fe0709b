import { MESSAGES } from '@console/domain';
import type { Executor } from '../../db/schema.ts';
import { countOrRefuse } from '../../lib/rate-limit.ts';
import type { RateLimitSettings } from '../../lib/rate-limit-settings.ts';

/** The settings the API key limits read (RATE_LIMITS, scaled by RATE_LIMIT_FACTOR). */
export type ApiKeyLimitSettings = Pick<
  RateLimitSettings,
  'apiKeyChangesPerOrganization' | 'apiKeyChangesPerPerson' | 'apiKeyChangesWindowSeconds'
>;

const k = MESSAGES.apiKeys;

/**
 * The limits on API key changes (making, rolling, editing a key), counted in the `rate_limits`
 * table inside the change's transaction, after its permission and rule checks: a refused
 * change rolls back with its counts, so it writes nothing (no key, no audit row, no webhook
 * event) and uses up no allowance, and every server process shares the counts.
 */
export function createApiKeyLimits(settings: ApiKeyLimitSettings) {
  const windowSeconds = settings.apiKeyChangesWindowSeconds;

  /** Counts one change of the organization's keys by the person; past either limit, 429 with the longest wait. */
  async function count(trx: Executor, change: { organizationId: string; userId: string }): Promise<void> {
    await countOrRefuse(trx, [
      {
        key: `api-keys:organization:${change.organizationId}`,
        max: settings.apiKeyChangesPerOrganization,
        windowSeconds,
        message: k.tooManyForOrganization,
      },
      { key: `api-keys:person:${change.userId}`, max: settings.apiKeyChangesPerPerson, windowSeconds, message: k.tooManyFromPerson },
    ]);
  }

  return { count };
}

export type ApiKeyLimits = ReturnType<typeof createApiKeyLimits>;
