import { z } from 'zod';
import { MFA } from '../constants.ts';
import { MESSAGES } from '../messages.ts';
import { CONTROL_TEXT, UNSTORABLE_TEXT, isSingleLineText, isStorableText } from './common.ts';

/**
 * What a stored WebAuthn challenge is for: adding a passkey, confirming with one on the
 * account pages, answering a sign-in challenge, or signing in without a password. A challenge
 * answers only for its purpose.
 */
export const WEBAUTHN_CHALLENGE_PURPOSES = ['register', 'reauth', 'second_factor', 'passwordless'] as const;
export type WebauthnChallengePurpose = (typeof WEBAUTHN_CHALLENGE_PURPOSES)[number];

/**
 * Passkeys (WebAuthn credentials): the options a browser's passkey ceremony takes, and the
 * answers it gives back, in the JSON form both sides exchange (binary fields base64url).
 */

const b64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]*={0,2}$/);
const TRANSPORTS = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;
const transportSchema = z.enum(TRANSPORTS);
const credentialDescriptorSchema = z.object({
  id: z.string(),
  type: z.literal('public-key'),
  transports: z.array(transportSchema).optional(),
});
const extensionResultsSchema = z.record(z.string(), z.unknown());

/**
 * What a browser answers when a passkey is made (attestation). The bounds leave room for the
 * large keys and signatures of post-quantum algorithms (ML-DSA) some authenticators use.
 */
export const registrationResponseSchema = z.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url(4000),
    attestationObject: b64url(40_000),
    transports: z.array(transportSchema).max(10).optional(),
  }),
  authenticatorAttachment: z.enum(['cross-platform', 'platform']).optional(),
  clientExtensionResults: extensionResultsSchema,
});
export type RegistrationResponse = z.infer<typeof registrationResponseSchema>;

/** What a browser answers when a passkey signs a challenge (assertion). */
export const authenticationResponseSchema = z.object({
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64url(4000),
    authenticatorData: b64url(20_000),
    signature: b64url(20_000),
    userHandle: z.string().max(200).optional(),
  }),
  authenticatorAttachment: z.enum(['cross-platform', 'platform']).optional(),
  clientExtensionResults: extensionResultsSchema,
});
export type AuthenticationResponse = z.infer<typeof authenticationResponseSchema>;

/** The options that start a browser's passkey creation. */
export const registrationOptionsSchema = z.object({
  challenge: z.string(),
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.object({ type: z.literal('public-key'), alg: z.number().int() })),
  timeout: z.number().int().optional(),
  excludeCredentials: z.array(credentialDescriptorSchema).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.enum(['cross-platform', 'platform']).optional(),
      requireResidentKey: z.boolean().optional(),
      residentKey: z.enum(['discouraged', 'preferred', 'required']).optional(),
      userVerification: z.enum(['discouraged', 'preferred', 'required']).optional(),
    })
    .optional(),
  attestation: z.enum(['direct', 'enterprise', 'indirect', 'none']).optional(),
  hints: z.array(z.enum(['hybrid', 'security-key', 'client-device'])).optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});
export type RegistrationOptions = z.infer<typeof registrationOptionsSchema>;

/** The options that start a browser's passkey sign-in (or re-check). */
export const authenticationOptionsSchema = z.object({
  challenge: z.string(),
  timeout: z.number().int().optional(),
  rpId: z.string().optional(),
  allowCredentials: z.array(credentialDescriptorSchema).optional(),
  userVerification: z.enum(['discouraged', 'preferred', 'required']).optional(),
  hints: z.array(z.enum(['hybrid', 'security-key', 'client-device'])).optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});
export type AuthenticationOptions = z.infer<typeof authenticationOptionsSchema>;

/** A passkey's name, as the person gives it. */
export const passkeyNameSchema = z
  .string({ error: MESSAGES.auth.passkeyNameRequired })
  .trim()
  .min(1, MESSAGES.auth.passkeyNameRequired)
  .max(MFA.passkeyNameMax, MESSAGES.auth.passkeyNameMax)
  .refine(isStorableText, UNSTORABLE_TEXT)
  .refine(isSingleLineText, CONTROL_TEXT);

/** One of the signed-in person's passkeys. */
export const passkeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;
export const passkeyListSchema = z.object({ items: z.array(passkeySchema) });
export type PasskeyList = z.infer<typeof passkeyListSchema>;
export const passkeyParamsSchema = z.object({ passkeyId: z.uuid() });

/** Adding a passkey: the browser's answer and the name the person gives it. */
export const addPasskeyBodySchema = z.object({ name: passkeyNameSchema, response: registrationResponseSchema });
export type AddPasskeyBody = z.infer<typeof addPasskeyBodySchema>;

/** A passkey added; recovery codes (in this answer only) when it is the person's first factor, else empty. */
export const addedPasskeySchema = z.object({ passkey: passkeySchema, recovery_codes: z.array(z.string()) });
export type AddedPasskey = z.infer<typeof addedPasskeySchema>;

export const renamePasskeyBodySchema = z.object({ name: passkeyNameSchema });
export type RenamePasskeyBody = z.infer<typeof renamePasskeyBodySchema>;

/** Passkey options for a sign-in: for a challenge's second step (its token), or passwordless (no token). */
export const passkeyOptionsBodySchema = z.object({ challenge_token: z.string().min(1).max(200).optional() });
export type PasskeyOptionsBody = z.infer<typeof passkeyOptionsBodySchema>;

/** A passwordless sign-in: a passkey's answer to options asked without a challenge. */
export const passkeySignInBodySchema = z.object({ response: authenticationResponseSchema });
export type PasskeySignInBody = z.infer<typeof passkeySignInBodySchema>;
