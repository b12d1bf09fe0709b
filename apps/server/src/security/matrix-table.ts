import { sql, type Kysely } from 'kysely';
import {
  childTypeOf,
  isOwnOrganization,
  mayAdjustBalance,
  mayAllocateFrom,
  mayAllocateTo,
  mayChangePersonStatus,
  mayEndAccessOf,
  mayChangeRoleOf,
  mayCreateChildOrganization,
  mayDeleteOrganization,
  mayEditOrganization,
  mayEditPerson,
  mayGiveRole,
  mayImportUsage,
  mayInviteTo,
  mayListOrganizations,
  mayListPeople,
  mayManageAgentsOf,
  mayManageApiKeysOf,
  mayManageWebhooksOf,
  mayManageMfaPolicy,
  mayViewMfaPolicy,
  mayManageCatalog,
  mayManageGlobalSettings,
  mayManageInvitationsOf,
  mayOpenDebug,
  mayReadOutbox,
  maySetAgentLimit,
  maySetLowBalanceThreshold,
  mayManageAlertLines,
  maySetPrices,
  maySetSpendControls,
  mayViewPrices,
  mayViewAgents,
  mayViewActivity,
  mayViewBilling,
  mayReadOrganization,
  mayViewPerson,
  type OrgType,
} from '@console/domain';
import type { DB } from '../db/schema.ts';
import { REVEALS, prepareMarginRows } from './matrix-margins.ts';
import {
  anyone,
  denied,
  holds,
  inPath,
  inQuery,
  one,
  publicRoute,
  reads,
  targeted,
  when,
  withBody,
  RELATIONS,
  type MatrixEntry,
} from './matrix-scene.ts';
import { IDENTITY_MATRIX } from './matrix-identity.ts';
import { INVOICE_MATRIX } from './matrix-invoices.ts';

export {
  RELATIONS,
  isPublic,
  type Call,
  pricingViewAt,
  type CallerInfo,
  type Expectation,
  type MatrixEntry,
  type PublicRoute,
  type Relation,
  type Target,
  type TargetKind,
  type Variant,
} from './matrix-scene.ts';

/**
 * The authorization matrix's expectations, derived from the domain's permission table and
 * policy predicates, never from the server's answers: for each relation the caller and the
 * target are described as the predicates read them, and the predicates decide. One entry
 * per API route; the test fails when the app has a route this table does not name, or the
 * reverse.
 */

/** The agent type every activation of the matrix names (never retired). */
export const MATRIX_AGENT_TYPE_ID = '00000000-0000-4000-8000-00000000a001';
/** The agent type the catalog's edits and retirement act on. */
export const MATRIX_EDITED_TYPE_ID = '00000000-0000-4000-8000-00000000a002';

/** A catalog route's url naming the edited type, whatever stands for its id (`:id`, or nothing for a route without a target). */
const editedTypeUrl = (url: string) => url.replace(/\/agent-types\/[^/]*/, `/agent-types/${MATRIX_EDITED_TYPE_ID}`);

/**
 * The agent rows the matrix acts on: two agent types, and in every organization a live
 * activation, an API key and a webhook endpoint with a delivery whose ids are the
 * organization's own id, so a route's `:activationId`, `:keyId`, `:endpointId` or
 * `:deliveryId` is the target organization's id.
 */
export async function prepareAgentRows(db: Kysely<DB>, organizationIds: readonly string[]): Promise<void> {
  await db
    .insertInto('agent_types')
    .values([
      { id: MATRIX_AGENT_TYPE_ID, code: 'matrix-agent', name: 'Matrix Agent', kind: 'other', unit: 'run' },
      { id: MATRIX_EDITED_TYPE_ID, code: 'matrix-edited', name: 'Matrix Edited', kind: 'other', unit: 'run' },
    ])
    .execute();
  await db
    .insertInto('agent_prices')
    .values(
      [MATRIX_AGENT_TYPE_ID, MATRIX_EDITED_TYPE_ID].map((id) => ({ agent_type_id: id, effective_from: sql<Date>`now()`, price: '0.0100' })),
    )
    .execute();
  for (const id of organizationIds) {
    await db.insertInto('agent_activations').values({ id, organization_id: id, agent_type_id: MATRIX_AGENT_TYPE_ID }).execute();
    await db
      .insertInto('api_keys')
      .values({
        id,
        organization_id: id,
        name: 'Matrix',
        prefix: `oc_${id.slice(0, 8)}`,
        secret_hash: '0'.repeat(64),
        scopes: ['usage:write'],
      })
      .execute();
    // A webhook endpoint with one failed delivery, all three named by the organization's id (`:endpointId`, `:deliveryId`).
    await db
      .insertInto('webhook_endpoints')
      .values({ id, organization_id: id, url: 'http://127.0.0.1:9/matrix', event_types: ['balance.low'], secret_encrypted: 'v1.matrix' })
      .execute();
    await db
      .insertInto('webhook_events')
      .values({ id, type: 'webhook.test', organization_id: id, data: JSON.stringify({ message: 'matrix' }) })
      .execute();
    await db.insertInto('webhook_deliveries').values({ id, event_id: id, endpoint_id: id, state: 'failed' }).execute();
    // An alert line named by the organization's id (`:lineId`).
    await db.insertInto('alert_lines').values({ id, organization_id: id, kind: 'runway_days', bound: '7' }).execute();
    // An allocation made by the organization, its transaction group named by the organization's
    // id (`:transactionId`): both sides on the organization itself, so a reversal the caller
    // may make finds them, and balances stay as they are.
    await db
      .insertInto('credit_ledger_entries')
      .values([
        { organization_id: id, amount: '0.01', entry_type: 'allocation_received', transaction_group: id, balance_after: '0.01' },
        { organization_id: id, amount: '-0.01', entry_type: 'allocation_sent', transaction_group: id, balance_after: '0.00' },
      ])
      .execute();
  }
  await prepareMarginRows(db, organizationIds, MATRIX_AGENT_TYPE_ID);
}

/** A passkey's answer (well formed, signed by nothing the server knows). */
const MATRIX_ASSERTION = {
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
  clientExtensionResults: {},
};

/** The account the public sign-in case signs in as. */
export const PUBLIC_ACCOUNT = 'public@h.test';
export const MATRIX_PASSWORD = 'fixture-password';

const AMOUNT = '0.01';
/** The role every role change and invitation of the matrix gives: the plain user of the target's type. */
const userRoleOf = (type: OrgType) => `${type}_user`;

export const MATRIX: Record<string, MatrixEntry> = {
  'GET /api/health': publicRoute(200),
  'GET /api/health/ready': publicRoute(200),
  'POST /api/auth/sign-in': publicRoute(200, () => ({ email: PUBLIC_ACCOUNT, password: MATRIX_PASSWORD })),
  // Without the refresh cookie nobody is refreshed, whatever the bearer says.
  'POST /api/auth/refresh': publicRoute(401),
  // Called only with no or bad bearers: a good one would end the caller's session.
  'POST /api/auth/sign-out': publicRoute(200),
  // No challenge has this token: refused alike with any bearer or none.
  'POST /api/auth/sign-in/second-factor': publicRoute(401, () => ({ challenge_token: 'x'.repeat(43), method: 'totp', code: '123456' })),
  'POST /api/auth/recover': publicRoute(200, () => ({ email: 'nobody@matrix.test' })),
  // Passkeys: passwordless options for anyone; a passkey nobody has signs nobody in.
  'POST /api/auth/passkey/options': publicRoute(200, () => ({})),
  'POST /api/auth/passkey/sign-in': publicRoute(401, () => ({ response: MATRIX_ASSERTION })),
  // Without a reset token this is "change my password": any signed-in user, for itself, with the current password.
  'POST /api/auth/password': one({
    target: null,
    expect: anyone,
    call: withBody(() => ({ password: MATRIX_PASSWORD, current_password: MATRIX_PASSWORD })),
  }),
  'POST /api/invitations/accept': publicRoute(404, () => ({ token: 'x'.repeat(43) })),
  'POST /api/invitations/register': publicRoute(404, () => ({ token: 'x'.repeat(43), password: MATRIX_PASSWORD })),

  'GET /api/users': one({ target: 'org', expect: reads(mayListPeople), call: inQuery }),
  'GET /api/users/me': one({ target: null, expect: anyone, call: inPath }),
  'PATCH /api/users/me': one({ target: null, expect: anyone, call: withBody(() => ({ first_name: 'Matrix' })) }),
  // Everyone reads itself; others need users.get.
  'GET /api/users/:id': one({
    target: 'user',
    expect: targeted(({ actor, person }) => ({ first: mayViewPerson(actor, person) })),
    call: inPath,
  }),
  // Anyone with users.update edits itself; someone else takes a manager or above, within reach.
  'PATCH /api/users/:id': one({
    target: 'user',
    expect: targeted(({ actor, person }) => ({ first: holds(actor, 'users.update'), allowed: mayEditPerson(actor, person) })),
    call: withBody(() => ({ first_name: 'Matrix' })),
  }),
  // Never one's own role; the role sent is the target's plain user role, so authority alone decides.
  'PUT /api/users/:id/role': one({
    target: 'user',
    expect: targeted(({ actor, person, org }) => ({
      first: holds(actor, 'users.update_role'),
      allowed: mayChangeRoleOf(actor, person) && mayGiveRole(actor, org.org_type, userRoleOf(org.org_type)),
    })),
    call: withBody(({ target }) => ({ role: userRoleOf(target!.orgType) })),
  }),
  // Deactivating: never oneself.
  'DELETE /api/users/:id': one({
    target: 'user',
    expect: targeted(({ actor, person }) => ({ first: holds(actor, 'users.delete'), allowed: mayChangePersonStatus(actor, person) })),
    call: inPath,
  }),

  // Ending a person's sessions: an admin of their organization or any above it (never oneself).
  'POST /api/users/:id/sessions/end': one({
    target: 'user',
    expect: targeted(({ actor, person }) => ({ first: holds(actor, 'users.delete'), allowed: mayEndAccessOf(actor, person) })),
    call: inPath,
  }),
  // Recovery by an admin: resetting a person's second factors, under the same rule.
  'POST /api/users/:id/factors/reset': one({
    target: 'user',
    expect: targeted(({ actor, person }) => ({ first: holds(actor, 'users.delete'), allowed: mayEndAccessOf(actor, person) })),
    call: inPath,
  }),

  // One's own account: every signed-in person, for itself only; nobody names another's.
  'GET /api/account/factors': one({ target: null, expect: anyone, call: inPath }),
  'POST /api/account/factors/totp': one({ target: null, expect: anyone, call: withBody(() => ({ current_password: MATRIX_PASSWORD })) }),
  // A setup just started (above) and a wrong code: 422; none started: 409.
  'POST /api/account/factors/totp/confirm': one({ target: null, expect: anyone, call: withBody(() => ({ code: '000000' })) }),
  // Nobody of the matrix has a confirmed app: 409.
  'POST /api/account/factors/totp/remove': one({ target: null, expect: anyone, call: withBody(() => ({ code: '000000' })) }),
  'POST /api/account/factors/recovery-codes': one({ target: null, expect: anyone, call: withBody(() => ({ code: '000000' })) }),
  'GET /api/account/sessions': one({ target: null, expect: anyone, call: inPath }),
  // Step-up: every signed-in person, for their own session only (the matrix's people have no app: the password).
  'GET /api/auth/step-up': one({ target: null, expect: anyone, call: inPath }),
  'POST /api/auth/step-up': one({
    target: null,
    expect: anyone,
    call: withBody(() => ({ method: 'password', password: MATRIX_PASSWORD })),
  }),
  // A session nobody has: 404 for everyone, as another person's would be.
  'DELETE /api/account/sessions/:sessionId': one({
    target: null,
    expect: () => denied(404),
    call: ({ url }) => ({ path: url.replace(':sessionId', '00000000-0000-4000-8000-000000000000') }),
  }),
  // Only the caller's other sessions (the matrix's callers hold one each).
  'POST /api/account/sessions/end-others': one({ target: null, expect: anyone, call: inPath }),
  // Passkeys: one's own only. An answer to no options: 422; nobody has a passkey: 409.
  'GET /api/account/passkeys': one({ target: null, expect: anyone, call: inPath }),
  'POST /api/account/passkeys/registration-options': one({
    target: null,
    expect: anyone,
    call: withBody(() => ({ current_password: MATRIX_PASSWORD })),
  }),
  'POST /api/account/passkeys': one({
    target: null,
    expect: anyone,
    call: withBody(() => ({
      name: 'Matrix key',
      response: {
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        response: { clientDataJSON: 'e30', attestationObject: 'oA' },
        clientExtensionResults: {},
      },
    })),
  }),
  'POST /api/account/passkeys/check-options': one({ target: null, expect: anyone, call: inPath }),
  // A passkey nobody has: 404 for everyone, as another person's would be.
  'PATCH /api/account/passkeys/:passkeyId': one({
    target: null,
    expect: () => denied(404),
    call: ({ url }) => ({ path: url.replace(':passkeyId', '00000000-0000-4000-8000-000000000000'), body: { name: 'Mine' } }),
  }),
  'POST /api/account/passkeys/:passkeyId/remove': one({
    target: null,
    expect: () => denied(404),
    call: ({ url }) => ({ path: url.replace(':passkeyId', '00000000-0000-4000-8000-000000000000'), body: { code: '000000' } }),
  }),

  'GET /api/invitations': one({ target: 'org', expect: reads(mayListPeople), call: inQuery }),
  'POST /api/invitations': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({
      first: holds(actor, 'users.create'),
      allowed: mayInviteTo(actor, org) && mayGiveRole(actor, org.org_type, userRoleOf(org.org_type)),
    })),
    call: withBody(({ target, unique }) => ({
      email: `invitee-${unique}@matrix.test`,
      first_name: 'Matrix',
      last_name: 'Invitee',
      role: userRoleOf(target!.orgType),
      organization_id: target!.id,
    })),
  }),
  // Resend, copy link (which replaces the token) and revoke: invitation managers, own organization or a direct child.
  ...Object.fromEntries(
    ['POST /api/invitations/:id/resend', 'POST /api/invitations/:id/link', 'DELETE /api/invitations/:id'].map((key) => [
      key,
      one({
        target: 'invitation',
        expect: targeted(({ actor, org }) => ({ first: holds(actor, 'invitations.manage'), allowed: mayManageInvitationsOf(actor, org) })),
        call: inPath,
      }),
    ]),
  ),

  'GET /api/organizations': one({ target: 'org', expect: reads(mayListOrganizations), call: inQuery }),
  'GET /api/organizations/tree': one({ target: 'org', expect: reads(mayListOrganizations), call: inQuery }),
  // Only direct children of the next type down, so a tenant creates nothing.
  'POST /api/organizations': one({
    target: null,
    expect: when(mayCreateChildOrganization),
    call: withBody(({ caller, unique }) => ({ name: `Matrix ${unique}`, org_type: childTypeOf(caller.orgType) ?? 'tenant' })),
  }),
  // Everyone reads its own organization; another one in scope takes organizations.get.
  'GET /api/organizations/:id': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: mayReadOrganization(actor, org) })),
    call: inPath,
  }),
  'PATCH /api/organizations/:id': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'organizations.update'), allowed: mayEditOrganization(actor, org) })),
    call: withBody(() => ({ description: 'Matrix' })),
  }),
  // Admins of the parent delete a child (every child here still has content, so allowed answers 422).
  'DELETE /api/organizations/:id': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'organizations.delete'), allowed: mayDeleteOrganization(actor, org) })),
    call: inPath,
  }),
  'GET /api/organizations/:id/verify-children': one({ target: 'org', expect: reads(mayOpenDebug), call: inPath }),

  'GET /api/organizations/:id/billing': one({ target: 'org', expect: reads(mayViewBilling), call: inPath }),
  'GET /api/organizations/:id/capacity': one({ target: 'org', expect: reads(mayViewBilling), call: inPath }),
  // A direct child's limit by its parent's admins; the house's by its own admins.
  'PUT /api/organizations/:id/agent-limit': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({
      first: holds(actor, 'organizations.manage_activated_agent_limit'),
      allowed: maySetAgentLimit(actor, org),
    })),
    call: withBody(() => ({ activated_agent_limit: 0 })),
  }),

  // A child's cap and top-up by its parent's admins (allocators) only.
  'GET /api/organizations/:id/spend-controls': one({ target: 'org', expect: reads(mayViewBilling), call: inPath }),
  // Credit grants: read as the billing page is; the expiring list is of the caller's own subtree.
  'GET /api/organizations/:id/credit-grants': one({ target: 'org', expect: reads(mayViewBilling), call: inPath }),
  'GET /api/credit-grants/expiring': one({ target: null, expect: when(mayViewBilling), call: inPath }),
  'PUT /api/organizations/:id/spend-controls': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({
      first: holds(actor, 'organizations.allocate_credits'),
      allowed: maySetSpendControls(actor, org),
    })),
    call: withBody(() => ({ spend_cap: '100.00', top_up: null })),
  }),
  // Price books and earnings: the own organization's, never an ancestor's or a descendant's;
  // set by a super agency's or agency's own admins (the house's children pay the catalog: 422).
  'GET /api/organizations/:id/prices': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'billing.view'), allowed: mayViewPrices(actor, org) })),
    call: inPath,
  }),
  'GET /api/organizations/:id/prices/history': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'billing.view'), allowed: mayViewPrices(actor, org) })),
    call: inPath,
  }),
  'GET /api/organizations/:id/prices/paid': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'billing.view'), allowed: mayViewPrices(actor, org) })),
    call: inPath,
  }),
  'GET /api/organizations/:id/earnings': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'billing.view'), allowed: mayViewPrices(actor, org) })),
    call: inPath,
  }),
  'PUT /api/organizations/:id/prices/:agentTypeId': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({
      first: holds(actor, 'billing.manage'),
      allowed: maySetPrices(actor, org) || (org.org_type === 'house' && mayViewPrices(actor, org)),
    })),
    call: ({ url }) => ({ path: url.replace(':agentTypeId', MATRIX_AGENT_TYPE_ID), body: { price: '0.0200' } }),
  }),
  // Child prices: read as the book is; set and removed by the book's editors for a direct child.
  // The matrix names the target itself as the child, so an allowed caller meets the rule
  // refusal (422 not_direct_child, or house_uses_catalog at the house).
  'GET /api/organizations/:id/prices/children': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'billing.view'), allowed: mayViewPrices(actor, org) })),
    call: inPath,
  }),
  'PUT /api/organizations/:id/prices/children/:childId/:agentTypeId': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({
      first: holds(actor, 'billing.manage'),
      allowed: maySetPrices(actor, org) || (org.org_type === 'house' && mayViewPrices(actor, org)),
    })),
    call: ({ url, target }) => ({
      path: url.replace(':childId', target!.id).replace(':agentTypeId', MATRIX_AGENT_TYPE_ID),
      body: { price: '0.0200' },
    }),
  }),
  'DELETE /api/organizations/:id/prices/children/:childId/:agentTypeId': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({
      first: holds(actor, 'billing.manage'),
      allowed: maySetPrices(actor, org) || (org.org_type === 'house' && mayViewPrices(actor, org)),
    })),
    call: ({ url, target }) => ({ path: url.replace(':childId', target!.id).replace(':agentTypeId', MATRIX_AGENT_TYPE_ID) }),
  }),
  'POST /api/credits/allocations': {
    variants: [
      // To an active direct child only; a readable non-child gets a rule refusal (422 not_direct_child).
      {
        name: 'to target',
        target: 'org',
        expect: targeted(({ actor, org }) => ({
          first: holds(actor, 'organizations.allocate_credits'),
          allowed: mayAllocateTo(actor, org),
          refusal: 422,
        })),
        call: ({ url, target, caller, unique }) => ({
          path: url,
          body: { from_org_id: caller.orgId, to_org_id: target!.id, amount: AMOUNT },
          headers: { 'idempotency-key': `matrix-${unique}` },
        }),
      },
      // Credits leave only the caller's own organization.
      {
        name: 'from target',
        target: 'org',
        relations: RELATIONS.filter((r) => r !== 'own'),
        expect: targeted(({ actor, org }) => ({
          first: holds(actor, 'organizations.allocate_credits'),
          allowed: mayAllocateFrom(actor, org),
        })),
        call: ({ url, target, caller, unique }) => ({
          path: url,
          body: { from_org_id: target!.id, to_org_id: caller.childId ?? caller.orgId, amount: AMOUNT },
          headers: { 'idempotency-key': `matrix-${unique}` },
        }),
      },
    ],
  },
  // An allocation is reversed by the admins of the organization that made it.
  'POST /api/credits/allocations/:transactionId/reversal': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({
      first: holds(actor, 'organizations.allocate_credits'),
      allowed: mayAllocateFrom(actor, org),
    })),
    call: ({ url, target }) => ({ path: url.replace(':transactionId', target!.id), body: { reason: 'matrix check' } }),
  }),
  // Credits enter or leave the system only through the house's own balance.
  'POST /api/credits/adjustments': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'credits.adjust'), allowed: mayAdjustBalance(actor, org) })),
    call: withBody(({ target }) => ({ organization_id: target!.id, direction: 'increase', amount: AMOUNT, reason: 'matrix check' })),
  }),
  // Usage events and refunds are imported for the caller's whole tree: each one out of reach
  // is refused alone in the answer (out_of_reach), so the import is decided by the permission.
  'POST /api/credits/usage': one({
    target: 'org',
    expect: when(mayImportUsage),
    call: withBody(({ target, unique }) => ({
      events: [
        {
          id: `matrix-event-${unique}`,
          organization_id: target!.id,
          agent: 'matrix-agent',
          units: '1',
          occurred_at: new Date().toISOString(),
        },
      ],
      refunds: [{ organization_id: target!.id, amount: AMOUNT, external_ref: `matrix-${unique}`, refund_of: `matrix-event-${unique}` }],
    })),
  }),
  // Each read of a target shows what the margins rule allows of its prices and margins, no more.
  'GET /api/credits/ledger': one({ target: 'org', expect: reads(mayViewBilling), call: inQuery, reveals: REVEALS.ledger }),
  'GET /api/credits/ledger/export': one({ target: 'org', expect: reads(mayViewBilling), call: inQuery, reveals: REVEALS.ledgerCsv }),
  'GET /api/usage-events': one({ target: 'org', expect: reads(mayViewBilling), call: inQuery, reveals: REVEALS.events }),
  'GET /api/usage-events/export': one({ target: 'org', expect: reads(mayViewBilling), call: inQuery, reveals: REVEALS.eventsCsv }),
  // The activity log: admins, over their organization and its subtree.
  'GET /api/activity': one({ target: 'org', expect: reads(mayViewActivity), call: inQuery, reveals: REVEALS.activity }),
  'GET /api/activity/export': one({ target: 'org', expect: reads(mayViewActivity), call: inQuery, reveals: REVEALS.activityCsv }),

  // Everyone sees its own organization's dashboard; another one in scope takes organizations.get.
  'GET /api/dashboard': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: mayReadOrganization(actor, org) })),
    call: inQuery,
    reveals: REVEALS.dashboard,
  }),
  // The outbox holds every account's reset and invitation links: house admins only.
  'GET /api/debug/outbox': one({ target: null, expect: when(mayReadOutbox), call: inPath }),

  // The global settings are read by everyone signed in (the documentation link by anyone) and kept by the house's admins.
  'GET /api/settings': one({ target: null, expect: anyone, call: inPath }),
  'GET /api/settings/public': publicRoute(200),
  'PUT /api/settings': one({
    target: null,
    expect: when(mayManageGlobalSettings),
    call: withBody(({ unique }) => ({
      documentation_url: `https://docs.example.test/${unique}`,
      billing_portal_url: null,
      community_channels: [],
    })),
  }),

  // The machine API takes an API key and never a session: whatever bearer a person holds, 401
  // (security/machine-api.test.ts sends every caller's session and the keys).
  'POST /api/v1/usage-events': publicRoute(401, (unique) => ({
    events: [
      {
        id: `matrix-${unique}`,
        organization_id: '00000000-0000-4000-8000-000000000000',
        agent: 'matrix-agent',
        units: '1',
        occurred_at: new Date().toISOString(),
      },
    ],
  })),
  'POST /api/v1/heartbeats': publicRoute(401, () => ({
    organization_id: '00000000-0000-4000-8000-000000000000',
    agent: 'matrix-agent',
    status: 'active',
  })),
  'GET /api/v1/entitlements': publicRoute(401),
  'GET /api/v1/usage-events': publicRoute(401),

  // The catalog is read by everyone signed in and kept by the house's admins.
  'GET /api/agent-types': one({ target: null, expect: anyone, call: inPath }),
  'POST /api/agent-types': one({
    target: null,
    expect: when(mayManageCatalog),
    call: withBody(({ unique }) => ({
      code: `matrix-${unique}`.toLowerCase().slice(0, 40),
      name: `Matrix ${unique}`,
      kind: 'other',
      unit: 'run',
      price: '0.01',
    })),
  }),
  'PATCH /api/agent-types/:id': one({
    target: null,
    expect: when(mayManageCatalog),
    call: ({ url }) => ({ path: editedTypeUrl(url), body: { price: '0.02' } }),
  }),
  'POST /api/agent-types/:id/retire': one({
    target: null,
    expect: when(mayManageCatalog),
    call: ({ url }) => ({ path: editedTypeUrl(url) }),
  }),
  // Agents and usage are read in the whole subtree; activated and deactivated by the
  // organization's admins and its parent's (an allowed activation meets the limit, 422, or
  // the live activation of the type, 409).
  'GET /api/organizations/:id/agents': one({ target: 'org', expect: reads(mayViewAgents), call: inPath, reveals: REVEALS.agents }),
  'GET /api/organizations/:id/usage': one({ target: 'org', expect: reads(mayViewAgents), call: ({ url }) => ({ path: `${url}?days=7` }) }),
  'POST /api/organizations/:id/agents': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'resources.manage'), allowed: mayManageAgentsOf(actor, org) })),
    call: withBody(() => ({ agent_type_id: MATRIX_AGENT_TYPE_ID })),
  }),
  'DELETE /api/organizations/:id/agents/:activationId': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'resources.manage'), allowed: mayManageAgentsOf(actor, org) })),
    call: ({ url, target }) => ({ path: url.replace(':activationId', target!.id) }),
  }),
  'PUT /api/organizations/:id/agents/:activationId/cap': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'resources.manage'), allowed: mayManageAgentsOf(actor, org) })),
    call: ({ url, target }) => ({ path: url.replace(':activationId', target!.id), body: { monthly_cap: '50.00' } }),
  }),
  // The own organization's threshold, by its admins.
  'PUT /api/organizations/:id/low-balance-threshold': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'billing.manage'), allowed: maySetLowBalanceThreshold(actor, org) })),
    call: withBody(() => ({ low_balance_threshold: '100' })),
  }),
  // Alert lines: read with the billing, set by the organization's own admins (as the threshold).
  'GET /api/organizations/:id/alert-lines': one({ target: 'org', expect: reads(mayViewBilling), call: inPath }),
  'POST /api/organizations/:id/alert-lines': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'billing.manage'), allowed: mayManageAlertLines(actor, org) })),
    call: withBody(() => ({ kind: 'cap_percent', bound: '80', window: 'week' })),
  }),
  'PUT /api/organizations/:id/alert-lines/:lineId': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'billing.manage'), allowed: mayManageAlertLines(actor, org) })),
    call: ({ url, target }) => ({ path: url.replace(':lineId', target!.id), body: { kind: 'runway_days', bound: '10' } }),
  }),
  'DELETE /api/organizations/:id/alert-lines/:lineId': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'billing.manage'), allowed: mayManageAlertLines(actor, org) })),
    call: ({ url, target }) => ({ path: url.replace(':lineId', target!.id) }),
  }),
  // API keys act for their organization: its own admins list, make, edit, roll and revoke them.
  'GET /api/organizations/:id/api-keys': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'api_keys.manage'), allowed: isOwnOrganization(actor, org) })),
    call: inPath,
  }),
  'POST /api/organizations/:id/api-keys': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'api_keys.manage'), allowed: mayManageApiKeysOf(actor, org) })),
    call: withBody(() => ({ name: 'Matrix', scopes: ['usage:write'] })),
  }),
  'PATCH /api/organizations/:id/api-keys/:keyId': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'api_keys.manage'), allowed: mayManageApiKeysOf(actor, org) })),
    call: ({ url, target }) => ({ path: url.replace(':keyId', target!.id), body: { name: 'Matrix' } }),
  }),
  'POST /api/organizations/:id/api-keys/:keyId/roll': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'api_keys.manage'), allowed: mayManageApiKeysOf(actor, org) })),
    call: ({ url, target }) => ({ path: url.replace(':keyId', target!.id), body: { grace_seconds: 0 } }),
  }),
  'DELETE /api/organizations/:id/api-keys/:keyId': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'api_keys.manage'), allowed: mayManageApiKeysOf(actor, org) })),
    call: ({ url, target }) => ({ path: url.replace(':keyId', target!.id) }),
  }),
  // Webhook endpoints send the organization's events to a machine: its own admins manage them.
  'GET /api/organizations/:id/webhooks': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'webhooks.manage'), allowed: isOwnOrganization(actor, org) })),
    call: inPath,
  }),
  'POST /api/organizations/:id/webhooks': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'webhooks.manage'), allowed: mayManageWebhooksOf(actor, org) })),
    call: withBody(() => ({ url: 'http://127.0.0.1:9/matrix', event_types: ['balance.low'] })),
  }),
  'PATCH /api/organizations/:id/webhooks/:endpointId': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'webhooks.manage'), allowed: mayManageWebhooksOf(actor, org) })),
    call: ({ url, target }) => ({ path: url.replace(':endpointId', target!.id), body: { description: 'Matrix' } }),
  }),
  'DELETE /api/organizations/:id/webhooks/:endpointId': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'webhooks.manage'), allowed: mayManageWebhooksOf(actor, org) })),
    call: ({ url, target }) => ({ path: url.replace(':endpointId', target!.id) }),
  }),
  'POST /api/organizations/:id/webhooks/:endpointId/rotate': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'webhooks.manage'), allowed: mayManageWebhooksOf(actor, org) })),
    call: ({ url, target }) => ({ path: url.replace(':endpointId', target!.id), body: { grace_hours: 0 } }),
  }),
  'POST /api/organizations/:id/webhooks/:endpointId/test': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'webhooks.manage'), allowed: mayManageWebhooksOf(actor, org) })),
    call: ({ url, target }) => ({ path: url.replace(':endpointId', target!.id) }),
  }),
  'GET /api/organizations/:id/webhooks/:endpointId/deliveries': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'webhooks.manage'), allowed: isOwnOrganization(actor, org) })),
    call: ({ url, target }) => ({ path: url.replace(':endpointId', target!.id) }),
  }),
  'POST /api/organizations/:id/webhooks/:endpointId/deliveries/:deliveryId/redeliver': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'webhooks.manage'), allowed: mayManageWebhooksOf(actor, org) })),
    call: ({ url, target }) => ({ path: url.replace(':endpointId', target!.id).replace(':deliveryId', target!.id) }),
  }),
  'POST /api/organizations/:id/webhooks/:endpointId/redeliver': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: holds(actor, 'webhooks.manage'), allowed: mayManageWebhooksOf(actor, org) })),
    call: ({ url, target }) => ({ path: url.replace(':endpointId', target!.id), body: { since: '2026-01-01T00:00:00Z' } }),
  }),
  // Require-a-second-factor policy: an organization's own admins read and set it.
  'GET /api/organizations/:id/mfa-policy': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: true, allowed: mayViewMfaPolicy(actor, org) })),
    call: inPath,
  }),
  // Saving the policy unchanged (nothing required, the default grace): never a loosening, so no step-up.
  'PUT /api/organizations/:id/mfa-policy': one({
    target: 'org',
    expect: targeted(({ actor, org }) => ({ first: true, allowed: mayManageMfaPolicy(actor, org) })),
    call: withBody(() => ({ require_own: false, require_subtree: false, require_admins: false, grace_days: 7 })),
  }),
  ...IDENTITY_MATRIX,
  ...INVOICE_MATRIX,
};
