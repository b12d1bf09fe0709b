import { describe, expect, it } from 'vitest';
import { identitySentence } from './activity-identity.ts';

const who = 'Ana Ruiz';
const org = 'Acme';
const say = (action: string, details: Record<string, unknown> = {}, target: string | null = null) =>
  identitySentence(action, { who, org, target, details });

describe('the activity sentences of single sign-on and provisioning', () => {
  it.each([
    ['auth.sso_sign_in', {}, null, 'Ana Ruiz signed in through the identity provider of Acme'],
    [
      'auth.sso_sign_in_failed',
      { email: ' ann@acme.example ', reason: 'wrong_domain' },
      null,
      'Single sign-on refused for ann@acme.example: wrong_domain',
    ],
    ['auth.sso_sign_in_failed', { reason: '  ' }, 'Ann Lee', 'Single sign-on refused for Ann Lee'],
    ['auth.sso_sign_in_failed', {}, null, 'Single sign-on refused for a person'],
    [
      'identity.provider_set',
      { issuer: ' https://idp.example ' },
      null,
      'Ana Ruiz set the identity provider of Acme to https://idp.example',
    ],
    ['identity.provider_set', {}, null, 'Ana Ruiz set the identity provider of Acme to ?'],
    ['identity.provider_removed', {}, null, 'Ana Ruiz removed the identity provider of Acme'],
    ['identity.settings_changed', {}, null, 'Ana Ruiz set single sign-on of Acme: optional, no members added at first sign-in'],
    [
      'identity.settings_changed',
      { after: 'on' },
      null,
      'Ana Ruiz set single sign-on of Acme: optional, no members added at first sign-in',
    ],
    [
      'identity.settings_changed',
      { after: { enforce_sso: true, jit_role: 'tenant_manager' } },
      null,
      'Ana Ruiz set single sign-on of Acme: required, new members join as Tenant Manager',
    ],
    [
      'identity.settings_changed',
      { after: { enforce_sso: 'true' } },
      null,
      'Ana Ruiz set single sign-on of Acme: optional, no members added at first sign-in',
    ],
    ['identity.domain_claimed', { domain: 'acme.example' }, null, 'Ana Ruiz claimed the domain acme.example for Acme'],
    ['identity.domain_claimed', {}, null, 'Ana Ruiz claimed the domain a domain for Acme'],
    ['identity.domain_verified', { domain: 'acme.example' }, null, 'Ana Ruiz verified the domain acme.example of Acme by its DNS record'],
    ['identity.domain_approved', { domain: 'acme.example' }, null, 'Ana Ruiz approved the domain acme.example for Acme by hand'],
    ['identity.domain_removed', { domain: 'acme.example' }, null, 'Ana Ruiz withdrew the claim of Acme to acme.example'],
    [
      'identity.jit_member',
      { email: 'lee@acme.example', role: 'agency_user' },
      null,
      'lee@acme.example joined Acme at their first sign-in as Agency User',
    ],
    ['identity.jit_member', { role: ' ' }, 'Lee Chen', 'Lee Chen joined Acme at their first sign-in'],
    ['scim.token_created', { name: ' Okta ' }, null, 'Ana Ruiz created the SCIM token "Okta"'],
    ['scim.token_rotated', { name: 'Okta' }, null, 'Ana Ruiz rotated the SCIM token "Okta"'],
    ['scim.token_revoked', { name: '' }, null, 'Ana Ruiz revoked the SCIM token a SCIM token'],
    ['scim.user_created', {}, 'Lee Chen', 'Ana Ruiz provisioned Lee Chen in Acme'],
    ['scim.user_updated', { email: 'lee@acme.example' }, null, 'Ana Ruiz updated lee@acme.example'],
    ['scim.user_deactivated', {}, 'Lee Chen', 'Ana Ruiz deactivated Lee Chen, ending their sessions'],
    ['scim.user_deleted', {}, 'Lee Chen', 'Ana Ruiz deleted Lee Chen'],
    ['scim.group_changed', { group: 'Managers', role: 'agency_manager' }, null, 'Ana Ruiz changed the group Managers (Agency Manager)'],
    ['scim.group_changed', { group: 'Engineering' }, null, 'Ana Ruiz changed the group Engineering'],
    ['scim.group_changed', {}, null, 'Ana Ruiz changed the group ?'],
  ] as const)('%s %j (target %s): %s', (action, details, target, sentence) => {
    expect(say(action, details as Record<string, unknown>, target)).toBe(sentence);
  });

  it('says nothing of an action that is not one of them', () => {
    expect(say('credits.allocate')).toBeNull();
    expect(say('')).toBeNull();
  });
});
