import { describe, expect, it } from 'vitest';
import { activitySentence, ACTIVITY_ACTION_LABELS, ACTIVITY_ACTIONS } from './activity.ts';
import { IDENTITY_ACTIONS } from './activity-identity.ts';
import {
  domainState,
  emailDomain,
  isDomainName,
  isJitRoleAllowed,
  isSsoSignInError,
  jitRolesFor,
  mayApproveDomainClaim,
  mayManageIdentity,
  mayReviewDomainClaims,
  mayViewIdentity,
  scimGroupRole,
  SSO_SIGN_IN_ERRORS,
  verificationRecordName,
  verificationRecordValue,
} from './identity.ts';
import { MESSAGES } from './messages.ts';
import type { Actor } from './policy.ts';
import { claimDomainInputSchema, createScimTokenInputSchema, identityProviderInputSchema, isIssuerUrl } from './schemas/identity.ts';

const actor = (
  role: string,
  org: { id: string; org_type: Actor['organization']['org_type']; path: string },
  status?: 'suspended',
): Actor => ({
  userId: 'me',
  role,
  organization: { ...org, ...(status && { status }) },
});
const house = { id: 'h', org_type: 'house' as const, path: '/h/' };
const agency = { id: 'a', org_type: 'agency' as const, path: '/h/s/a/' };

describe('domains and e-mails', () => {
  it('takes the domain of an e-mail, lower-cased, or none', () => {
    expect(emailDomain('Ana@Acme.Example')).toBe('acme.example');
    expect(emailDomain('  ana@sub.acme.example ')).toBe('sub.acme.example');
    expect(emailDomain('a@b@acme.example')).toBe('acme.example');
    for (const bad of ['ana', '@acme.example', 'ana@', 'ana@localhost', 'ana@10.0.0.1', 'ana@-x.example'])
      expect(emailDomain(bad), bad).toBeNull();
  });

  it('accepts host names of two labels or more, each of letters, digits and inner hyphens', () => {
    for (const good of ['acme.example', 'a-b.c9.example', 'x.io', `${'a'.repeat(63)}.example`]) expect(isDomainName(good), good).toBe(true);
    for (const bad of [
      'ab',
      'localhost',
      'a..example',
      '-a.example',
      'a-.example',
      'a_b.example',
      '1.2.3.4',
      `${'a'.repeat(64)}.example`,
      `${'a.'.repeat(127)}io`,
    ])
      expect(isDomainName(bad), bad).toBe(false);
    expect(claimDomainInputSchema.parse({ domain: ' Acme.Example. ' })).toEqual({ domain: 'acme.example' });
    // At most 253 characters; the last label is never all digits, an inner one may be.
    const longest = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    expect(longest).toHaveLength(253);
    expect(isDomainName(longest)).toBe(true);
    expect(isDomainName(`${longest}d`)).toBe(false);
    expect(isDomainName('a.b')).toBe(true);
    for (const good of ['acme.a1', 'acme.1a', 'x.123.example']) expect(isDomainName(good), good).toBe(true);
    expect(isDomainName('acme.12')).toBe(false);
    expect(emailDomain('a@acme.example')).toBe('acme.example');
  });

  it('names the TXT record and its value', () => {
    expect(verificationRecordName('acme.example')).toBe('_console-verification.acme.example');
    expect(verificationRecordValue('tok')).toBe('console-verification=tok');
  });

  it('says where a claim stands: verified before approved, pending otherwise', () => {
    expect(domainState({ verified_at: null, approved_at: null })).toBe('pending');
    expect(domainState({ verified_at: '2026-12-01', approved_at: null })).toBe('verified');
    expect(domainState({ verified_at: null, approved_at: '2026-12-01' })).toBe('approved');
    expect(domainState({ verified_at: '2026-12-01', approved_at: '2026-12-02' })).toBe('verified');
  });
});

describe('who sets up an organization identity', () => {
  it("is the organization's own admins, and a frozen organization's admins only read", () => {
    expect(mayViewIdentity(actor('agency_admin', agency), agency)).toBe(true);
    expect(mayManageIdentity(actor('agency_admin', agency), agency)).toBe(true);
    expect(mayViewIdentity(actor('agency_manager', agency), agency)).toBe(false);
    // A parent's admin does not set a child's provider.
    expect(mayViewIdentity(actor('house_admin', house), agency)).toBe(false);
    expect(mayViewIdentity(actor('agency_admin', agency, 'suspended'), agency)).toBe(true);
    expect(mayManageIdentity(actor('agency_admin', agency, 'suspended'), agency)).toBe(false);
  });

  it('lets a house admin approve and review claims in its tree, nobody else', () => {
    expect(mayApproveDomainClaim(actor('house_admin', house), agency)).toBe(true);
    expect(mayApproveDomainClaim(actor('house_admin', house), { path: '/other/' })).toBe(false);
    expect(mayApproveDomainClaim(actor('house_manager', house), agency)).toBe(false);
    expect(mayApproveDomainClaim(actor('agency_admin', agency), agency)).toBe(false);
    expect(mayApproveDomainClaim(actor('house_admin', house, 'suspended'), agency)).toBe(false);
    expect(mayReviewDomainClaims(actor('house_admin', house))).toBe(true);
    expect(mayReviewDomainClaims(actor('house_support', house))).toBe(false);
    expect(mayReviewDomainClaims(actor('agency_admin', agency))).toBe(false);
  });
});

describe('roles a provider may give', () => {
  it('gives just-in-time members a role of the organization, never an admin role', () => {
    expect(jitRolesFor('agency')).toEqual(['agency_manager', 'agency_user', 'agency_support']);
    expect(jitRolesFor('tenant')).toEqual(['tenant_manager', 'tenant_user']);
    expect(isJitRoleAllowed('tenant_user', 'tenant')).toBe(true);
    expect(isJitRoleAllowed('tenant_admin', 'tenant')).toBe(false);
    expect(isJitRoleAllowed('agency_user', 'tenant')).toBe(false);
  });

  it('reads the role a SCIM group names: its key or its level, in the organization; another level is above its reach', () => {
    expect(scimGroupRole('agency_manager', 'agency')).toBe('agency_manager');
    expect(scimGroupRole('Managers', 'agency')).toBe('agency_manager');
    expect(scimGroupRole(' Admin ', 'agency')).toBe('agency_admin');
    expect(scimGroupRole('Agency Support', 'agency')).toBe('agency_support');
    expect(scimGroupRole('support', 'tenant')).toBeNull();
    expect(scimGroupRole('house_admin', 'agency')).toBe('above');
    expect(scimGroupRole('super-agency-admin', 'agency')).toBe('above');
    expect(scimGroupRole('Engineering', 'agency')).toBeNull();
    expect(scimGroupRole('Supports', 'agency')).toBe('agency_support');
    expect(scimGroupRole('super  agency - admin', 'agency')).toBe('above');
  });
});

describe('the issuer of a provider', () => {
  it('is https, or http on this machine only, with no credentials, query or fragment', () => {
    for (const good of [
      'https://idp.example',
      'https://idp.example/realms/acme',
      'http://127.0.0.1:4011',
      'http://localhost:8080',
      'http://[::1]:9',
    ])
      expect(isIssuerUrl(good), good).toBe(true);
    for (const bad of [
      'http://idp.example',
      'ftp://idp.example',
      'https://u:p@idp.example',
      'https://u@idp.example',
      'https://:p@idp.example',
      'ftp://127.0.0.1',
      'https://idp.example?x=1',
      'https://idp.example#f',
      'idp.example',
    ])
      expect(isIssuerUrl(bad), bad).toBe(false);
    const parsed = identityProviderInputSchema.parse({ issuer: 'https://idp.example/', client_id: ' console ' });
    expect(parsed).toEqual({ issuer: 'https://idp.example', client_id: 'console', email_claim: 'email', name_claim: 'name' });
    expect(identityProviderInputSchema.safeParse({ issuer: 'https://idp.example', client_id: 'c', email_claim: 'e mail' }).success).toBe(
      false,
    );
    expect(identityProviderInputSchema.parse({ issuer: 'https://idp.example/realms/a//', client_id: 'c' }).issuer).toBe(
      'https://idp.example/realms/a',
    );
    for (const field of ['client_id', 'client_secret']) {
      for (const bad of ['a\nb', 'a\u0000b']) {
        expect(
          identityProviderInputSchema.safeParse({ issuer: 'https://idp.example', client_id: 'c', [field]: bad }).success,
          `${field} ${bad}`,
        ).toBe(false);
      }
    }
    expect(identityProviderInputSchema.safeParse({ issuer: 'https://idp.example', client_id: 'c', client_secret: 's3cr3t' }).success).toBe(
      true,
    );
    expect(createScimTokenInputSchema.safeParse({ name: 'Okta\nprod' }).success).toBe(false);
    expect(createScimTokenInputSchema.safeParse({ name: 'Okta\u0000' }).success).toBe(false);
    expect(createScimTokenInputSchema.parse({ name: ' Okta ' })).toEqual({ name: 'Okta' });
  });
});

describe('what the sign-in page and the activity log say', () => {
  it('has a sentence for every reason a provider sign-in ends without a session', () => {
    for (const reason of SSO_SIGN_IN_ERRORS) {
      expect(isSsoSignInError(reason)).toBe(true);
      expect(MESSAGES.identity.signInErrors[reason]).toMatch(/\.$/);
    }
    expect(isSsoSignInError('toString')).toBe(false);
  });

  it('lists every identity action with a label and a sentence of its own', () => {
    for (const action of IDENTITY_ACTIONS) {
      expect(ACTIVITY_ACTIONS).toContain(action);
      expect(ACTIVITY_ACTION_LABELS[action]).toBeTruthy();
    }
    const facts = { actor: 'SCIM token Okta', organization: 'Acme', target: 'Ana Ruiz', details: {} };
    const say = (action: string, details: Record<string, unknown> = {}, target: string | null = facts.target) =>
      activitySentence({ ...facts, action, target, details });
    expect(say('scim.user_created')).toBe('SCIM token Okta provisioned Ana Ruiz in Acme');
    expect(say('scim.user_deactivated')).toBe('SCIM token Okta deactivated Ana Ruiz, ending their sessions');
    expect(say('scim.user_deleted', {}, null)).toBe('SCIM token Okta deleted a person');
    expect(say('scim.group_changed', { group: 'Managers', role: 'agency_manager' })).toBe(
      'SCIM token Okta changed the group Managers (Agency Manager)',
    );
    expect(say('scim.token_created', { name: 'Okta' })).toBe('SCIM token Okta created the SCIM token "Okta"');
    expect(say('scim.token_revoked')).toBe('SCIM token Okta revoked the SCIM token a SCIM token');
    expect(say('identity.domain_claimed', { domain: 'acme.example' })).toBe('SCIM token Okta claimed the domain acme.example for Acme');
    expect(say('identity.domain_approved', { domain: 'acme.example' })).toBe(
      'SCIM token Okta approved the domain acme.example for Acme by hand',
    );
    expect(say('identity.provider_set', { issuer: 'https://idp.example' })).toBe(
      'SCIM token Okta set the identity provider of Acme to https://idp.example',
    );
    expect(say('identity.settings_changed', { after: { enforce_sso: true, jit_role: 'agency_user' } })).toBe(
      'SCIM token Okta set single sign-on of Acme: required, new members join as Agency User',
    );
    expect(say('identity.settings_changed', { after: { enforce_sso: false, jit_role: null } })).toBe(
      'SCIM token Okta set single sign-on of Acme: optional, no members added at first sign-in',
    );
    expect(say('identity.jit_member', { role: 'agency_user' })).toBe('Ana Ruiz joined Acme at their first sign-in as Agency User');
    expect(say('auth.sso_sign_in_failed', { email: 'ana@acme.example', reason: 'not_member' })).toBe(
      'Single sign-on refused for ana@acme.example: not_member',
    );
  });
});
