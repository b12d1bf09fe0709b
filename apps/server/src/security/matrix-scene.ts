import {
  ORG_TYPES,
  can,
  childTypeOf,
  isInSubtree,
  pricingViewOf,
  type Actor,
  type OrganizationFacts,
  type OrgType,
  type Permission,
  type PersonFacts,
  type PricingView,
  type Role,
} from '@console/domain';
import type { Reveals } from './matrix-margins.ts';

/**
 * The authorization matrix's vocabulary: where a target stands relative to the caller, the
 * caller and target as the domain's predicates read them, and the expectation builders each
 * route's entry is written with (in matrix-table.ts and beside it).
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
  /** An allowed read shows of its target's prices and margins what the margins rule allows (`pricingViewAt`). */
  reveals?: Reveals;
}

/** A route that needs no sign-in: the bearer, good or bad, must not change its answer. */
export interface PublicRoute {
  publicStatus: number;
  call(url: string, unique: string): Call;
}

export type MatrixEntry = PublicRoute | { variants: Variant[] };

export const ALLOWED: Expectation = { allowed: true };
export const denied = (...statuses: number[]): Expectation => ({ allowed: false, statuses });

/** The organizations of a relation, as the predicates see them; `deleted` ones are soft-deleted. */
export type OrgFacts = OrganizationFacts & { org_type: OrgType; path: string; deleted?: boolean };

/** The caller and a target, described as the domain's predicates read them. */
export interface Scene {
  actor: Actor;
  /** The target organization, or the organization the target user or invitation belongs to. */
  org: OrgFacts;
  /** The target user (for the `self` relation, the caller). */
  person: PersonFacts;
}

export const SELF = 'self';

/** The caller's organization and its ancestors, top first, each at the depth of its type. */
export function lineOf(caller: CallerInfo): OrgFacts[] {
  const depth = ORG_TYPES.indexOf(caller.orgType);
  const line: OrgFacts[] = [];
  for (const type of ORG_TYPES.slice(0, depth + 1)) {
    const parent = line.at(-1);
    const id = type === caller.orgType ? 'own' : `ancestor-${type}`;
    line.push({ id, parent_org_id: parent?.id ?? null, org_type: type, status: 'active', path: `${parent?.path ?? '/'}${id}/` });
  }
  return line;
}

/** A live child of an organization, of the next type down. */
export function childOf(parent: OrgFacts, id: string): OrgFacts {
  const type = childTypeOf(parent.org_type);
  if (!type) throw new Error(`A ${parent.org_type} has no children`);
  return { id, parent_org_id: parent.id, org_type: type, status: 'active', path: `${parent.path}${id}/` };
}

export const actorOf = (caller: CallerInfo): Actor => {
  const own = lineOf(caller).at(-1)!;
  return { userId: SELF, role: caller.role, organization: { id: own.id, org_type: own.org_type, path: own.path } };
};

/** The organization standing in `relation` to the caller's (for `self`, the caller's own). */
export function orgOf(caller: CallerInfo, relation: Relation): OrgFacts {
  const line = lineOf(caller);
  const own = line.at(-1)!;
  const parent = () => {
    if (line.length < 2) throw new Error('A house has no parent');
    return line.at(-2)!;
  };
  switch (relation) {
    case 'self':
    case 'own':
      return own;
    case 'child':
      return childOf(own, 'child');
    case 'grandchild':
      return childOf(childOf(own, 'child'), 'grandchild');
    case 'parent':
      return parent();
    case 'sibling':
      return childOf(parent(), 'sibling');
    case 'other house':
      return { id: 'other-house', parent_org_id: null, org_type: 'house', status: 'active', path: '/other-house/' };
    case 'other tree':
      return {
        id: 'other-tree',
        parent_org_id: 'other-house',
        org_type: 'super_agency',
        status: 'active',
        path: '/other-house/other-tree/',
      };
    case 'deleted':
      // A deleted child; a tenant has none, so its deleted neighbour is a sibling.
      return { ...childOf(childTypeOf(own.org_type) ? own : parent(), 'deleted'), deleted: true };
  }
}

export function sceneOf(caller: CallerInfo, relation: Relation): Scene {
  const org = orgOf(caller, relation);
  const person: PersonFacts =
    relation === 'self'
      ? { id: SELF, role: caller.role, organization: org }
      : { id: `user-${org.id}`, role: `${org.org_type}_user`, organization: org };
  return { actor: actorOf(caller), org, person };
}

/** What the margins rule lets the caller see of the prices and margins of the organization in `relation` (the domain decides). */
export function pricingViewAt(caller: CallerInfo, relation: Relation): PricingView {
  const { actor, org } = sceneOf(caller, relation);
  return pricingViewOf(actor, org);
}

/** A target the caller may read: live, and its own organization or a descendant. */
const readable = ({ actor, org }: Scene) => !org.deleted && isInSubtree(actor, org);

export interface Decision {
  /**
   * What is checked before the target is read (the route's permission): without it 403,
   * or 404 for a target the caller cannot read, since either answer hides it.
   */
  first: boolean;
  /** With `first`, whether the action applies to a readable target (default: it does). */
  allowed?: boolean;
  /** The answer when it does not (403 unless a rule of the domain answers, 422). */
  refusal?: number;
}

/** A route with a target: without `first` 403; outside the read scope 404; then the predicate decides. */
export const targeted =
  (decide: (scene: Scene) => Decision) =>
  (caller: CallerInfo, relation: Relation | null): Expectation => {
    if (relation === null) throw new Error('A targeted route is called with a relation');
    const scene = sceneOf(caller, relation);
    const { first, allowed = true, refusal = 403 } = decide(scene);
    if (!first) return readable(scene) ? denied(403) : denied(403, 404);
    if (!readable(scene)) return denied(404);
    return allowed ? ALLOWED : denied(refusal);
  };

/** A read of anything in scope, for callers the predicate allows. */
export const reads = (first: (actor: Actor) => boolean) => targeted(({ actor }) => ({ first: first(actor) }));

/** A route without a target: allowed exactly when the predicate holds, 403 otherwise. */
export const when = (allowed: (actor: Actor) => boolean) => (caller: CallerInfo) => (allowed(actorOf(caller)) ? ALLOWED : denied(403));
export const anyone = () => ALLOWED;

export const holds = (actor: Actor, permission: Permission) => can(actor.role, permission);

export const inPath = ({ url }: CallInput): Call => ({ path: url });
export const inQuery = ({ url, target }: CallInput): Call => ({ path: `${url}?organization_id=${target!.id}` });
export const withBody =
  (body: (input: CallInput) => unknown) =>
  (input: CallInput): Call => ({ path: input.url, body: body(input) });

export const one = (variant: Omit<Variant, 'name'>): { variants: Variant[] } => ({ variants: [{ name: '', ...variant }] });
export const publicRoute = (publicStatus: number, body?: (unique: string) => unknown): PublicRoute => ({
  publicStatus,
  call: (url, unique) => ({ path: url, body: body?.(unique) }),
});

export const isPublic = (entry: MatrixEntry): entry is PublicRoute => 'publicStatus' in entry;
