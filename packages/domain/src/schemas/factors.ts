import { z } from 'zod';
import { LIMITS } from '../constants.ts';
import { MESSAGES } from '../messages.ts';
import { sessionSchema } from './auth.ts';
import { authenticationResponseSchema } from './passkeys.ts';

/** How a sign-in challenge may be answered. */
export const MFA_METHODS = ['totp', 'recovery_code', 'passkey'] as const;
export const mfaMethodSchema = z.enum(MFA_METHODS);
export type MfaMethod = z.infer<typeof mfaMethodSchema>;

/** A right password for a person with a second factor: no session yet, a challenge to answer. */
export const mfaChallengeSchema = z.object({
  mfa_required: z.literal(true),
  challenge_token: z.string(),
  /** Unix seconds after which the challenge is void and the password must be given again. */
  expires_at: z.number().int(),
  methods: z.array(mfaMethodSchema),
});
export type MfaChallenge = z.infer<typeof mfaChallengeSchema>;

/** What a sign-in answers: a session, or a challenge when the person has a second factor. */
export const signInResultSchema = z.union([sessionSchema, mfaChallengeSchema]);
export type SignInResult = z.infer<typeof signInResultSchema>;
export const isMfaChallenge = (result: SignInResult): result is MfaChallenge => 'mfa_required' in result;

/** A code typed by a person: six digits from the app, or a recovery code (spaces and dashes are ignored by the server). */
export const factorCodeSchema = z
  .string({ error: MESSAGES.auth.codeRequired })
  .trim()
  .min(1, MESSAGES.auth.codeRequired)
  .max(64, MESSAGES.auth.codeWrong);

export const totpCodeSchema = z
  .string({ error: MESSAGES.auth.totpCodeFormat })
  .trim()
  .regex(/^\d{6}$/, MESSAGES.auth.totpCodeFormat);

/** A challenge answered with a typed code, or with a passkey's answer to the challenge's passkey options. */
export const secondFactorBodySchema = z.discriminatedUnion('method', [
  z.object({
    challenge_token: z.string().min(1).max(200),
    method: z.enum(['totp', 'recovery_code']),
    code: factorCodeSchema,
  }),
  z.object({
    challenge_token: z.string().min(1).max(200),
    method: z.literal('passkey'),
    response: authenticationResponseSchema,
  }),
]);
export type SecondFactorBody = z.infer<typeof secondFactorBodySchema>;

/** The signed-in person's second factors. */
export const factorsSchema = z.object({
  totp: z.object({ enrolled: z.boolean(), enrolled_at: z.string().nullable() }),
  recovery_codes: z.object({ left: z.number().int(), created_at: z.string().nullable() }),
  /** How many passkeys the person has (the list is its own endpoint). */
  passkeys: z.object({ count: z.number().int() }),
});
export type Factors = z.infer<typeof factorsSchema>;

/** Starting an authenticator app setup asks for the password again: a stolen access token alone adds no factor. */
export const startTotpBodySchema = z.object({
  current_password: z
    .string({ error: MESSAGES.auth.currentPasswordRequired })
    .min(1, MESSAGES.auth.currentPasswordRequired)
    .max(LIMITS.passwordMax, MESSAGES.auth.currentPasswordWrong),
});
export type StartTotpBody = z.infer<typeof startTotpBodySchema>;

/** The secret to scan or type, shown until the first code confirms it. */
export const totpEnrollmentSchema = z.object({
  secret: z.string(),
  otpauth_uri: z.string(),
  /** The otpauth URI as an SVG QR code. */
  qr_svg: z.string(),
  expires_at: z.string(),
});
export type TotpEnrollment = z.infer<typeof totpEnrollmentSchema>;

export const confirmTotpBodySchema = z.object({ code: totpCodeSchema });
export type ConfirmTotpBody = z.infer<typeof confirmTotpBodySchema>;

/** Removing the app or renewing the recovery codes asks for a current code (from the app, or a recovery code). */
export const factorCodeBodySchema = z.object({ code: factorCodeSchema });
export type FactorCodeBody = z.infer<typeof factorCodeBodySchema>;

/** Removing a passkey: a current code (app or recovery code), or a passkey's answer to the re-check options. */
export const passkeyProofBodySchema = z.union([z.object({ code: factorCodeSchema }), z.object({ response: authenticationResponseSchema })]);
export type PasskeyProofBody = z.infer<typeof passkeyProofBodySchema>;

/** Recovery codes, in this answer only: the server keeps their hashes. Empty when none were made. */
export const recoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;

/** One of a person's sessions (signed in and not ended or expired). */
export const accountSessionSchema = z.object({
  id: z.uuid(),
  /** Browser and system read from the user agent, e.g. "Chrome on macOS". */
  device: z.string(),
  ip: z.string().nullable(),
  started_at: z.string(),
  last_active_at: z.string(),
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSessionSchema>;
export const accountSessionListSchema = z.object({ items: z.array(accountSessionSchema) });
export type AccountSessionList = z.infer<typeof accountSessionListSchema>;
export const sessionParamsSchema = z.object({ sessionId: z.uuid() });
export const endedSessionsSchema = z.object({ ended: z.number().int() });
export type EndedSessions = z.infer<typeof endedSessionsSchema>;

/** An admin's reset of a person's second factors: what was removed, and the sessions ended. */
export const factorsResetSchema = z.object({
  /** The person had an authenticator app (set up or being set up) and it was removed. */
  totp: z.boolean(),
  /** Passkeys removed. */
  passkeys: z.number().int(),
  /** Recovery codes removed, used or not. */
  recovery_codes: z.number().int(),
  /** Sessions of the person that were still open and ended. */
  ended: z.number().int(),
});
export type FactorsReset = z.infer<typeof factorsResetSchema>;
