import { describe, expect, it } from 'vitest';
import { normalizeClaims } from './claims.ts';
import { childTypeOf, type OrgType } from './hierarchy.ts';
import {
  frozenStanding,
  isInSubtree,
  mayListOrganizations,
  mayListPeople,
  mayManageBilling,
  mayViewActivity,
  mayViewAgents,
  mayViewBilling,
  mayViewPerson,
  mayWrite,
  type Actor,
} from './policy.ts';

/** Edges the main policy and claims tests pass over: absent paths, active ancestors, the read permissions by level, the parsing log. */

const at = (role: string, org_type: OrgType, extra: Partial<Actor['organization']> = {}): Actor => ({
  userId: 'me',
  role,
  organization: { id: 'o', org_type, path: '/h/o/', ...extra },
});

describe('subtree without a known path', () => {
  it('reads nothing when the actor has no path (the console, which never knows it, asks the server)', () => {
    const pathless = at('agency_admin', 'agency', { path: '' });
    expect(isInSubtree(pathless, { path: '/h/o/' })).toBe(false);
    expect(isInSubtree(pathless, { path: '' })).toBe(false);
    expect(isInSubtree(at('agency_admin', 'agency'), { path: '' })).toBe(false);
    expect(isInSubtree(at('agency_admin', 'agency'), { path: '/h/o/c/' })).toBe(true);
  });
});

describe('standing', () => {
  it('an active organization under active ones writes; a frozen ancestor is named as such', () => {
    expect(frozenStanding(at('agency_admin', 'agency', { status: 'active', ancestor_status: 'active' }))).toBeNull();
    expect(mayWrite(at('agency_admin', 'agency', { status: 'active', ancestor_status: 'active' }))).toBe(true);
    expect(frozenStanding(at('agency_admin', 'agency', { status: 'active', ancestor_status: 'inactive' }))).toEqual({
      status: 'inactive',
      where: 'ancestor',
    });
    expect(frozenStanding(at('agency_admin', 'agency', { status: 'suspended', ancestor_status: 'inactive' }))).toEqual({
      status: 'suspended',
      where: 'own',
    });
  });
});

describe('reads by level', () => {
  const levels = ['admin', 'manager', 'user'] as const;
  const of = (check: (actor: Actor) => boolean) => levels.map((level) => check(at(`agency_${level}`, 'agency')));

  it('lists of organizations and people: admins and managers', () => {
    expect(of(mayListOrganizations)).toEqual([true, true, false]);
    expect(of(mayListPeople)).toEqual([true, true, false]);
  });

  it('billing and agents are read at every level; the activity log by admins', () => {
    expect(of(mayViewBilling)).toEqual([true, true, true]);
    expect(of(mayViewAgents)).toEqual([true, true, true]);
    expect(of(mayViewActivity)).toEqual([true, false, false]);
    expect(mayViewBilling(at('nobody', 'agency'))).toBe(false);
  });

  it('billing management: admins, who hold both the agent-limit and the allocation permission', () => {
    expect(of(mayManageBilling)).toEqual([true, false, false]);
  });

  it('everyone reads themselves, even a role that holds nothing; others take users.get', () => {
    expect(mayViewPerson(at('agency_nobody', 'agency'), { id: 'me' })).toBe(true);
    expect(mayViewPerson(at('agency_nobody', 'agency'), { id: 'someone' })).toBe(false);
    expect(mayViewPerson(at('agency_user', 'agency'), { id: 'someone' })).toBe(true);
  });
});

describe('childTypeOf', () => {
  it('is null for a type it does not know', () => {
    expect(childTypeOf('planet' as OrgType)).toBeNull();
    expect(childTypeOf('house')).toBe('super_agency');
    expect(childTypeOf('tenant')).toBeNull();
  });
});

describe('normalizeClaims: the parsing log the role verification page shows', () => {
  it('names where each claim came from, what it ignored, and which rule decided', () => {
    const result = normalizeClaims({
      sub: 'u1',
      role: '',
      user_role: 'agency_admin',
      app_metadata: { org_type: 'super_agency' },
      user_metadata: { role: '', user_role: 'house_admin', org_name: 'Acme' },
    });
    expect(result.claims).toMatchObject({
      user_id: 'u1',
      role: 'super_agency_admin',
      organization_type: 'super_agency',
      organization_name: 'Acme',
    });
    expect(result.log).toEqual([
      { claim: 'role', source: 'user_metadata', value: 'house_admin', note: 'ignored: user_metadata is user-editable' },
      { claim: 'role', source: 'top.user_role', value: 'agency_admin' },
      { claim: 'org_id', source: 'none', value: null, note: 'not found' },
      { claim: 'org_type', source: 'app_metadata.org_type', value: 'super_agency' },
      { claim: 'org_name', source: 'user_metadata.org_name', value: 'Acme' },
      { claim: 'role', source: 'rule', value: 'super_agency_admin', note: 'agency_admin in a super_agency' },
    ]);
  });

  it('passes over a claim that is not a string, and logs no user_metadata role when there is none', () => {
    const result = normalizeClaims({ role: 123, user_role: 'tenant_manager', user_metadata: { user_role: 'house_admin' } });
    expect(result.claims.role).toBe('tenant_manager');
    expect(result.log[0]).toEqual({
      claim: 'role',
      source: 'user_metadata',
      value: 'house_admin',
      note: 'ignored: user_metadata is user-editable',
    });
    expect(normalizeClaims({ user_role: 'tenant_manager' }).log).toEqual([
      { claim: 'role', source: 'top.user_role', value: 'tenant_manager' },
      { claim: 'org_id', source: 'none', value: null, note: 'not found' },
      { claim: 'org_type', source: 'none', value: null, note: 'not found' },
      { claim: 'org_name', source: 'none', value: null, note: 'not found' },
    ]);
  });

  it('infers the role from the organization type, and says so', () => {
    const result = normalizeClaims({ app_metadata: { organization_type: 'agency' }, org_id: 'o1' });
    expect(result.claims).toMatchObject({ role: 'agency_admin', org_id: 'o1', organization_id: 'o1' });
    expect(result.log.at(-1)).toEqual({ claim: 'role', source: 'rule', value: 'agency_admin', note: 'inferred from organization type' });
  });

  it('falls back to a tenant user for a payload that is not an object, and logs why', () => {
    expect(normalizeClaims(null)).toEqual({
      claims: expect.objectContaining({ role: 'tenant_user', user_id: null }),
      log: [{ claim: '*', source: 'error', value: 'Error: token payload is not an object', note: 'fallback to tenant_user' }],
    });
  });
});
