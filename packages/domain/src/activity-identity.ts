/**
 * The activity log's actions and sentences for single sign-on and provisioning. A SCIM change
 * names its token as the actor: the facts' `actor` is "SCIM token <name>" for those rows.
 */
import { str } from './activity-text.ts';
import { roleLabel } from './roles.ts';

export const IDENTITY_ACTIONS = [
  'auth.sso_sign_in',
  'auth.sso_sign_in_failed',
  'identity.provider_set',
  'identity.provider_removed',
  'identity.settings_changed',
  'identity.domain_claimed',
  'identity.domain_verified',
  'identity.domain_approved',
  'identity.domain_removed',
  'identity.jit_member',
  'scim.token_created',
  'scim.token_rotated',
  'scim.token_revoked',
  'scim.user_created',
  'scim.user_updated',
  'scim.user_deactivated',
  'scim.user_deleted',
  'scim.group_changed',
] as const;
export type IdentityAction = (typeof IDENTITY_ACTIONS)[number];

export const IDENTITY_ACTION_LABELS: Record<IdentityAction, string> = {
  'auth.sso_sign_in': 'Sign-in through the identity provider',
  'auth.sso_sign_in_failed': 'Refused single sign-on',
  'identity.provider_set': 'Identity provider set',
  'identity.provider_removed': 'Identity provider removed',
  'identity.settings_changed': 'Single sign-on settings change',
  'identity.domain_claimed': 'Domain claimed',
  'identity.domain_verified': 'Domain verified',
  'identity.domain_approved': 'Domain approved by hand',
  'identity.domain_removed': 'Domain claim withdrawn',
  'identity.jit_member': 'Member added at first sign-in',
  'scim.token_created': 'SCIM token created',
  'scim.token_rotated': 'SCIM token rotated',
  'scim.token_revoked': 'SCIM token revoked',
  'scim.user_created': 'Person provisioned',
  'scim.user_updated': 'Person updated by provisioning',
  'scim.user_deactivated': 'Person deactivated by provisioning',
  'scim.user_deleted': 'Person deleted by provisioning',
  'scim.group_changed': 'Group changed by provisioning',
};

/** The sentence of an identity action, or null for any other action. */
export function identitySentence(
  action: string,
  facts: { who: string; org: string; target: string | null; details: Record<string, unknown> },
): string | null {
  const { who, org, target, details } = facts;
  const person = target ?? str(details.email) ?? 'a person';
  const domain = str(details.domain) ?? 'a domain';
  const token = str(details.name) ? `"${str(details.name)}"` : 'a SCIM token';
  switch (action) {
    case 'auth.sso_sign_in':
      return `${who} signed in through the identity provider of ${org}`;
    case 'auth.sso_sign_in_failed':
      return `Single sign-on refused for ${str(details.email) ?? person}${str(details.reason) ? `: ${str(details.reason)}` : ''}`;
    case 'identity.provider_set':
      return `${who} set the identity provider of ${org} to ${str(details.issuer) ?? '?'}`;
    case 'identity.provider_removed':
      return `${who} removed the identity provider of ${org}`;
    case 'identity.settings_changed': {
      const after = (details.after && typeof details.after === 'object' ? details.after : {}) as Record<string, unknown>;
      const jit = str(after.jit_role) ? `new members join as ${roleLabel(str(after.jit_role)!)}` : 'no members added at first sign-in';
      return `${who} set single sign-on of ${org}: ${after.enforce_sso === true ? 'required' : 'optional'}, ${jit}`;
    }
    case 'identity.domain_claimed':
      return `${who} claimed the domain ${domain} for ${org}`;
    case 'identity.domain_verified':
      return `${who} verified the domain ${domain} of ${org} by its DNS record`;
    case 'identity.domain_approved':
      return `${who} approved the domain ${domain} for ${org} by hand`;
    case 'identity.domain_removed':
      return `${who} withdrew the claim of ${org} to ${domain}`;
    case 'identity.jit_member':
      return `${person} joined ${org} at their first sign-in${str(details.role) ? ` as ${roleLabel(str(details.role)!)}` : ''}`;
    case 'scim.token_created':
      return `${who} created the SCIM token ${token}`;
    case 'scim.token_rotated':
      return `${who} rotated the SCIM token ${token}`;
    case 'scim.token_revoked':
      return `${who} revoked the SCIM token ${token}`;
    case 'scim.user_created':
      return `${who} provisioned ${person} in ${org}`;
    case 'scim.user_updated':
      return `${who} updated ${person}`;
    case 'scim.user_deactivated':
      return `${who} deactivated ${person}, ending their sessions`;
    case 'scim.user_deleted':
      return `${who} deleted ${person}`;
    case 'scim.group_changed':
      return `${who} changed the group ${str(details.group) ?? '?'}${str(details.role) ? ` (${roleLabel(str(details.role)!)})` : ''}`;
    default:
      return null;
  }
}
