import { roleLevel } from './roles.ts';

/**
 * The require-a-second-factor rule, pure: the server reads an organization's chain of policies
 * (the house down to the organization itself) and this decides who must have a factor and by
 * when. The union of every requirement that reaches a person applies, so an organization below
 * can add a requirement but never take one away that an ancestor set, and the shortest grace
 * wins: a person's deadline is the earliest of every requirement's.
 */

/** The grace a policy may give, in whole days. */
export const MFA_POLICY_GRACE = { min: 0, max: 14, default: 7 } as const;

/** One organization's policy as the rule reads it. `depth` 0 is the house. */
export interface MfaPolicyLink {
  organization_id: string;
  depth: number;
  own_since: string | null;
  subtree_since: string | null;
  admins_since: string | null;
  grace_days: number;
}

export type MfaRequirementKind = 'own' | 'subtree' | 'admins';

/** A requirement that reaches a person, and the deadline it gives them. */
export interface MfaRequirementSource {
  organization_id: string;
  kind: MfaRequirementKind;
  grace_days: number;
  deadline: string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Every requirement reaching a person of the chain's last organization with this role, and the
 * earliest deadline. A person's grace starts when the requirement first applied to them: the
 * time it was turned on, or their joining when later; only the house's admins requirement
 * counts (it covers every admin role in the tree), and it applies to a person from when they
 * became an admin (`admin_since`, or their joining when they were one from the start).
 */
export function mfaRequirementOf(
  chain: readonly MfaPolicyLink[],
  person: { role: string; joined_at: string; admin_since?: string | null },
): {
  sources: MfaRequirementSource[];
  deadline: string | null;
} {
  const own = chain.reduce((deepest, link) => Math.max(deepest, link.depth), 0);
  const joined = Date.parse(person.joined_at);
  const sources: MfaRequirementSource[] = [];
  const promoted = person.admin_since ? Math.max(Date.parse(person.admin_since), joined) : joined;
  const add = (link: MfaPolicyLink, kind: MfaRequirementKind, since: string | null, applies = joined) => {
    if (!since) return;
    const start = Math.max(Date.parse(since), applies);
    sources.push({
      organization_id: link.organization_id,
      kind,
      grace_days: link.grace_days,
      deadline: new Date(start + link.grace_days * DAY_MS).toISOString(),
    });
  };
  for (const link of chain) {
    if (link.depth === own) add(link, 'own', link.own_since);
    if (link.depth < own) add(link, 'subtree', link.subtree_since);
    if (link.depth === 0 && roleLevel(person.role) === 'admin') add(link, 'admins', link.admins_since, promoted);
  }
  const deadline = sources.length === 0 ? null : sources.map((s) => s.deadline).reduce((a, b) => (Date.parse(a) <= Date.parse(b) ? a : b));
  return { sources, deadline };
}

/** How a session began: a password (with or without a second factor), a passkey alone, or the organization's identity provider. */
export const SESSION_METHODS = ['password', 'passkey', 'sso'] as const;
export type SessionMethod = (typeof SESSION_METHODS)[number];

/**
 * Whether a session meets the requirement however the person stands here: one that began at
 * the organization's identity provider ('sso'). The provider is the authority on who signs in
 * and asks its own second factors; the person may have neither a password nor a factor here.
 */
export const sessionMeetsMfaRequirement = (sessionMethod: SessionMethod | null | undefined): boolean => sessionMethod === 'sso';

/**
 * What a person's own profile says: null when nothing is asked of them (no requirement, a
 * factor already, or a session begun at their identity provider, see `sessionMeetsMfaRequirement`).
 */
export function mfaEnrollmentOf(
  deadline: string | null,
  hasFactor: boolean,
  sessionMethod?: SessionMethod | null,
): { required: true; deadline: string } | null {
  return deadline && !hasFactor && !sessionMeetsMfaRequirement(sessionMethod) ? { required: true, deadline } : null;
}

/** Past the deadline without a factor: only enrolling (and one's own account) is left. */
export const isMfaEnrollmentOverdue = (enrollment: { deadline: string } | null | undefined, now: Date): boolean =>
  !!enrollment && Date.parse(enrollment.deadline) <= now.getTime();

/**
 * The session routes a person past their deadline may still use: their own account and factors
 * (`/account/...`), their profile (`/users/me`) and the session's own routes (`/auth/...`).
 */
export function isMfaEnrollmentExempt(path: string): boolean {
  return path.startsWith('/account/') || path === '/users/me' || path.startsWith('/auth/');
}

/** Whole days left before a deadline, rounded up (0 once it has passed). */
export function mfaDaysLeft(deadline: string, now: Date): number {
  return Math.max(0, Math.ceil((Date.parse(deadline) - now.getTime()) / DAY_MS));
}

/** The policy an organization sets, and whether a change loosens it (turns a requirement off, or lengthens the grace). */
export interface MfaPolicySettings {
  require_own: boolean;
  require_subtree: boolean;
  require_admins: boolean;
  grace_days: number;
}

export function loosensMfaPolicy(before: MfaPolicySettings, after: MfaPolicySettings): boolean {
  return (
    (before.require_own && !after.require_own) ||
    (before.require_subtree && !after.require_subtree) ||
    (before.require_admins && !after.require_admins) ||
    after.grace_days > before.grace_days
  );
}
