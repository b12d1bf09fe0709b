import { z } from 'zod';
import { MFA_METHODS } from './schemas/factors.ts';
import { STEP_UP_METHODS } from './schemas/step-up.ts';

/**
 * What the audit row of each sign-in, second-factor, single sign-on and provisioning action
 * stores in `details`: the facts its sentence, its webhook event and its mail are built from.
 * Never a secret. Strict, so a key no schema names is an error.
 */

const none = z.strictObject({});
const factorMethod = z.enum(MFA_METHODS);
const stepUpMethod = z.enum(STEP_UP_METHODS);
/** The person's own proof that they were present (a step-up's method): a second factor or their password. */
const proof = stepUpMethod;
/** The provisioning token that acted: a SCIM change has no person behind it. */
const scimToken = z.strictObject({ id: z.string(), name: z.string(), prefix: z.string() });
/** A refused single sign-on or step-up through the provider: a code and the provider's words (at most 300 characters). */
const ssoRefusal = { reason: z.string(), why: z.string() };

export const AUTH_AUDIT_DETAILS = {
  'auth.sign_in': none,
  'auth.sign_in_failed': z.strictObject({
    /** As typed at the sign-in (at most 320 characters), or the account's when one matched. */
    email: z.string(),
    reason: z.enum(['invalid_credentials', 'account_inactive', 'sso_required']),
  }),
  'auth.password_changed': none,
  'auth.password_reset': none,
  'auth.recovery_requested': none,
  'auth.mfa_challenge_failed': z.strictObject({
    method: factorMethod,
    /** A passkey sign-in that skipped the password. */
    passwordless: z.boolean().optional(),
    /** Wrong codes in a row at this challenge, this one included. */
    failures: z.number().int().optional(),
  }),
  'auth.mfa_sign_in': z.strictObject({
    method: factorMethod,
    passwordless: z.boolean().optional(),
    passkey_id: z.string().optional(),
  }),
  'auth.mfa_enrolled': none,
  'auth.mfa_removed': z.strictObject({ method: proof }),
  'auth.recovery_codes_regenerated': z.strictObject({ method: proof }),
  'auth.sessions_ended': z.strictObject({
    count: z.number().int(),
    /** Whether the person ended their own sessions or an admin ended someone's. */
    by: z.enum(['self', 'admin']),
  }),
  'auth.step_up': z.strictObject({ method: stepUpMethod }),
  'auth.step_up_failed': z.strictObject({
    method: stepUpMethod,
    /** Through the provider only (`method` sso): why it refused. */
    reason: z.string().optional(),
    why: z.string().optional(),
  }),
  'auth.mfa_reset': z.strictObject({
    by: z.literal('admin'),
    /** Whether an authenticator app was removed. */
    totp: z.boolean(),
    /** Passkeys removed. */
    passkeys: z.number().int(),
    /** Unused recovery codes removed. */
    recovery_codes: z.number().int(),
    /** Sessions ended. */
    ended: z.number().int(),
  }),
  'auth.mfa_passkey_added': z.strictObject({ method: z.literal('passkey'), passkey_id: z.string(), name: z.string() }),
  'auth.mfa_passkey_renamed': z.strictObject({ passkey_id: z.string(), name: z.string() }),
  'auth.mfa_passkey_removed': z.strictObject({ method: proof, passkey_id: z.string(), name: z.string() }),
  'auth.sso_sign_in': z.strictObject({ email: z.string(), subject: z.string() }),
  'auth.sso_sign_in_failed': z.strictObject({
    email: z.string().optional(),
    ...ssoRefusal,
    /** A trial sign-in an admin made to test the provider. */
    test: z.literal(true).optional(),
  }),
} satisfies Record<string, z.ZodType>;

/** A provider's settings as `identity.settings_changed` records them before and after. */
const ssoSettings = z.strictObject({
  jit_role: z.string().nullable(),
  enforce_sso: z.boolean(),
  break_glass_user_id: z.string().nullable(),
});
const domain = { domain: z.string() };

export const IDENTITY_AUDIT_DETAILS = {
  'identity.provider_set': z.strictObject({
    issuer: z.string(),
    client_id: z.string(),
    email_claim: z.string(),
    name_claim: z.string(),
    /** Whether a new client secret was given (never the secret itself). */
    secret_changed: z.boolean(),
    /** The provider it replaced, when there was one. */
    before: z.strictObject({ issuer: z.string(), client_id: z.string() }).optional(),
  }),
  'identity.provider_removed': z.strictObject({
    issuer: z.string(),
    client_id: z.string(),
    /** Whether single sign-on was enforced until then. */
    was_enforced: z.boolean(),
  }),
  'identity.settings_changed': z.strictObject({
    before: ssoSettings,
    after: ssoSettings,
    /** Password sessions ended by enforcing single sign-on. */
    sessions_ended: z.number().int(),
  }),
  'identity.domain_claimed': z.strictObject(domain),
  'identity.domain_verified': z.strictObject({
    ...domain,
    /** The DNS record name the proof was found at. */
    record: z.string(),
  }),
  'identity.domain_approved': z.strictObject(domain),
  'identity.domain_removed': z.strictObject(domain),
  'identity.jit_member': z.strictObject({ email: z.string(), role: z.string() }),
  'scim.token_created': z.strictObject({ name: z.string(), prefix: z.string() }),
  'scim.token_rotated': z.strictObject({ name: z.string(), prefix: z.string(), previous_prefix: z.string() }),
  'scim.token_revoked': z.strictObject({ name: z.string(), prefix: z.string() }),
  'scim.user_created': z.strictObject({
    email: z.string(),
    role: z.string(),
    active: z.boolean(),
    external_id: z.string().optional(),
    /** A deleted person provisioned again. */
    restored: z.literal(true).optional(),
    scim_token: scimToken,
  }),
  'scim.user_updated': z.strictObject({
    email: z.string(),
    /** Each changed attribute with its value before and after. */
    changes: z.record(z.string(), z.strictObject({ before: z.unknown(), after: z.unknown() })),
    scim_token: scimToken,
  }),
  'scim.user_deactivated': z.strictObject({
    email: z.string(),
    changes: z.record(z.string(), z.strictObject({ before: z.unknown(), after: z.unknown() })),
    sessions_ended: z.number().int(),
    scim_token: scimToken,
  }),
  'scim.user_deleted': z.strictObject({
    email: z.string(),
    sessions_ended: z.number().int(),
    /** Provisioned groups the person was taken out of. */
    groups_left: z.number().int(),
    scim_token: scimToken,
  }),
  'scim.group_changed': z.strictObject({
    change: z.enum(['created', 'updated', 'deleted']),
    /** The group's display name. */
    group: z.string(),
    /** The role the group gives its members; null for a group that gives none. */
    role: z.string().nullable(),
    renamed: z.strictObject({ before: z.string(), after: z.string() }).optional(),
    role_before: z.string().nullable().optional(),
    /** Members added and removed, counted. */
    added: z.number().int().optional(),
    removed: z.number().int(),
    added_emails: z.array(z.string()).optional(),
    removed_emails: z.array(z.string()).optional(),
    /** The people whose role the change moved. */
    role_changes: z.array(z.strictObject({ user_id: z.string(), email: z.string(), before: z.string(), after: z.string() })),
    scim_token: scimToken,
  }),
} satisfies Record<string, z.ZodType>;
