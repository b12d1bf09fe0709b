import { describe, expect, it } from 'vitest';
import { ACTIVITY_ACTIONS, activitySentence } from './activity.ts';
import { AUDIT_DETAILS, detailsOf, type AuditDetails } from './audit-details.ts';

/** Payloads as the writers store them today, one per main action. */
const SAMPLES: { [A in (typeof ACTIVITY_ACTIONS)[number]]?: AuditDetails<A> } = {
  'auth.sign_in': {},
  'auth.sign_in_failed': { email: 'ana@example.com', reason: 'invalid_credentials' },
  'auth.mfa_challenge_failed': { method: 'totp', failures: 2 },
  'auth.mfa_sign_in': { method: 'passkey', passwordless: true, passkey_id: 'p1' },
  'auth.step_up_failed': { method: 'sso', reason: 'expired', why: 'no pending step-up' },
  'auth.mfa_reset': { by: 'admin', totp: true, passkeys: 2, recovery_codes: 8, ended: 3 },
  'user.update': { changes: { first_name: 'Ana', status: 'inactive' } },
  'user.role_change': { before: 'tenant_user', after: 'tenant_admin' },
  'invitation.accept': { role: 'tenant_user', from_organization_id: 'o1', from_role: 'agency_user', superseded: ['i2'] },
  'organization.create': { name: 'Acme Dental', org_type: 'tenant', parent_org_id: 'o1' },
  'organization.update': { before: { status: 'active' }, after: { status: 'suspended' } },
  'credits.allocate': { amount: '500.00', transaction_group: 'g1', notes: null },
  'credits.adjust_increase': {
    amount: '10',
    reason: 'Goodwill',
    terms: { expires_at: '2027-01-01T00:00:00.000Z', agent_type_ids: null, priority: 5 },
  },
  'billing.agent_limit': { before: 5, after: 10 },
  'billing.spend_controls': {
    spend_cap_before: null,
    spend_cap_after: '100.00',
    top_up_before: null,
    top_up_after: { below: '10.00', amount: '50.00', monthly_max: '200.00' },
  },
  'top_up.made': { amount: '50.00', transaction_group: 'g2', below: '10.00', balance_before: '4.00', reason: 'crossed' },
  'agent.activate': { agent_type_id: 't1', code: 'scribe', active: 3, limit: 4 },
  'agents.status_reported': {
    agent: 'scribe',
    from: 'active',
    to: 'error',
    health_score: 20,
    key_name: 'ci',
    key_prefix: 'ck_1',
    changes: 1,
  },
  'api_key.rolled': { prefix: 'ck_2', previous_prefix: 'ck_1', grace_seconds: 3600 },
  'usage.reported': {
    key_name: 'ci',
    key_prefix: 'ck_1',
    events: 3,
    accepted: 2,
    duplicates: 1,
    rejected: 0,
    credits_charged: '1.50',
    summary: 'Key ci reported 2 usage events (its first report this hour)',
  },
  'mfa_policy.changed': {
    before: { require_own: false, require_subtree: false, require_admins: false, grace_days: 7 },
    after: { require_own: true, require_subtree: false, require_admins: false, grace_days: 3 },
  },
  'scim.group_changed': {
    change: 'deleted',
    group: 'Admins',
    role: 'tenant_admin',
    removed: 1,
    role_changes: [{ user_id: 'u1', email: 'ana@example.com', before: 'tenant_admin', after: 'tenant_user' }],
    scim_token: { id: 's1', name: 'Okta', prefix: 'scim_1' },
  },
  'alert_line.update': {
    line_id: 'l1',
    before: { kind: 'balance', bound: '100', window: null },
    after: { kind: 'cap_percent', bound: '80', window: 'month' },
  },
};

describe('AUDIT_DETAILS', () => {
  it('has a schema for every action of the activity log, and no other', () => {
    expect(Object.keys(AUDIT_DETAILS).sort()).toEqual([...ACTIVITY_ACTIONS].sort());
  });

  it.each(Object.entries(SAMPLES))('parses %s as its writer stores it', (action, details) => {
    const schema = AUDIT_DETAILS[action as keyof typeof AUDIT_DETAILS];
    expect(schema.safeParse(details).success).toBe(true);
  });

  it.each(Object.entries(SAMPLES))('refuses %s with a key its schema does not name', (action, details) => {
    const parsed = AUDIT_DETAILS[action as keyof typeof AUDIT_DETAILS].safeParse({ ...details, undocumented: 1 });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.code).toBe('unrecognized_keys');
  });

  it('refuses a payload that leaves out a required key or gives it the wrong type', () => {
    expect(AUDIT_DETAILS['credits.allocate'].safeParse({ amount: '5', notes: null }).success).toBe(false);
    expect(AUDIT_DETAILS['billing.agent_limit'].safeParse({ before: '5', after: 10 }).success).toBe(false);
    expect(AUDIT_DETAILS['auth.sessions_ended'].safeParse({ count: 1, by: 'robot' }).success).toBe(false);
  });

  it('refuses a nested key its schema does not name', () => {
    expect(
      AUDIT_DETAILS['mfa_policy.changed'].safeParse({
        before: SAMPLES['mfa_policy.changed']!.before,
        after: { ...SAMPLES['mfa_policy.changed']!.after, own: true },
      }).success,
    ).toBe(false);
  });
});

describe('detailsOf', () => {
  it('answers the parsed details of a row in its action’s shape', () => {
    expect(detailsOf('billing.agent_limit', { before: 5, after: 10 })).toEqual({ before: 5, after: 10 });
  });

  it('reads an older row in another shape, an unknown action and a non-object as they are', () => {
    expect(detailsOf('organization.update', { after: { name: 'New', legacy: true } })).toEqual({ after: { name: 'New', legacy: true } });
    expect(detailsOf('something.else', { a: 1 })).toEqual({ a: 1 });
    expect(detailsOf('auth.sign_in', null)).toEqual({});
    expect(detailsOf('auth.sign_in', ['x'])).toEqual({});
    expect(detailsOf('auth.sign_in', 'text')).toEqual({});
    expect(detailsOf('something.else', 5)).toEqual({});
  });

  it('keeps the sentence of an older row in another shape', () => {
    const facts = { actor: 'Ana Ruiz', organization: 'Northwind', target: 'Acme Dental' };
    expect(activitySentence({ ...facts, action: 'organization.update', details: { after: { status: 'suspended' } } })).toBe(
      'Ana Ruiz set the status of Acme Dental to suspended',
    );
  });
});
