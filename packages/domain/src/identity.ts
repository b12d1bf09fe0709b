import { can } from './permissions.ts';
import { isOwnOrganization, isInSubtree, mayWrite, type Actor, type OrganizationFacts } from './policy.ts';
import type { OrgType } from './hierarchy.ts';
import { roleLevel, rolesForOrgType, type Role } from './roles.ts';

/**
 * Single sign-on and provisioning: which organization's provider signs a person in, who sets
 * it up, and which roles a provider may give. The server enforces these; the console shows an
 * action exactly when they allow it.
 */
export const IDENTITY = {
  /** A sign-in sent to the provider must come back within this. */
  signInTtlSeconds: 600,
  /** The DNS name whose TXT record proves a domain: `_console-verification.<domain>`. */
  verificationLabel: '_console-verification',
  /** What the TXT record holds before the token: `console-verification=<token>`. */
  verificationPrefix: 'console-verification=',
  /** A SCIM token's visible start: `scim_` and eight characters. */
  scimTokenPrefix: 'scim_',
  /** Live SCIM tokens per organization. */
  maxScimTokens: 5,
  /** Domains an organization may claim. */
  maxDomains: 20,
  /** The Identity page lists this many of the last provisioning calls. */
  callsShown: 50,
  /** SCIM list pages hold at most this many resources (`count` is capped to it). */
  scimMaxPage: 100,
  /** A step-up through the provider needs a login there at most this long before its ID token reaches the console. */
  stepUpMaxAgeSeconds: 300,
  /** The longest page address a step-up through the provider comes back to. */
  returnToMax: 2000,
} as const;

/** The DNS name that proves a claim of `domain`. */
export const verificationRecordName = (domain: string): string => `${IDENTITY.verificationLabel}.${domain}`;
/** The TXT value that proves a claim. */
export const verificationRecordValue = (token: string): string => `${IDENTITY.verificationPrefix}${token}`;

/** The lower-cased domain of an e-mail address, or null when it has none. */
export function emailDomain(email: string): string | null {
  const at = email.trim().lastIndexOf('@');
  if (at < 1) return null;
  const domain = email
    .trim()
    .slice(at + 1)
    .toLowerCase();
  return isDomainName(domain) ? domain : null;
}

/** A host name of at least two labels, each 1 to 63 letters, digits or inner hyphens, at most 253 characters. */
export function isDomainName(value: string): boolean {
  if (value.length < 3 || value.length > 253) return false;
  const labels = value.split('.');
  if (labels.length < 2) return false;
  return labels.every((label) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/.test(label)) && !/^\d+$/.test(labels.at(-1)!);
}

/**
 * An organization's identity (provider, domains, SCIM tokens) is read and set by its own
 * admins: a provider signs in that organization's own people, so a parent never sets a child's.
 */
export const mayViewIdentity = (actor: Actor, org: Pick<OrganizationFacts, 'id'>): boolean =>
  can(actor.role, 'identity.manage') && isOwnOrganization(actor, org);

export const mayManageIdentity = (actor: Actor, org: Pick<OrganizationFacts, 'id'>): boolean =>
  mayViewIdentity(actor, org) && mayWrite(actor);

/**
 * A house admin may approve a domain claim by hand (the claimant cannot publish a TXT record,
 * say), for any organization in the tree; the approval is audited.
 */
export const mayApproveDomainClaim = (actor: Actor, org: Pick<OrganizationFacts, 'path'>): boolean =>
  actor.organization.org_type === 'house' && can(actor.role, 'identity.manage') && isInSubtree(actor, org) && mayWrite(actor);

/** The roles a just-in-time member may be given: the organization's own, never an admin role. */
export const jitRolesFor = (orgType: OrgType): Role[] => rolesForOrgType(orgType).filter((role) => roleLevel(role) !== 'admin');

export const isJitRoleAllowed = (role: string, orgType: OrgType): boolean => (jitRolesFor(orgType) as string[]).includes(role);

/**
 * The roles a SCIM group may give: those of the token's own organization, which is what its
 * admins, who made the token, may give. A role of another level is above or beside its reach.
 */
export const scimRolesFor = (orgType: OrgType): Role[] => rolesForOrgType(orgType);

/**
 * The role a SCIM group names: its display name is the role's key (`agency_manager`) or its
 * level (`Manager`, `manager`), either way in the token's organization. null: a group that
 * names no role of this level (it gives none); `above`: it names a role of another level.
 */
export function scimGroupRole(displayName: string, orgType: OrgType): Role | null | 'above' {
  const name = displayName
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  const own = scimRolesFor(orgType);
  const byKey = own.find((role) => role === name);
  if (byKey) return byKey;
  const byLevel = own.find((role) => roleLevel(role) === name || roleLevel(role) === name.replace(/s$/, ''));
  if (byLevel) return byLevel;
  return roleLevel(name) !== null ? 'above' : null;
}

/** Where a claim stands: pending until its TXT record is seen or a house admin approves it. */
export const DOMAIN_STATES = ['pending', 'verified', 'approved'] as const;
export type DomainState = (typeof DOMAIN_STATES)[number];

export const domainState = (claim: { verified_at: string | null; approved_at: string | null }): DomainState =>
  claim.verified_at ? 'verified' : claim.approved_at ? 'approved' : 'pending';

/**
 * Why a sign-in through a provider ended without a session: the callback sends the browser to
 * the sign-in page with `?sso_error=<reason>` and the page says the matching sentence.
 */
export const SSO_SIGN_IN_ERRORS = ['expired', 'refused', 'not_member', 'wrong_domain', 'inactive'] as const;
export type SsoSignInError = (typeof SSO_SIGN_IN_ERRORS)[number];
export const isSsoSignInError = (value: unknown): value is SsoSignInError =>
  typeof value === 'string' && (SSO_SIGN_IN_ERRORS as readonly string[]).includes(value);

/**
 * Why a step-up through the provider ended without renewing the session: the callback sends the
 * browser back to its page with `?step_up_error=<reason>` (`?step_up=ok` when it worked).
 * `not_fresh`: the provider did not ask the person to log in again just now; `wrong_person`:
 * someone else logged in there; `session_ended`: the session to renew was signed out meanwhile.
 */
export const SSO_STEP_UP_ERRORS = ['expired', 'refused', 'not_fresh', 'wrong_person', 'session_ended'] as const;
export type SsoStepUpError = (typeof SSO_STEP_UP_ERRORS)[number];
export const isSsoStepUpError = (value: unknown): value is SsoStepUpError =>
  typeof value === 'string' && (SSO_STEP_UP_ERRORS as readonly string[]).includes(value);

/**
 * A page of this console to come back to: a path of its own origin, so the callback never
 * sends the browser elsewhere. `//host`, `/\host`, a scheme and control characters (which a
 * browser may drop, turning `/\t/host` into `//host`) are refused.
 */
export function isReturnPath(value: string): boolean {
  return (
    value.length <= IDENTITY.returnToMax &&
    value.startsWith('/') &&
    !value.startsWith('//') &&
    !value.includes('\\') &&
    ![...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)
  );
}

/** The house's admins review the tree's pending domain claims (and approve them by hand). */
export const mayReviewDomainClaims = (actor: Actor): boolean =>
  actor.organization.org_type === 'house' && can(actor.role, 'identity.manage');
