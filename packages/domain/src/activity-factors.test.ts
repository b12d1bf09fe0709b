import { describe, expect, it } from 'vitest';
import { activitySentence, ledgerSentence, type LedgerFacts } from './activity.ts';

/**
 * The second-factor sentences of the activity log, word for word: each method a sign-in, a
 * wrong code or a step-up names, the passkeys' names, and the second-factor policy's wording
 * (whom it covers, the grace in days). The rest of the log is pinned in activity-sentences.
 */

const known = { actor: 'Ana Ruiz', organization: 'Northwind', target: 'Acme Dental' };
const unknown = { actor: null, organization: null, target: null };

/** [action, details, sentence with every name known, sentence with no name known] */
const FACTORS: [string, Record<string, unknown>, string, string][] = [
  // A wrong code at sign-in, for each method; the person is the target, else the actor.
  [
    'auth.mfa_challenge_failed',
    { method: 'passkey', failures: 1 },
    'Wrong passkey at the sign-in of Acme Dental (1 wrong so far)',
    'Wrong passkey at the sign-in of a person (1 wrong so far)',
  ],
  [
    'auth.mfa_challenge_failed',
    { method: 'recovery_code', failures: 1200 },
    'Wrong recovery code at the sign-in of Acme Dental (1,200 wrong so far)',
    'Wrong recovery code at the sign-in of a person (1,200 wrong so far)',
  ],
  [
    'auth.mfa_challenge_failed',
    { failures: '3' },
    'Wrong authenticator code at the sign-in of Acme Dental',
    'Wrong authenticator code at the sign-in of a person',
  ],
  // Sign-in with a second factor, for each method, and without a password (a passkey alone).
  ['auth.mfa_sign_in', { method: 'passkey' }, 'Ana Ruiz signed in with a passkey', 'Someone signed in with a passkey'],
  [
    'auth.mfa_sign_in',
    { method: 'passkey', passwordless: true },
    'Ana Ruiz signed in with a passkey (no password)',
    'Someone signed in with a passkey (no password)',
  ],
  [
    'auth.mfa_sign_in',
    { method: 'passkey', passwordless: 'true' },
    'Ana Ruiz signed in with a passkey',
    'Someone signed in with a passkey',
  ],
  ['auth.mfa_sign_in', { method: 'passkey', passwordless: false }, 'Ana Ruiz signed in with a passkey', 'Someone signed in with a passkey'],
  [
    'auth.mfa_sign_in',
    { method: 'recovery_code', passwordless: true },
    'Ana Ruiz signed in with a recovery code (no password)',
    'Someone signed in with a recovery code (no password)',
  ],
  [
    'auth.mfa_sign_in',
    { method: 'password' },
    'Ana Ruiz signed in with a code from their authenticator app',
    'Someone signed in with a code from their authenticator app',
  ],
  [
    'auth.mfa_sign_in',
    {},
    'Ana Ruiz signed in with a code from their authenticator app',
    'Someone signed in with a code from their authenticator app',
  ],
  // Passkeys, named when the name is known (trimmed), plain when it is blank or not text.
  ['auth.mfa_passkey_added', { name: ' Work laptop ' }, 'Ana Ruiz added a passkey "Work laptop"', 'Someone added a passkey "Work laptop"'],
  ['auth.mfa_passkey_added', { name: '  ' }, 'Ana Ruiz added a passkey', 'Someone added a passkey'],
  ['auth.mfa_passkey_added', {}, 'Ana Ruiz added a passkey', 'Someone added a passkey'],
  ['auth.mfa_passkey_renamed', { name: ' Phone ' }, 'Ana Ruiz renamed a passkey to "Phone"', 'Someone renamed a passkey to "Phone"'],
  ['auth.mfa_passkey_renamed', { name: 7 }, 'Ana Ruiz renamed a passkey', 'Someone renamed a passkey'],
  ['auth.mfa_passkey_removed', { name: 'YubiKey' }, 'Ana Ruiz removed a passkey "YubiKey"', 'Someone removed a passkey "YubiKey"'],
  ['auth.mfa_passkey_removed', { name: '' }, 'Ana Ruiz removed a passkey', 'Someone removed a passkey'],
  // Step-up: the confirmation names its method; a wrong one names what was wrong.
  [
    'auth.step_up',
    { method: 'password' },
    'Ana Ruiz confirmed it was them with their password',
    'Someone confirmed it was them with their password',
  ],
  [
    'auth.step_up',
    { method: 'recovery_code' },
    'Ana Ruiz confirmed it was them with a recovery code',
    'Someone confirmed it was them with a recovery code',
  ],
  ['auth.step_up', { method: 'passkey' }, 'Ana Ruiz confirmed it was them with a passkey', 'Someone confirmed it was them with a passkey'],
  [
    'auth.step_up',
    { method: 'totp' },
    'Ana Ruiz confirmed it was them with a code from their authenticator app',
    'Someone confirmed it was them with a code from their authenticator app',
  ],
  [
    'auth.step_up',
    { method: 'sso' },
    'Ana Ruiz confirmed it was them with their identity provider',
    'Someone confirmed it was them with their identity provider',
  ],
  [
    'auth.step_up',
    {},
    'Ana Ruiz confirmed it was them with a code from their authenticator app',
    'Someone confirmed it was them with a code from their authenticator app',
  ],
  [
    'auth.step_up_failed',
    { method: 'password' },
    'Ana Ruiz gave a wrong password to confirm it was them',
    'Someone gave a wrong password to confirm it was them',
  ],
  [
    'auth.step_up_failed',
    { method: 'recovery_code' },
    'Ana Ruiz gave a wrong recovery code to confirm it was them',
    'Someone gave a wrong recovery code to confirm it was them',
  ],
  [
    'auth.step_up_failed',
    { method: 'passkey' },
    'Ana Ruiz gave a wrong passkey to confirm it was them',
    'Someone gave a wrong passkey to confirm it was them',
  ],
  [
    'auth.step_up_failed',
    { method: 'totp' },
    'Ana Ruiz gave a wrong authenticator code to confirm it was them',
    'Someone gave a wrong authenticator code to confirm it was them',
  ],
  // Through the provider nothing was typed wrong: the reason it gave no confirmation.
  [
    'auth.step_up_failed',
    { method: 'sso', reason: 'wrong_person' },
    'Ana Ruiz could not confirm it was them with their identity provider: wrong_person',
    'Someone could not confirm it was them with their identity provider: wrong_person',
  ],
  [
    'auth.step_up_failed',
    { method: 'sso' },
    'Ana Ruiz could not confirm it was them with their identity provider',
    'Someone could not confirm it was them with their identity provider',
  ],
  // An admin's reset of a person's factors: one session, none, or a count not recorded.
  [
    'auth.mfa_reset',
    { ended: 1 },
    'Ana Ruiz reset the second factors of Acme Dental, ending 1 session',
    'Someone reset the second factors of a person, ending 1 session',
  ],
  [
    'auth.mfa_reset',
    { ended: 0 },
    'Ana Ruiz reset the second factors of Acme Dental, ending 0 sessions',
    'Someone reset the second factors of a person, ending 0 sessions',
  ],
  [
    'auth.mfa_reset',
    {},
    'Ana Ruiz reset the second factors of Acme Dental, ending ? sessions',
    'Someone reset the second factors of a person, ending ? sessions',
  ],
];

describe('the second-factor sentences, word for word', () => {
  it.each(FACTORS)('%s %j', (action, details, withNames, withoutNames) => {
    expect(activitySentence({ action, ...known, details })).toBe(withNames);
    expect(activitySentence({ action, ...unknown, details })).toBe(withoutNames);
  });

  it('names the person of a wrong sign-in code by the actor when the target is not known', () => {
    const details = { method: 'passkey' };
    expect(activitySentence({ action: 'auth.mfa_challenge_failed', ...known, target: null, details })).toBe(
      'Wrong passkey at the sign-in of Ana Ruiz',
    );
  });
});

const all = { require_own: true, require_subtree: true, require_admins: true };
const none = { require_own: false, require_subtree: false, require_admins: false };

/** [the policy after the change, what the sentence says of it after "…policy of Northwind: "] */
const POLICIES: [unknown, string][] = [
  [{ ...all, grace_days: 7 }, 'a second factor required for its people, every organization below, every admin in the tree within 7 days'],
  [{ ...none, require_own: true, grace_days: 7 }, 'a second factor required for its people within 7 days'],
  [{ ...none, require_subtree: true, grace_days: 14 }, 'a second factor required for every organization below within 14 days'],
  [{ ...none, require_admins: true, grace_days: 3 }, 'a second factor required for every admin in the tree within 3 days'],
  [{ ...all, require_subtree: false, grace_days: 2 }, 'a second factor required for its people, every admin in the tree within 2 days'],
  [
    { ...all, require_own: false, grace_days: 5 },
    'a second factor required for every organization below, every admin in the tree within 5 days',
  ],
  [{ ...all, require_admins: false, grace_days: 5 }, 'a second factor required for its people, every organization below within 5 days'],
  // One day is singular; no day at all is still plural.
  [{ ...none, require_own: true, grace_days: 1 }, 'a second factor required for its people within 1 day'],
  [{ ...none, require_own: true, grace_days: 0 }, 'a second factor required for its people within 0 days'],
  // A grace that is not a number is left out rather than guessed.
  [{ ...none, require_own: true, grace_days: '7' }, 'a second factor required for its people'],
  [{ ...none, require_own: true }, 'a second factor required for its people'],
  [{ ...none, grace_days: 7 }, 'no second factor required'],
  [{}, 'no second factor required'],
  [null, 'no second factor required'],
  [undefined, 'no second factor required'],
  ['strict', 'no second factor required'],
];

describe('the second-factor policy change, word for word', () => {
  it.each(POLICIES)('%j', (after, words) => {
    expect(activitySentence({ action: 'mfa_policy.changed', ...known, details: { before: { ...none }, after } })).toBe(
      `Ana Ruiz set the second-factor policy of Northwind: ${words}`,
    );
    expect(activitySentence({ action: 'mfa_policy.changed', ...unknown, details: { after } })).toBe(
      `Someone set the second-factor policy of an organization: ${words}`,
    );
  });

  it('reads the policy after the change, not the one before', () => {
    const details = { before: { ...all, grace_days: 3 }, after: { ...none, grace_days: 3 } };
    expect(activitySentence({ action: 'mfa_policy.changed', ...known, details })).toBe(
      'Ana Ruiz set the second-factor policy of Northwind: no second factor required',
    );
  });
});

/** Edges of older sentences: what a fact of the wrong kind or a missing one makes of them. */
const EDGES: [string, Record<string, unknown>, string][] = [
  ['settings.update', {}, 'Ana Ruiz changed the global settings (documentation, billing portal and community links)'],
  // 7.5 days is not whole days: it is told in hours.
  [
    'api_key.rolled',
    { grace_seconds: 648_000 },
    'Ana Ruiz rolled the API key Acme Dental to a new secret, the old secret working for 180 hours',
  ],
  ['api_key.rolled', { grace_seconds: '3600' }, 'Ana Ruiz rolled the API key Acme Dental to a new secret, the old secret ending at once'],
  [
    'billing.spend_controls',
    { spend_cap_before: null, spend_cap_after: null, top_up_after: true, top_up_before: { amount: '5', below: '1' } },
    'Ana Ruiz set the spend cap of Acme Dental from no cap to no cap, and removed its automatic top-up',
  ],
  ['top_up.made', { amount: '50', reason: 'manual', below: '10' }, 'Automatic top-up: 50.00 credits moved to Acme Dental'],
  ['top_up.made', { amount: '50', reason: 'crossed', below: ' ' }, 'Automatic top-up: 50.00 credits moved to Acme Dental'],
  [
    'top_up.made',
    { amount: '50', reason: 'crossed', below: '10' },
    'Automatic top-up: 50.00 credits moved to Acme Dental, its balance below 10.00',
  ],
  ['agents.status_reported', { agent: 'bot', from: 'ok', to: 'down', changes: '5' }, 'Ana Ruiz reported bot as down (was ok)'],
];

describe('older sentences with facts of the wrong kind', () => {
  it.each(EDGES)('%s %j', (action, details, sentence) => {
    expect(activitySentence({ action, ...known, details })).toBe(sentence);
  });
});

const LEDGER_EDGES: [LedgerFacts, string][] = [
  // Only the automatic top-up's own two entry types read as a top-up.
  [
    { entry_type: 'adjustment_increase', amount: '5.00', metadata: { automatic: true }, actor: 'Ana Ruiz', counterparty: 'Acme Dental' },
    'Ana Ruiz added 5.00 credits',
  ],
  // Only a leading minus sign is dropped; anything else that is not an amount shows as it came.
  [{ entry_type: 'adjustment_decrease', amount: '1-2', metadata: {}, actor: null, counterparty: null }, 'Someone removed 1-2 credits'],
  [
    { entry_type: 'reversal_sent', amount: '-300.00', metadata: {}, actor: 'Ana Ruiz', counterparty: 'Acme Dental' },
    'Ana Ruiz reversed an allocation: 300.00 credits returned to Acme Dental',
  ],
  [
    {
      entry_type: 'reversal_received',
      amount: '300.00',
      metadata: { reason: 'wrong agency' },
      actor: 'Ana Ruiz',
      counterparty: 'Acme Dental',
    },
    'Ana Ruiz reversed an allocation to Acme Dental: 300.00 credits returned: wrong agency',
  ],
  [
    {
      entry_type: 'earning',
      amount: '1.20',
      units: '24.0000',
      metadata: { events: '3' },
      agent: { name: 'Scribe', unit: 'run' },
      actor: null,
      counterparty: 'Acme Dental',
    },
    "Earned 1.20 credits from Acme Dental's Scribe: 24 × run",
  ],
];

describe('ledger sentences at their edges', () => {
  it.each(LEDGER_EDGES)('%j', (entry, sentence) => {
    expect(ledgerSentence(entry)).toBe(sentence);
  });
});
