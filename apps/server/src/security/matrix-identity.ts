import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { mayApproveDomainClaim, mayManageIdentity, mayReviewDomainClaims, mayViewIdentity } from '@console/domain';
import type { DB } from '../db/schema.ts';
import { hashToken } from '../lib/secrets.ts';
import { anyone, holds, inPath, one, publicRoute, targeted, when, withBody, type CallInput, type MatrixEntry } from './matrix-scene.ts';

/**
 * The matrix's entries for single sign-on and provisioning. Every organization has a domain
 * claim and a SCIM token whose ids are the organization's own id, so a route's `:domainId` or
 * `:tokenId` is the target organization's id.
 */
export async function prepareIdentityRows(db: Kysely<DB>, organizationIds: readonly string[]): Promise<void> {
  for (const id of organizationIds) {
    await db
      .insertInto('identity_domains')
      .values({ id, organization_id: id, domain: `d${id.slice(0, 8)}.matrix.example`, verification_token: 'matrix' })
      .execute();
    await db
      .insertInto('scim_tokens')
      .values({
        id,
        organization_id: id,
        name: 'Matrix',
        prefix: `scim_${id.slice(0, 8)}`,
        token_hash: hashToken(randomBytes(16).toString('hex')),
      })
      .execute();
  }
}

const views = targeted(({ actor, org }) => ({ first: holds(actor, 'identity.manage'), allowed: mayViewIdentity(actor, org) }));
const manages = targeted(({ actor, org }) => ({ first: holds(actor, 'identity.manage'), allowed: mayManageIdentity(actor, org) }));
const named =
  (param: ':domainId' | ':tokenId') =>
  ({ url, target }: CallInput) => ({ path: url.replace(param, target!.id) });

export const IDENTITY_MATRIX: Record<string, MatrixEntry> = {
  // Anyone may ask how an e-mail signs in; an e-mail at no claimed domain signs in with its password.
  'POST /api/auth/sso/discover': publicRoute(200, () => ({ email: 'nobody@matrix.test' })),
  // An answer with no pending sign-in behind it: back to the sign-in page, whoever calls.
  'GET /api/auth/sso/callback': publicRoute(302),
  // A step-up through the provider, for one's own session only: the matrix's sessions began with a password (422).
  'POST /api/auth/sso/step-up': one({ target: null, expect: anyone, call: withBody(() => ({ return_to: '/' })) }),
  'GET /api/organizations/:id/identity': one({ target: 'org', expect: views, call: inPath }),
  // Nothing answers at this issuer: an allowed caller is told so (422), and nothing is saved.
  'PUT /api/organizations/:id/identity/provider': one({
    target: 'org',
    expect: manages,
    call: withBody(() => ({ issuer: 'http://127.0.0.1:9', client_id: 'matrix', client_secret: 'matrix-secret' })),
  }),
  'DELETE /api/organizations/:id/identity/provider': one({ target: 'org', expect: manages, call: inPath }),
  'PUT /api/organizations/:id/identity/settings': one({
    target: 'org',
    expect: manages,
    call: withBody(() => ({ jit_role: null, enforce_sso: false, break_glass_user_id: null })),
  }),
  'POST /api/organizations/:id/identity/test': one({ target: 'org', expect: manages, call: inPath }),
  'POST /api/organizations/:id/identity/domains': one({
    target: 'org',
    expect: manages,
    call: withBody(({ unique }) => ({ domain: `c${unique.replace(/[^a-z0-9]/g, '')}.matrix.example` })),
  }),
  'POST /api/organizations/:id/identity/domains/:domainId/verify': one({ target: 'org', expect: manages, call: named(':domainId') }),
  // A house admin approves a claim anywhere in the tree; nobody else does.
  'POST /api/organizations/:id/identity/domains/:domainId/approve': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'identity.manage'), allowed: mayApproveDomainClaim(actor, org) })),
    call: named(':domainId'),
  }),
  'GET /api/identity/domain-claims': one({ target: null, expect: when(mayReviewDomainClaims), call: inPath }),
  'DELETE /api/organizations/:id/identity/domains/:domainId': one({ target: 'org', expect: manages, call: named(':domainId') }),
  'GET /api/organizations/:id/scim-tokens': one({ target: 'org', expect: views, call: inPath }),
  'POST /api/organizations/:id/scim-tokens': one({ target: 'org', expect: manages, call: withBody(() => ({ name: 'Matrix' })) }),
  'POST /api/organizations/:id/scim-tokens/:tokenId/rotate': one({ target: 'org', expect: manages, call: named(':tokenId') }),
  'DELETE /api/organizations/:id/scim-tokens/:tokenId': one({ target: 'org', expect: manages, call: named(':tokenId') }),
  'GET /api/organizations/:id/scim-calls': one({ target: 'org', expect: views, call: inPath }),
};
