import type { ApiKey } from '@console/domain';
import { OWN_ORG_ID } from './helpers';

export const KEY_ID = '00000000-0000-4000-8000-0000000000d1';

/** An API key as the list gives it. */
export function apiKeyOf(overrides: Partial<ApiKey> = {}): ApiKey {
  return {
    id: KEY_ID,
    organization_id: OWN_ORG_ID,
    name: 'Production runtime',
    prefix: 'oc_1a2b3c4d',
    scopes: ['usage:write', 'agents:report'],
    created_by: { id: '00000000-0000-4000-8000-0000000000aa', name: 'Alice Admin', email: 'alice@example.test' },
    created_at: '2025-03-01T10:00:00.000Z',
    last_used_at: null,
    use_count: 0,
    revoked_at: null,
    state: 'live',
    expires_at: null,
    previous_prefix: null,
    previous_expires_at: null,
    rolled_at: null,
    rate_limit_per_minute: null,
    monthly_cap: { cap: null, month: '2025-03', charged: '0.00' },
    daily_cap: { cap: null, window_start: '2025-03-14', charged: '0.00' },
    weekly_cap: { cap: null, window_start: '2025-03-10', charged: '0.00' },
    ...overrides,
  };
}

/** A page of the key list as the server answers it. */
export function keyPage(apiKeys: ApiKey[], nextCursor: string | null = null) {
  return { api_keys: apiKeys, next_cursor: nextCursor };
}
