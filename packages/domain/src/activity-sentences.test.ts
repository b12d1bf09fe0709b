import { describe, expect, it } from 'vitest';
import {
  activitySentence,
  describeUsage,
  formatAmount,
  formatUnits,
  isActivityAction,
  ledgerSentence,
  type LedgerFacts,
} from './activity.ts';

/**
 * Every sentence of the activity log and the ledger, word for word, with every fact known and
 * with none: these sentences are what the console, the CSV exports and the ledger show, so
 * each action's wording, and what stands in for a missing name, is pinned here.
 */

const known = { actor: 'Ana Ruiz', organization: 'Northwind', target: 'Acme Dental' };
const unknown = { actor: null, organization: null, target: null };

/** [action, details, sentence with every name known, sentence with no name known] */
const ACTIVITY: [string, Record<string, unknown>, string, string][] = [
  ['auth.sign_in', {}, 'Ana Ruiz signed in', 'Someone signed in'],
  ['auth.sign_in_failed', { email: ' bo@x.io ' }, 'Failed sign-in for bo@x.io', 'Failed sign-in for bo@x.io'],
  ['auth.sign_in_failed', { email: '  ' }, 'Failed sign-in for Ana Ruiz', 'Failed sign-in for Someone'],
  ['auth.password_changed', {}, 'Ana Ruiz changed their password', 'Someone changed their password'],
  ['auth.password_reset', {}, 'Ana Ruiz reset their password with a recovery link', 'Someone reset their password with a recovery link'],
  ['auth.recovery_requested', {}, 'Ana Ruiz asked for a password recovery link', 'Someone asked for a password recovery link'],
  [
    'auth.mfa_challenge_failed',
    { method: 'totp', failures: 2 },
    'Wrong authenticator code at the sign-in of Acme Dental (2 wrong so far)',
    'Wrong authenticator code at the sign-in of a person (2 wrong so far)',
  ],
  [
    'auth.mfa_challenge_failed',
    { method: 'recovery_code' },
    'Wrong recovery code at the sign-in of Acme Dental',
    'Wrong recovery code at the sign-in of a person',
  ],
  [
    'auth.mfa_sign_in',
    { method: 'totp' },
    'Ana Ruiz signed in with a code from their authenticator app',
    'Someone signed in with a code from their authenticator app',
  ],
  ['auth.mfa_sign_in', { method: 'recovery_code' }, 'Ana Ruiz signed in with a recovery code', 'Someone signed in with a recovery code'],
  ['auth.mfa_enrolled', {}, 'Ana Ruiz set up an authenticator app', 'Someone set up an authenticator app'],
  ['auth.mfa_removed', { method: 'totp' }, 'Ana Ruiz removed their authenticator app', 'Someone removed their authenticator app'],
  ['auth.recovery_codes_regenerated', {}, 'Ana Ruiz made new recovery codes', 'Someone made new recovery codes'],
  ['auth.sessions_ended', { count: 1, by: 'self' }, 'Ana Ruiz ended 1 session of their own', 'Someone ended 1 session of their own'],
  ['auth.sessions_ended', { count: 3, by: 'admin' }, 'Ana Ruiz ended 3 sessions of Acme Dental', 'Someone ended 3 sessions of a person'],
  [
    'auth.mfa_reset',
    { by: 'admin', totp: true, recovery_codes: 10, ended: 2 },
    'Ana Ruiz reset the second factors of Acme Dental, ending 2 sessions',
    'Someone reset the second factors of a person, ending 2 sessions',
  ],
  [
    'user.update',
    { changes: { status: 'inactive' } },
    'Ana Ruiz set the status of Acme Dental to inactive',
    'Someone set the status of a person to inactive',
  ],
  ['user.update', { changes: { first_name: 'B' } }, 'Ana Ruiz edited Acme Dental', 'Someone edited a person'],
  ['user.update', { changes: ['status'] }, 'Ana Ruiz edited Acme Dental', 'Someone edited a person'],
  [
    'user.role_change',
    { before: 'tenant_manager', after: 'tenant_admin' },
    'Ana Ruiz changed the role of Acme Dental from Tenant Manager to Tenant Admin',
    'Someone changed the role of a person from Tenant Manager to Tenant Admin',
  ],
  ['user.role_change', {}, 'Ana Ruiz changed the role of Acme Dental from ? to ?', 'Someone changed the role of a person from ? to ?'],
  ['user.deactivate', {}, 'Ana Ruiz deactivated Acme Dental', 'Someone deactivated a person'],
  [
    'invitation.create',
    { email: 'new@x.io', role: 'agency_manager' },
    'Ana Ruiz invited new@x.io to Northwind as Agency Manager',
    'Someone invited new@x.io to an organization as Agency Manager',
  ],
  ['invitation.create', {}, 'Ana Ruiz invited Acme Dental to Northwind', 'Someone invited someone to an organization'],
  ['invitation.resend', {}, 'Ana Ruiz resent the invitation of Acme Dental', 'Someone resent the invitation of someone'],
  ['invitation.link', {}, 'Ana Ruiz copied a new invitation link for Acme Dental', 'Someone copied a new invitation link for someone'],
  ['invitation.revoke', { email: 'new@x.io' }, 'Ana Ruiz revoked the invitation of new@x.io', 'Someone revoked the invitation of new@x.io'],
  ['invitation.revoke', {}, 'Ana Ruiz revoked the invitation of Acme Dental', 'Someone revoked the invitation of someone'],
  ['invitation.accept', {}, 'Ana Ruiz accepted an invitation to Northwind', 'Someone accepted an invitation to an organization'],
  ['invitation.register', {}, 'Ana Ruiz registered by invitation to Northwind', 'Someone registered by invitation to an organization'],
  ['organization.create', { name: 'Kid Co' }, 'Ana Ruiz created Kid Co', 'Someone created Kid Co'],
  ['organization.create', {}, 'Ana Ruiz created Acme Dental', 'Someone created an organization'],
  ['organization.delete', { name: 'Old Co' }, 'Ana Ruiz deleted Old Co', 'Someone deleted Old Co'],
  ['organization.delete', {}, 'Ana Ruiz deleted Acme Dental', 'Someone deleted an organization'],
  [
    'credits.allocate',
    { amount: '1500', notes: 'spring' },
    'Ana Ruiz allocated 1,500.00 credits to Acme Dental (spring)',
    'Someone allocated 1,500.00 credits to an organization (spring)',
  ],
  [
    'credits.reverse_allocation',
    { amount: '300', reason: 'wrong agency' },
    'Ana Ruiz reversed an allocation of 300.00 credits to Acme Dental: wrong agency',
    'Someone reversed an allocation of 300.00 credits to an organization: wrong agency',
  ],
  [
    'credits.reverse_allocation',
    { amount: '300' },
    'Ana Ruiz reversed an allocation of 300.00 credits to Acme Dental',
    'Someone reversed an allocation of 300.00 credits to an organization',
  ],
  [
    'credits.initial_balance',
    { amount: 20 },
    'Ana Ruiz gave Acme Dental an initial balance of 20.00 credits',
    'Someone gave an organization an initial balance of 20.00 credits',
  ],
  [
    'credits.adjust_increase',
    { amount: '5.5', reason: 'goodwill' },
    'Ana Ruiz added 5.50 credits to Acme Dental: goodwill',
    'Someone added 5.50 credits to an organization: goodwill',
  ],
  [
    'credits.adjust_increase',
    { amount: '5.5' },
    'Ana Ruiz added 5.50 credits to Acme Dental',
    'Someone added 5.50 credits to an organization',
  ],
  [
    'credits.adjust_decrease',
    { amount: '5.5', reason: 'error' },
    'Ana Ruiz removed 5.50 credits from Acme Dental: error',
    'Someone removed 5.50 credits from an organization: error',
  ],
  [
    'credits.adjust_decrease',
    { amount: '5.5' },
    'Ana Ruiz removed 5.50 credits from Acme Dental',
    'Someone removed 5.50 credits from an organization',
  ],
  [
    'credits.refund',
    { amount: '3', refund_of: 'evt-1' },
    'Ana Ruiz refunded 3.00 credits to Acme Dental for evt-1',
    'Someone refunded 3.00 credits to an organization for evt-1',
  ],
  ['credits.refund', { amount: '3' }, 'Ana Ruiz refunded 3.00 credits to Acme Dental', 'Someone refunded 3.00 credits to an organization'],
  [
    'billing.agent_limit',
    { before: 1000, after: 2500 },
    'Ana Ruiz set the agent limit of Acme Dental from 1,000 to 2,500',
    'Someone set the agent limit of an organization from 1,000 to 2,500',
  ],
  [
    'billing.agent_limit',
    {},
    'Ana Ruiz set the agent limit of Acme Dental from ? to ?',
    'Someone set the agent limit of an organization from ? to ?',
  ],
  [
    'billing.low_balance_threshold',
    { before: '100', after: '2500.5' },
    'Ana Ruiz set the low-balance threshold of Acme Dental from 100.00 to 2,500.50 credits',
    'Someone set the low-balance threshold of an organization from 100.00 to 2,500.50 credits',
  ],
  [
    'pricing.price_set',
    { agent: 'scribe', before: null, after: '0.3750' },
    'Ana Ruiz set what the children of Acme Dental pay for scribe from pass-through to 0.375 a unit',
    'Someone set what the children of an organization pay for scribe from pass-through to 0.375 a unit',
  ],
  [
    'pricing.price_set',
    { before: '0.3000', after: null },
    'Ana Ruiz set what the children of Acme Dental pay for an agent from 0.3 a unit to pass-through',
    'Someone set what the children of an organization pay for an agent from 0.3 a unit to pass-through',
  ],
  [
    'pricing.child_price_set',
    { agent: 'scribe', before: null, after: '0.4000' },
    'Ana Ruiz set what Acme Dental pays for scribe from the book price to 0.4 a unit',
    'Someone set what an organization pays for scribe from the book price to 0.4 a unit',
  ],
  [
    'billing.spend_controls',
    {
      spend_cap_before: null,
      spend_cap_after: '500',
      top_up_before: null,
      top_up_after: { below: '50', amount: '100', monthly_max: '300' },
    },
    'Ana Ruiz set the spend cap of Acme Dental from no cap to 500.00 credits a month, with an automatic top-up of 100.00 below 50.00',
    'Someone set the spend cap of an organization from no cap to 500.00 credits a month, with an automatic top-up of 100.00 below 50.00',
  ],
  [
    'billing.spend_controls',
    { spend_cap_before: '500', spend_cap_after: null, top_up_before: { below: '50' }, top_up_after: null },
    'Ana Ruiz set the spend cap of Acme Dental from 500.00 credits a month to no cap, and removed its automatic top-up',
    'Someone set the spend cap of an organization from 500.00 credits a month to no cap, and removed its automatic top-up',
  ],
  [
    'billing.spend_controls',
    { spend_cap_before: '1', spend_cap_after: '2' },
    'Ana Ruiz set the spend cap of Acme Dental from 1.00 credits a month to 2.00 credits a month',
    'Someone set the spend cap of an organization from 1.00 credits a month to 2.00 credits a month',
  ],
  [
    'top_up.made',
    { amount: '50' },
    'Automatic top-up: 50.00 credits moved to Acme Dental',
    'Automatic top-up: 50.00 credits moved to an organization',
  ],
  [
    'top_up.made',
    { amount: '50', reason: 'crossed', below: '20' },
    'Automatic top-up: 50.00 credits moved to Acme Dental, its balance below 20.00',
    'Automatic top-up: 50.00 credits moved to an organization, its balance below 20.00',
  ],
  [
    'top_up.made',
    { amount: '50', reason: 'refused', below: '20' },
    'Automatic top-up: 50.00 credits moved to Acme Dental for usage refused for want of credits',
    'Automatic top-up: 50.00 credits moved to an organization for usage refused for want of credits',
  ],
  [
    'agent.cap',
    { before: null, after: '120' },
    'Ana Ruiz set the monthly cap of an agent of Northwind from no cap to 120.00 credits a month',
    'Someone set the monthly cap of an agent of an organization from no cap to 120.00 credits a month',
  ],
  ['agent.activate', { code: 'scribe' }, 'Ana Ruiz activated scribe for Northwind', 'Someone activated scribe for an organization'],
  ['agent.activate', {}, 'Ana Ruiz activated an agent for Northwind', 'Someone activated an agent for an organization'],
  ['agent.deactivate', {}, 'Ana Ruiz deactivated an agent of Northwind', 'Someone deactivated an agent of an organization'],
  [
    'agents.status_reported',
    { agent: 'scribe', from: 'idle', to: 'busy' },
    'Ana Ruiz reported scribe as busy (was idle)',
    'Someone reported scribe as busy (was idle)',
  ],
  ['agents.status_reported', {}, 'Ana Ruiz reported an agent as ? (was ?)', 'Someone reported an agent as ? (was ?)'],
  [
    'agents.status_reported',
    { agent: 'scribe', from: 'active', to: 'error', changes: 7 },
    'Ana Ruiz reported scribe as error (was active); 7 changes since the last entry',
    'Someone reported scribe as error (was active); 7 changes since the last entry',
  ],
  [
    'agents.status_reported',
    { agent: 'scribe', from: 'active', to: 'error', changes: 1 },
    'Ana Ruiz reported scribe as error (was active)',
    'Someone reported scribe as error (was active)',
  ],
  ['agent_type.create', { name: 'Scribe', code: 'scribe' }, 'Ana Ruiz added the agent type Scribe', 'Someone added the agent type Scribe'],
  ['agent_type.create', { code: 'scribe' }, 'Ana Ruiz added the agent type scribe', 'Someone added the agent type scribe'],
  ['agent_type.create', {}, 'Ana Ruiz added the agent type Acme Dental', 'Someone added the agent type ?'],
  ['agent_type.update', {}, 'Ana Ruiz edited the agent type Acme Dental', 'Someone edited the agent type ?'],
  ['agent_type.retire', {}, 'Ana Ruiz retired the agent type Acme Dental', 'Someone retired the agent type ?'],
  ['api_key.create', { name: 'ci' }, 'Ana Ruiz created the API key ci', 'Someone created the API key ci'],
  ['api_key.create', {}, 'Ana Ruiz created the API key Acme Dental', 'Someone created the API key ?'],
  ['api_key.revoke', { prefix: 'oc_ab' }, 'Ana Ruiz revoked the API key Acme Dental', 'Someone revoked the API key oc_ab'],
  ['api_key.revoke', {}, 'Ana Ruiz revoked the API key Acme Dental', 'Someone revoked the API key ?'],
  [
    'webhook.create',
    { url: 'https://x.io/h' },
    'Ana Ruiz added the webhook endpoint https://x.io/h',
    'Someone added the webhook endpoint https://x.io/h',
  ],
  ['webhook.create', {}, 'Ana Ruiz added the webhook endpoint ?', 'Someone added the webhook endpoint ?'],
  [
    'webhook.update',
    { url: 'https://x.io/h' },
    'Ana Ruiz edited the webhook endpoint https://x.io/h',
    'Someone edited the webhook endpoint https://x.io/h',
  ],
  ['webhook.update', {}, 'Ana Ruiz edited the webhook endpoint ?', 'Someone edited the webhook endpoint ?'],
  [
    'webhook.update',
    { url: 'https://x.io/h', enabled: false },
    'Ana Ruiz disabled the webhook endpoint https://x.io/h',
    'Someone disabled the webhook endpoint https://x.io/h',
  ],
  ['webhook.update', { enabled: false }, 'Ana Ruiz disabled the webhook endpoint ?', 'Someone disabled the webhook endpoint ?'],
  [
    'webhook.update',
    { url: 'https://x.io/h', enabled: true },
    'Ana Ruiz enabled the webhook endpoint https://x.io/h',
    'Someone enabled the webhook endpoint https://x.io/h',
  ],
  ['webhook.update', { enabled: true }, 'Ana Ruiz enabled the webhook endpoint ?', 'Someone enabled the webhook endpoint ?'],
  [
    'webhook.delete',
    { url: 'https://x.io/h' },
    'Ana Ruiz deleted the webhook endpoint https://x.io/h',
    'Someone deleted the webhook endpoint https://x.io/h',
  ],
  ['webhook.delete', {}, 'Ana Ruiz deleted the webhook endpoint ?', 'Someone deleted the webhook endpoint ?'],
  [
    'webhook.rotate',
    { url: 'https://x.io/h', grace_hours: 24 },
    'Ana Ruiz rotated the signing secret of https://x.io/h, the old one signing for 24 hours more',
    'Someone rotated the signing secret of https://x.io/h, the old one signing for 24 hours more',
  ],
  [
    'webhook.rotate',
    {},
    'Ana Ruiz rotated the signing secret of ?, the old one signing for 0 hours more',
    'Someone rotated the signing secret of ?, the old one signing for 0 hours more',
  ],
  [
    'webhook.redeliver',
    { url: 'https://x.io/h', test: true, count: 1 },
    'Ana Ruiz sent a test event to https://x.io/h',
    'Someone sent a test event to https://x.io/h',
  ],
  ['webhook.redeliver', { test: true }, 'Ana Ruiz sent a test event to ?', 'Someone sent a test event to ?'],
  [
    'webhook.redeliver',
    { url: 'https://x.io/h', count: 1 },
    'Ana Ruiz redelivered 1 event to https://x.io/h',
    'Someone redelivered 1 event to https://x.io/h',
  ],
  [
    'webhook.redeliver',
    { url: 'https://x.io/h', count: 3 },
    'Ana Ruiz redelivered 3 events to https://x.io/h',
    'Someone redelivered 3 events to https://x.io/h',
  ],
  ['webhook.redeliver', {}, 'Ana Ruiz redelivered ? events to ?', 'Someone redelivered ? events to ?'],
  ['api_key.update', { prefix: 'oc_ab' }, 'Ana Ruiz edited the API key Acme Dental', 'Someone edited the API key oc_ab'],
  [
    'api_key.rolled',
    { prefix: 'oc_cd', grace_seconds: 86_400 },
    'Ana Ruiz rolled the API key Acme Dental to a new secret, the old secret working for 24 hours',
    'Someone rolled the API key oc_cd to a new secret, the old secret working for 24 hours',
  ],
  [
    'api_key.rolled',
    { grace_seconds: 604_800 },
    'Ana Ruiz rolled the API key Acme Dental to a new secret, the old secret working for 7 days',
    'Someone rolled the API key ? to a new secret, the old secret working for 7 days',
  ],
  [
    'api_key.rolled',
    { grace_seconds: 0 },
    'Ana Ruiz rolled the API key Acme Dental to a new secret, the old secret ending at once',
    'Someone rolled the API key ? to a new secret, the old secret ending at once',
  ],
  ['api_key.update', {}, 'Ana Ruiz edited the API key Acme Dental', 'Someone edited the API key ?'],
  ...(
    [
      [1, '1 second'],
      [90, '90 seconds'],
      [60, '1 minute'],
      [120, '2 minutes'],
      [3600, '1 hour'],
      [172_800, '48 hours'],
      [1_209_600, '14 days'],
    ] as const
  ).map(([grace_seconds, words]): [string, Record<string, unknown>, string, string] => [
    'api_key.rolled',
    { grace_seconds },
    `Ana Ruiz rolled the API key Acme Dental to a new secret, the old secret working for ${words}`,
    `Someone rolled the API key ? to a new secret, the old secret working for ${words}`,
  ]),
  [
    'api_key.refused',
    { reason: 'revoked' },
    'The API key Acme Dental was refused: it was revoked',
    'The API key ? was refused: it was revoked',
  ],
  ['api_key.refused', { reason: 'unknown' }, 'The API key Acme Dental was refused: unknown', 'The API key ? was refused: unknown'],
  ['api_key.refused', {}, 'The API key Acme Dental was refused', 'The API key ? was refused'],
  [
    'agents.status_reported',
    { agent: 'scribe', from: 'active', to: 'error', changes: 5 },
    'Ana Ruiz reported scribe as error (was active); 5 changes since the last entry',
    'Someone reported scribe as error (was active); 5 changes since the last entry',
  ],
  ['agents.status_reported', {}, 'Ana Ruiz reported an agent as ? (was ?)', 'Someone reported an agent as ? (was ?)'],
  [
    'api_key.refused',
    { reason: 'expired', prefix: 'oc_ab' },
    'The API key Acme Dental was refused: it has expired',
    'The API key oc_ab was refused: it has expired',
  ],
  [
    'api_key.refused',
    { reason: 'rolled' },
    "The API key Acme Dental was refused: its old secret's grace period is over",
    "The API key ? was refused: its old secret's grace period is over",
  ],
  [
    'usage.reported',
    { accepted: 1200, credits_charged: '1234.5' },
    'Ana Ruiz reported 1,200 usage events (1,234.50 credits)',
    'Someone reported 1,200 usage events (1,234.50 credits)',
  ],
  [
    'usage.imported',
    { accepted: 3, credits_charged: 7 },
    'Ana Ruiz imported 3 usage events (7.00 credits)',
    'Someone imported 3 usage events (7.00 credits)',
  ],
  ['usage.imported', {}, 'Ana Ruiz imported ? usage events (? credits)', 'Someone imported ? usage events (? credits)'],
  [
    'bootstrap.first_house_admin',
    {},
    'The first house admin of Northwind was created',
    'The first house admin of an organization was created',
  ],
  [
    'alert_line.create',
    { after: { kind: 'balance', bound: '500.00', window: null } },
    'Ana Ruiz added the alert line at a balance below 500.00 credits to Northwind',
    'Someone added the alert line at a balance below 500.00 credits to an organization',
  ],
  [
    'alert_line.update',
    { before: { kind: 'cap_percent', bound: '80.00', window: 'month' }, after: { kind: 'cap_percent', bound: '90.00', window: 'week' } },
    'Ana Ruiz changed the alert line at 80 % of the monthly spend cap of Northwind to 90 % of the weekly spend cap',
    'Someone changed the alert line at 80 % of the monthly spend cap of an organization to 90 % of the weekly spend cap',
  ],
  [
    'alert_line.delete',
    { before: { kind: 'runway_days', bound: '7.00', window: null } },
    'Ana Ruiz deleted the alert line at fewer than 7 days of runway of Northwind',
    'Someone deleted the alert line at fewer than 7 days of runway of an organization',
  ],
  ['alert_line.delete', {}, 'Ana Ruiz deleted an alert line of Northwind', 'Someone deleted an alert line of an organization'],
  ['something.new_thing', {}, 'Ana Ruiz: something new thing', 'Someone: something new thing'],
];

describe('activitySentence, word for word', () => {
  it.each(ACTIVITY)('%s %j', (action, details, withNames, withoutNames) => {
    expect(activitySentence({ action, ...known, details })).toBe(withNames);
    expect(activitySentence({ action, ...unknown, details })).toBe(withoutNames);
  });
});

describe('isActivityAction', () => {
  it('knows the actions of the log and nothing else', () => {
    expect(isActivityAction('credits.allocate')).toBe(true);
    expect(isActivityAction('credits.steal')).toBe(false);
    expect(isActivityAction('')).toBe(false);
  });
});

const names = { actor: 'Ana Ruiz', counterparty: 'Acme Dental' };
const noNames = { actor: null, counterparty: null };

/** [entry, sentence with the actor and the other organization known, sentence with neither] */
const LEDGER: [Omit<LedgerFacts, 'actor' | 'counterparty'>, string, string][] = [
  [
    { entry_type: 'allocation_sent', amount: '-1500.00', metadata: { notes: ' spring ' } },
    'Ana Ruiz allocated 1,500.00 credits to Acme Dental: spring',
    'Someone allocated 1,500.00 credits to another organization: spring',
  ],
  [
    { entry_type: 'allocation_sent', amount: '-1500.00', metadata: {} },
    'Ana Ruiz allocated 1,500.00 credits to Acme Dental',
    'Someone allocated 1,500.00 credits to another organization',
  ],
  [
    { entry_type: 'reversal_sent', amount: '-300.00', metadata: { reason: 'wrong agency' } },
    'Ana Ruiz reversed an allocation: 300.00 credits returned to Acme Dental: wrong agency',
    'Someone reversed an allocation: 300.00 credits returned to another organization: wrong agency',
  ],
  [
    { entry_type: 'reversal_received', amount: '300.00', metadata: {} },
    'Ana Ruiz reversed an allocation to Acme Dental: 300.00 credits returned',
    'Someone reversed an allocation to another organization: 300.00 credits returned',
  ],
  [
    { entry_type: 'allocation_received', amount: '1500.00', metadata: { notes: 'spring' } },
    'Received 1,500.00 credits from Acme Dental, allocated by Ana Ruiz: spring',
    'Received 1,500.00 credits from another organization: spring',
  ],
  // The opening grant's note says what the sentence already says.
  [
    { entry_type: 'allocation_received', amount: '200.00', metadata: { notes: 'Initial balance' } },
    'Received 200.00 credits from Acme Dental, allocated by Ana Ruiz',
    'Received 200.00 credits from another organization',
  ],
  [
    { entry_type: 'initial_balance', amount: '200.00', metadata: { notes: 'Initial balance' } },
    'Initial balance of 200.00 credits from Acme Dental, given by Ana Ruiz',
    'Initial balance of 200.00 credits from another organization',
  ],
  [
    {
      entry_type: 'consumption',
      amount: '-12.50',
      metadata: { usage: { input_tokens: 1200, model: ' gpt ', cached: true, empty: '', nested: { a: 1 }, none: null } },
      units: '1200.5000',
      agent: { name: 'Scribe', unit: 'token' },
    },
    'Scribe used 1,200.5 × token, charged 12.50 credits (input tokens 1200, model gpt, cached true), imported by Ana Ruiz',
    'Scribe used 1,200.5 × token, charged 12.50 credits (input tokens 1200, model gpt, cached true)',
  ],
  [
    { entry_type: 'consumption', amount: '-12.50', metadata: { agent: 'scribe', units: '3.0000' } },
    'scribe used 3 units, charged 12.50 credits, imported by Ana Ruiz',
    'scribe used 3 units, charged 12.50 credits',
  ],
  [
    { entry_type: 'consumption', amount: '-12.50', metadata: {} },
    'Usage, charged 12.50 credits, imported by Ana Ruiz',
    'Usage, charged 12.50 credits',
  ],
  [
    { entry_type: 'consumption', amount: '-12.50', metadata: {}, agent: { name: 'Scribe', unit: 'token' } },
    'Scribe used credits, charged 12.50 credits, imported by Ana Ruiz',
    'Scribe used credits, charged 12.50 credits',
  ],
  // A batch's consumption entry: its events, units and charge on one line.
  [
    {
      entry_type: 'consumption',
      amount: '-12.34',
      metadata: { agent: 'support-bot', events: 1000, units: '1234.5000' },
      units: '1234.5000',
      agent: { name: 'Support Bot', unit: 'run' },
    },
    'Support Bot: 1,000 events, 1,234.5 × run, charged 12.34 credits, imported by Ana Ruiz',
    'Support Bot: 1,000 events, 1,234.5 × run, charged 12.34 credits',
  ],
  [
    { entry_type: 'consumption', amount: '-12.50', metadata: { agent: 'scribe', events: 1, units: '3.0000' } },
    'scribe: 1 event, 3 units, charged 12.50 credits, imported by Ana Ruiz',
    'scribe: 1 event, 3 units, charged 12.50 credits',
  ],
  [
    { entry_type: 'consumption', amount: '-12.50', metadata: { events: 2 } },
    'Usage: 2 events, charged 12.50 credits, imported by Ana Ruiz',
    'Usage: 2 events, charged 12.50 credits',
  ],
  [
    { entry_type: 'refund', amount: '3.00', metadata: { refund_of: 'evt-1', usage: { calls: 2 }, reason: 'duplicate' } },
    'Ana Ruiz refunded 3.00 credits for evt-1 (calls 2): duplicate',
    'Someone refunded 3.00 credits for evt-1 (calls 2): duplicate',
  ],
  [
    { entry_type: 'refund', amount: '3.00', metadata: { notes: 'by notes' } },
    'Ana Ruiz refunded 3.00 credits: by notes',
    'Someone refunded 3.00 credits: by notes',
  ],
  [
    { entry_type: 'adjustment_increase', amount: '5.00', metadata: { reason: 'goodwill', notes: 'not this' } },
    'Ana Ruiz added 5.00 credits: goodwill',
    'Someone added 5.00 credits: goodwill',
  ],
  [
    { entry_type: 'adjustment_increase', amount: '5.00', metadata: { notes: 'from notes' } },
    'Ana Ruiz added 5.00 credits: from notes',
    'Someone added 5.00 credits: from notes',
  ],
  [{ entry_type: 'adjustment_increase', amount: '5.00', metadata: {} }, 'Ana Ruiz added 5.00 credits', 'Someone added 5.00 credits'],
  [{ entry_type: 'adjustment_decrease', amount: '-5.00', metadata: {} }, 'Ana Ruiz removed 5.00 credits', 'Someone removed 5.00 credits'],
  [
    { entry_type: 'adjustment_decrease', amount: '-5.00', metadata: { reason: 'error' } },
    'Ana Ruiz removed 5.00 credits: error',
    'Someone removed 5.00 credits: error',
  ],
  [
    {
      entry_type: 'earning',
      amount: '1.20',
      units: '24.0000',
      metadata: { agent: 'scribe', events: 3, child_name: 'Harbor Realty', margin: '0.0500' },
    },
    "Earned 1.20 credits from Harbor Realty's scribe: 3 events, 24 units at a margin of 0.05",
    "Earned 1.20 credits from Harbor Realty's scribe: 3 events, 24 units at a margin of 0.05",
  ],
  [
    { entry_type: 'earning', amount: '0.01', metadata: { events: 1 } },
    'Earned 0.01 credits from Acme Dental: 1 event, usage',
    'Earned 0.01 credits from another organization: 1 event, usage',
  ],
  [{ entry_type: 'odd_kind', amount: '-5.00', metadata: {} }, 'odd kind of 5.00 credits', 'odd kind of 5.00 credits'],
];

describe('ledgerSentence, word for word', () => {
  it.each(LEDGER)('%j', (entry, withNames, withoutNames) => {
    expect(ledgerSentence({ ...entry, ...names })).toBe(withNames);
    expect(ledgerSentence({ ...entry, ...noNames })).toBe(withoutNames);
  });
});

describe('formatAmount', () => {
  it.each([
    ['1234567.5', '1,234,567.50'],
    ['-1234.5', '-1,234.50'],
    [' 12 ', '12.00'],
    ['0.05', '0.05'],
    [1234.5, '1,234.50'],
    [-0.5, '-0.50'],
    // Not an amount: shown as it came, so nothing is silently rounded or invented.
    ['12.345', '12.345'],
    ['1e3', '1e3'],
    ['1234.', '1234.'],
    ['x12.00', 'x12.00'],
    ['12.00x', '12.00x'],
    ['abc', 'abc'],
    ['', '?'],
    [null, '?'],
    [undefined, '?'],
  ])('%j reads %j', (value, shown) => {
    expect(formatAmount(value)).toBe(shown);
  });
});

describe('formatUnits', () => {
  it.each([
    ['1200.5000', '1,200.5'],
    ['0001200.0000', '1,200'],
    [' 12 ', '12'],
    ['0.0000', '0'],
    ['0.5000', '0.5'],
    ['1234567.1200', '1,234,567.12'],
    ['1234567', '1,234,567'],
    ['1.0500', '1.05'],
    ['x1', 'x1'],
    ['1x', '1x'],
    ['12.', '12.'],
    ['-3', '-3'],
  ])('%j reads %j', (value, shown) => {
    expect(formatUnits(value)).toBe(shown);
  });
});

describe('describeUsage', () => {
  it('lists the stored keys and values, leaving out what shows nothing', () => {
    expect(describeUsage({ input_tokens: 1200, model: ' gpt ', cached: false, empty: ' ', nested: { a: 1 }, none: null })).toBe(
      'input tokens 1200, model gpt, cached false',
    );
    expect(describeUsage({ a_b: 0 })).toBe('a b 0');
  });

  it('is null when nothing would show', () => {
    for (const usage of [null, undefined, 'x', 1, [], [1], {}, { a: ' ' }, { a: null }]) expect(describeUsage(usage)).toBeNull();
  });
});
