import { z } from 'zod';
import { LIMITS } from '../constants.ts';
import { MESSAGES } from '../messages.ts';
import { factorCodeSchema } from './factors.ts';
import { authenticationResponseSchema } from './passkeys.ts';

/**
 * How a person proves it is them again before moving money or secrets: a person with a second
 * factor answers with it (a code from the app, a passkey's answer to the re-check options, or a
 * recovery code); a person without one gives the password. Each method is one member of a union
 * on `method`, so another factor adds a member. `sso` (a session begun at the organization's
 * identity provider) is a round trip to the provider (`POST /auth/sso/step-up`), not an answer
 * posted here: it is offered, never a member of the body's union.
 */
export const STEP_UP_METHODS = ['totp', 'passkey', 'recovery_code', 'password', 'sso'] as const;
export const stepUpMethodSchema = z.enum(STEP_UP_METHODS);
export type StepUpMethod = z.infer<typeof stepUpMethodSchema>;

export const stepUpBodySchema = z.discriminatedUnion('method', [
  z.object({ method: z.literal('totp'), code: factorCodeSchema }),
  z.object({ method: z.literal('passkey'), response: authenticationResponseSchema }),
  z.object({ method: z.literal('recovery_code'), code: factorCodeSchema }),
  z.object({
    method: z.literal('password'),
    password: z
      .string({ error: MESSAGES.auth.passwordRequired })
      .min(1, MESSAGES.auth.passwordRequired)
      .max(LIMITS.passwordMax, MESSAGES.auth.stepUpPasswordWrong),
  }),
]);
export type StepUpBody = z.infer<typeof stepUpBodySchema>;

/** A step-up's answer: the session may move money and secrets until this Unix second. */
export const stepUpResultSchema = z.object({ fresh_until: z.number().int() });
export type StepUpResult = z.infer<typeof stepUpResultSchema>;

/** What the console offers the signed-in person to step up with, and until when the last proof holds (null: none holds). */
export const stepUpStatusSchema = z.object({
  methods: z.array(stepUpMethodSchema),
  fresh_until: z.number().int().nullable(),
});
export type StepUpStatus = z.infer<typeof stepUpStatusSchema>;
