import type { GlobalSettings } from '@console/domain';
import { billingOf, OWN_ORG_ID } from './billing-data';
import { ledgerPage } from './credit-data';
import { grantListOf } from './grant-data';
import { json, makeSession, mockApi, renderApp, type ApiRoutes, type SessionOptions } from './helpers';

export const LEDGER = 'GET /api/credits/ledger';
export const SETTINGS = 'GET /api/settings';
export const KEYS = `GET /api/organizations/${OWN_ORG_ID}/api-keys`;

/** The global settings as a new installation answers them: nothing set yet. */
export const UNSET: GlobalSettings = {
  documentation_url: null,
  billing_portal_url: null,
  community_channels: [],
  api_key_rate_limit_ceiling: 6000,
  step_up_threshold: '1000.00',
  updated_at: null,
  updated_by_name: null,
};

/**
 * /settings opened by a signed-in person whose every read answers: the profile, the own
 * billing (`billing`), the ledger, the API keys (none) and the global settings (unset),
 * each replaceable through `extra`.
 */
export function renderSettings(options: SessionOptions = {}, billing = billingOf({ limit: 10, balance: '142.00' }), extra: ApiRoutes = {}) {
  const session = makeSession(options);
  const api = mockApi({
    'GET /api/users/me': () => json(200, session.user),
    [`GET /api/organizations/${OWN_ORG_ID}/billing`]: () => json(200, billing),
    [LEDGER]: () => json(200, ledgerPage([], { credit_balance: '142.00' })),
    [KEYS]: () => json(200, { api_keys: [] }),
    [SETTINGS]: () => json(200, UNSET),
    // The balance card's parts: every credit open.
    [`GET /api/organizations/${OWN_ORG_ID}/credit-grants`]: () => json(200, grantListOf()),
    ...extra,
  });
  renderApp('/settings', { session });
  return { session, api };
}
