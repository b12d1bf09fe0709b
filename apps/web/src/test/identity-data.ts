import type { IdentityDomain, IdentityView, OrgStatus, PendingDomainClaim, ScimToken } from '@console/domain';
import { json, makeSession, mockApi, OWN_ORG_ID, renderApp, type ApiRoutes, type SessionOptions } from './helpers';

/** The requests of the sign-in's first step and of Settings > Identity, as mockApi names them. */
export const DISCOVER = 'POST /api/auth/sso/discover';
const BASE = `/api/organizations/${OWN_ORG_ID}`;
export const IDENTITY_PATHS = {
  view: `GET ${BASE}/identity`,
  setProvider: `PUT ${BASE}/identity/provider`,
  removeProvider: `DELETE ${BASE}/identity/provider`,
  settings: `PUT ${BASE}/identity/settings`,
  test: `POST ${BASE}/identity/test`,
  claim: `POST ${BASE}/identity/domains`,
  verify: (domainId: string) => `POST ${BASE}/identity/domains/${domainId}/verify`,
  approve: (domainId: string) => `POST ${BASE}/identity/domains/${domainId}/approve`,
  removeDomain: (domainId: string) => `DELETE ${BASE}/identity/domains/${domainId}`,
  tokens: `GET ${BASE}/scim-tokens`,
  createToken: `POST ${BASE}/scim-tokens`,
  rotate: (tokenId: string) => `POST ${BASE}/scim-tokens/${tokenId}/rotate`,
  revoke: (tokenId: string) => `DELETE ${BASE}/scim-tokens/${tokenId}`,
  calls: `GET ${BASE}/scim-calls`,
  /** The house admins' review list of the whole tree's pending claims. */
  pendingClaims: 'GET /api/identity/domain-claims',
  /** Approving by hand a claim of any organization, from that list. */
  approveIn: (organizationId: string, domainId: string) => `POST /api/organizations/${organizationId}/identity/domains/${domainId}/approve`,
};

/** The sign-in's first step answering "the password" for every e-mail: no organization's provider claims it. */
export const PASSWORD_METHOD: ApiRoutes = { [DISCOVER]: () => json(200, { method: 'password' }) };

export const ADMIN_ID = '00000000-0000-4000-8000-0000000000aa';
export const OTHER_ADMIN_ID = '00000000-0000-4000-8000-0000000000ab';
export const DOMAIN_ID = '00000000-0000-4000-8000-0000000000d1';
export const TOKEN_ID = '00000000-0000-4000-8000-0000000000c1';

export function domainOf(overrides: Partial<IdentityDomain> = {}): IdentityDomain {
  return {
    id: DOMAIN_ID,
    domain: 'acme.example',
    state: 'pending',
    record_name: '_console-verification.acme.example',
    record_value: 'console-verification=3f2a9c7d1e',
    verified_at: null,
    approved_at: null,
    approved_by: null,
    checked_at: null,
    check_error: null,
    created_at: '2025-03-01T10:00:00.000Z',
    ...overrides,
  };
}

/** An organization's identity as a tenant's admins first see it: no provider, no domain, nothing required. */
export function identityViewOf(overrides: Partial<IdentityView> = {}): IdentityView {
  return {
    organization_id: OWN_ORG_ID,
    provider: null,
    redirect_uri: 'https://console.example.com/api/auth/sso/callback',
    jit_role: null,
    jit_roles: ['tenant_user', 'tenant_manager'],
    enforce_sso: false,
    break_glass: null,
    admins: [
      { id: ADMIN_ID, email: 'alice@example.test', name: 'Alice Admin' },
      { id: OTHER_ADMIN_ID, email: 'bob@example.test', name: '' },
    ],
    domains: [],
    ...overrides,
  };
}

export const PROVIDER: NonNullable<IdentityView['provider']> = {
  issuer: 'https://login.acme.example',
  client_id: 'console-client',
  email_claim: 'email',
  name_claim: 'name',
  tested_at: null,
  updated_at: '2025-03-02T09:00:00.000Z',
};

export const CLAIMANT_ORG_ID = '00000000-0000-4000-8000-0000000000e1';
export const CLAIM_ID = '00000000-0000-4000-8000-0000000000d2';

/** A tenant's pending claim, as the house's admins see it in their review list. */
export function pendingClaimOf(overrides: Partial<PendingDomainClaim> = {}): PendingDomainClaim {
  return {
    id: CLAIM_ID,
    domain: 'globex.example',
    organization_id: CLAIMANT_ORG_ID,
    organization_name: 'Globex Tenant',
    claimed_by: 'gina@globex.example',
    created_at: '2025-03-02T11:30:00.000Z',
    taken: false,
    ...overrides,
  };
}

export function scimTokenOf(overrides: Partial<ScimToken> = {}): ScimToken {
  return {
    id: TOKEN_ID,
    name: 'Okta provisioning',
    prefix: 'scim_1a2b3c4d',
    created_by: { id: ADMIN_ID, email: 'alice@example.test', name: 'Alice Admin' },
    created_at: '2025-03-01T10:00:00.000Z',
    rotated_at: null,
    last_used_at: '2025-03-03T08:15:00.000Z',
    revoked_at: null,
    ...overrides,
  };
}

export function scimCallOf(overrides: Record<string, unknown> = {}) {
  return {
    id: '1',
    method: 'POST',
    path: '/scim/v2/Users',
    status: 201,
    outcome: 'Created dana@acme.example',
    token: { id: TOKEN_ID, name: 'Okta provisioning', prefix: 'scim_1a2b3c4d' },
    created_at: '2025-03-03T08:15:00.000Z',
    ...overrides,
  };
}

/**
 * /settings/identity (or `path`) opened by a signed-in admin of the own organization (a tenant's
 * by default) whose identity answers `view()`, with no SCIM tokens, calls or pending claims of the
 * tree unless `routes` says otherwise.
 */
export function renderIdentity(
  options: SessionOptions = {},
  view: () => IdentityView = () => identityViewOf(),
  routes: ApiRoutes = {},
  { path = '/settings/identity', status = 'active' }: { path?: string; status?: OrgStatus } = {},
) {
  const session = makeSession({ role: 'tenant_admin', ...options });
  if (status !== 'active') session.user.organization = { ...session.user.organization, status };
  const api = mockApi({
    'GET /api/users/me': () => json(200, session.user),
    [IDENTITY_PATHS.view]: () => json(200, view()),
    [IDENTITY_PATHS.tokens]: () => json(200, { items: [] }),
    [IDENTITY_PATHS.calls]: () => json(200, { items: [] }),
    [IDENTITY_PATHS.pendingClaims]: () => json(200, { items: [] }),
    ...routes,
  });
  renderApp(path, { session });
  return api;
}
