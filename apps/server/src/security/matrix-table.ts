import { can, mayOpenDebug, childTypeOf, roleLevel, type OrgType, type Permission, type Role } from '@console/domain';

/**
 * The authorization matrix's expectations, written from the domain rules (`can()`) and
 * DESIGN.md section 4, never from the server's answers. One entry per API route; the test
 * fails when the app has a route this table does not name, or the reverse.
 */

/** Where a target stands relative to the caller (`self` only for user targets). */
export const RELATIONS = ['self', 'own', 'child', 'grandchild', 'parent', 'sibling', 'other house', 'other tree', 'deleted'] as const;
export type Relation = (typeof RELATIONS)[number];

export type TargetKind = 'org' | 'user' | 'invitation';

export interface Target {
  id: string;
  orgType: OrgType;
}

export interface CallerInfo {
  role: Role;
  orgType: OrgType;
  orgId: string;
  /** A direct child of the caller's organization, if it has one. */
  childId: string | null;
}

export type Expectation = { allowed: true } | { allowed: false; statuses: readonly number[] };

export interface Call {
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface CallInput {
  /** The route's url, `:id` replaced by the target's id. */
  url: string;
  target: Target | null;
  caller: CallerInfo;
  /** Unique per case: e-mails, names, idempotency keys. */
  unique: string;
}

export interface Variant {
  name: string;
  target: TargetKind | null;
  /** Relations this variant is called with (default: every relation the target kind has). */
  relations?: readonly Relation[];
  expect(caller: CallerInfo, relation: Relation | null): Expectation;
  call(input: CallInput): Call;
}

/** A route that needs no sign-in: the bearer, good or bad, must not change its answer. */
export interface PublicRoute {
  publicStatus: number;
  call(url: string, unique: string): Call;
}

export type MatrixEntry = PublicRoute | { variants: Variant[] };

/** The account the public sign-in case signs in as. */
export const PUBLIC_ACCOUNT = 'public@h.test';
export const MATRIX_PASSWORD = 'fixture-password';

const ALLOWED: Expectation = { allowed: true };
const denied = (...statuses: number[]): Expectation => ({ allowed: false, statuses });

/** A user reads its own organization and its descendants (DESIGN.md section 4). */
const READ: readonly Relation[] = ['self', 'own', 'child', 'grandchild'];
/** Updates and people management reach the own organization and direct children only. */
const OWN_OR_CHILD: readonly Relation[] = ['self', 'own', 'child'];

/**
 * The usual rule: without the right 403 (or 404 for a target outside the read scope,
 * since either answer hides it); with it, 404 outside the read scope, allowed within
 * `reach`, and `outOfReach` for a readable target the action does not apply to.
 */
function scoped(holds: boolean, relation: Relation | null, reach: readonly Relation[], outOfReach = 403): Expectation {
  if (relation === null) return holds ? ALLOWED : denied(403);
  const readable = READ.includes(relation);
  if (!holds) return readable ? denied(403) : denied(403, 404);
  if (!readable) return denied(404);
  return reach.includes(relation) ? ALLOWED : denied(outOfReach);
}

const permitted = (permission: Permission, reach: readonly Relation[] = READ, outOfReach = 403) =>
  (caller: CallerInfo, relation: Relation | null) => scoped(can(caller.role, permission), relation, reach, outOfReach);

const isAdmin = (role: Role) => roleLevel(role) === 'admin';
const anyone = () => ALLOWED;

const inPath = ({ url }: CallInput): Call => ({ path: url });
const inQuery = ({ url, target }: CallInput): Call => ({ path: `${url}?organization_id=${target!.id}` });
const withBody = (body: (input: CallInput) => unknown) => (input: CallInput): Call => ({ path: input.url, body: body(input) });

const one = (variant: Omit<Variant, 'name'>): { variants: Variant[] } => ({ variants: [{ name: '', ...variant }] });
const publicRoute = (publicStatus: number, body?: (unique: string) => unknown): PublicRoute => ({
  publicStatus,
  call: (url, unique) => ({ path: url, body: body?.(unique) }),
});

const AMOUNT = '0.01';

export const MATRIX: Record<string, MatrixEntry> = {
  'GET /api/health': publicRoute(200),
  'POST /api/auth/sign-in': publicRoute(200, () => ({ email: PUBLIC_ACCOUNT, password: MATRIX_PASSWORD })),
  // Without the refresh cookie nobody is refreshed, whatever the bearer says.
  'POST /api/auth/refresh': publicRoute(401),
  // Called only with no or bad bearers: a good one would end the caller's session.
  'POST /api/auth/sign-out': publicRoute(200),
  'POST /api/auth/recover': publicRoute(200, () => ({ email: 'nobody@matrix.test' })),
  // Without a reset token this is "change my password": any signed-in user, for itself.
  'POST /api/auth/password': one({ target: null, expect: anyone, call: withBody(() => ({ password: MATRIX_PASSWORD })) }),
  'POST /api/invitations/accept': publicRoute(404, () => ({ token: 'x'.repeat(43) })),
  'POST /api/invitations/register': publicRoute(404, () => ({ token: 'x'.repeat(43), password: MATRIX_PASSWORD })),

  'GET /api/users': one({ target: 'org', expect: permitted('users.list'), call: inQuery }),
  'GET /api/users/me': one({ target: null, expect: anyone, call: inPath }),
  'PATCH /api/users/me': one({ target: null, expect: anyone, call: withBody(() => ({ first_name: 'Matrix' })) }),
  // Everyone reads itself; others need users.get.
  'GET /api/users/:id': one({
    target: 'user',
    expect: (caller, rel) => (rel === 'self' ? ALLOWED : scoped(can(caller.role, 'users.get'), rel, READ)),
    call: inPath,
  }),
  // users.update lets anyone edit itself; editing someone else also takes an admin or manager (both hold users.update).
  'PATCH /api/users/:id': one({
    target: 'user',
    expect: (caller, rel) =>
      rel === 'self'
        ? scoped(can(caller.role, 'users.update'), rel, READ)
        : scoped(can(caller.role, 'users.update') && ['admin', 'manager'].includes(roleLevel(caller.role)!), rel, OWN_OR_CHILD),
    call: withBody(() => ({ first_name: 'Matrix' })),
  }),
  // Never one's own role (spec 2); the role sent is the target's own, so nothing but authority decides.
  'PUT /api/users/:id/role': one({
    target: 'user',
    expect: (caller, rel) => (rel === 'self' ? denied(403) : scoped(can(caller.role, 'users.update_role'), rel, OWN_OR_CHILD)),
    call: withBody(({ target }) => ({ role: `${target!.orgType}_user` })),
  }),
  // No deactivate on oneself (spec 2).
  'DELETE /api/users/:id': one({
    target: 'user',
    expect: (caller, rel) => (rel === 'self' ? denied(403) : scoped(can(caller.role, 'users.delete'), rel, OWN_OR_CHILD)),
    call: inPath,
  }),

  'GET /api/invitations': one({ target: 'org', expect: permitted('users.list'), call: inQuery }),
  'POST /api/invitations': one({
    target: 'org',
    expect: permitted('users.create', OWN_OR_CHILD),
    call: withBody(({ target, unique }) => ({
      email: `invitee-${unique}@matrix.test`,
      first_name: 'Matrix',
      last_name: 'Invitee',
      role: `${target!.orgType}_user`,
      organization_id: target!.id,
    })),
  }),
  // Resend, copy link (which replaces the token) and revoke are admin actions (spec 2, "for admins").
  ...Object.fromEntries(
    ['POST /api/invitations/:id/resend', 'POST /api/invitations/:id/link', 'DELETE /api/invitations/:id'].map((key) => [
      key,
      one({ target: 'invitation', expect: (caller, rel) => scoped(isAdmin(caller.role), rel, OWN_OR_CHILD), call: inPath }),
    ]),
  ),

  'GET /api/organizations': one({ target: 'org', expect: permitted('organizations.list'), call: inQuery }),
  'GET /api/organizations/tree': one({ target: 'org', expect: permitted('organizations.list'), call: inQuery }),
  // Only direct children of the next type down, so a tenant creates nothing.
  'POST /api/organizations': one({
    target: null,
    expect: (caller) => (can(caller.role, 'organizations.create') && childTypeOf(caller.orgType) ? ALLOWED : denied(403)),
    call: withBody(({ caller, unique }) => ({ name: `Matrix ${unique}`, org_type: childTypeOf(caller.orgType) ?? 'tenant' })),
  }),
  'GET /api/organizations/:id': one({ target: 'org', expect: permitted('organizations.get'), call: inPath }),
  'PATCH /api/organizations/:id': one({
    target: 'org',
    expect: permitted('organizations.update', ['own', 'child']),
    call: withBody(() => ({ description: 'Matrix' })),
  }),
  // Admins of the parent delete a child (every child here still has content, so allowed answers 422).
  'DELETE /api/organizations/:id': one({ target: 'org', expect: permitted('organizations.delete', ['child']), call: inPath }),
  'GET /api/organizations/:id/verify-children': one({
    target: 'org',
    expect: (caller, rel) => scoped(mayOpenDebug(caller), rel, READ),
    call: inPath,
  }),

  'GET /api/organizations/:id/billing': one({ target: 'org', expect: permitted('billing.view'), call: inPath }),
  'GET /api/organizations/:id/capacity': one({ target: 'org', expect: permitted('billing.view'), call: inPath }),
  // A direct child's limit by its parent's admins; house admins also their own house's.
  'PUT /api/organizations/:id/agent-limit': one({
    target: 'org',
    expect: (caller, rel) =>
      scoped(can(caller.role, 'organizations.manage_activated_agent_limit'), rel, caller.role === 'house_admin' ? ['own', 'child'] : ['child']),
    call: withBody(() => ({ activated_agent_limit: 0 })),
  }),

  'POST /api/credits/allocations': {
    variants: [
      // To an active direct child only; a readable non-child gets the spec's rule refusal (422 not_direct_child).
      {
        name: 'to target',
        target: 'org',
        expect: permitted('organizations.allocate_credits', ['child'], 422),
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
        expect: permitted('organizations.allocate_credits', []),
        call: ({ url, target, caller, unique }) => ({
          path: url,
          body: { from_org_id: target!.id, to_org_id: caller.childId ?? caller.orgId, amount: AMOUNT },
          headers: { 'idempotency-key': `matrix-${unique}` },
        }),
      },
    ],
  },
  // Credits enter or leave the system through house admins, on their own house.
  'POST /api/credits/adjustments': one({
    target: 'org',
    expect: (caller, rel) => scoped(caller.role === 'house_admin', rel, ['own']),
    call: withBody(({ target }) => ({ organization_id: target!.id, direction: 'increase', amount: AMOUNT, reason: 'matrix check' })),
  }),
  // Usage (consumption and refunds) is recorded by house admins for their tree.
  'POST /api/credits/usage': one({
    target: 'org',
    expect: (caller, rel) => scoped(caller.role === 'house_admin', rel, READ),
    call: withBody(({ target, unique }) => ({
      records: [{ organization_id: target!.id, kind: 'refund', amount: AMOUNT, external_ref: `matrix-${unique}` }],
    })),
  }),
  'GET /api/credits/ledger': one({ target: 'org', expect: permitted('billing.view'), call: inQuery }),
  'GET /api/credits/ledger/export': one({ target: 'org', expect: permitted('billing.view'), call: inQuery }),

  // Everyone sees its own organization's dashboard; another one in scope takes organizations.get.
  'GET /api/dashboard': one({
    target: 'org',
    expect: (caller, rel) => (rel === 'own' ? ALLOWED : scoped(can(caller.role, 'organizations.get'), rel, READ)),
    call: inQuery,
  }),
  // The outbox holds every account's reset and invitation links: house admins only.
  'GET /api/debug/outbox': one({ target: null, expect: (caller) => (caller.role === 'house_admin' ? ALLOWED : denied(403)), call: inPath }),
};

export const isPublic = (entry: MatrixEntry): entry is PublicRoute => 'publicStatus' in entry;
