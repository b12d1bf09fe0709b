import { z } from 'zod';
import { LIMITS } from '../constants.ts';
import { MESSAGES } from '../messages.ts';
import { userProfileSchema } from './users.ts';

export const emailSchema = z
  .string({ error: MESSAGES.auth.emailRequired })
  .trim()
  .min(1, MESSAGES.auth.emailRequired)
  .max(LIMITS.emailMax, MESSAGES.auth.invalidEmail)
  .pipe(z.email({ error: MESSAGES.auth.invalidEmail }));

export const newPasswordSchema = z
  .string({ error: MESSAGES.auth.passwordTooShort })
  .min(LIMITS.passwordMin, MESSAGES.auth.passwordTooShort)
  .max(LIMITS.passwordMax, `Password must be at most ${LIMITS.passwordMax} characters long`);

export const signInBodySchema = z.object({
  email: emailSchema,
  password: z
    .string({ error: MESSAGES.auth.passwordRequired })
    .min(1, MESSAGES.auth.passwordRequired)
    .max(LIMITS.passwordMax, MESSAGES.auth.invalidCredentials),
});
export type SignInBody = z.infer<typeof signInBodySchema>;

/** A signed-in session: the access token for the Authorization header and the profile. */
export const sessionSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
  expires_at: z.number().int(),
  user: userProfileSchema,
});
export type Session = z.infer<typeof sessionSchema>;

export const recoverBodySchema = z.object({ email: emailSchema });
export type RecoverBody = z.infer<typeof recoverBodySchema>;

export const recoverResponseSchema = z.object({ message: z.string() });

/**
 * Sets a new password: with the recovery token from the reset link, or, when signed in,
 * with the bearer token and the current password (a stolen access token alone does not
 * take the account over).
 */
export const passwordBodySchema = z
  .object({
    password: newPasswordSchema,
    token: z.string().min(1).max(200).optional(),
    current_password: z
      .string({ error: MESSAGES.auth.currentPasswordRequired })
      .max(LIMITS.passwordMax, MESSAGES.auth.currentPasswordWrong)
      .optional(),
  })
  .superRefine((body, context) => {
    if (!body.token && !body.current_password) {
      context.addIssue({ code: 'custom', path: ['current_password'], message: MESSAGES.auth.currentPasswordRequired });
    }
  });
export type PasswordBody = z.infer<typeof passwordBodySchema>;

/** Client-side form of a signed-in change: the current password, and the new one twice. */
export const changePasswordFormSchema = z
  .object({
    current_password: z.string().min(1, MESSAGES.auth.currentPasswordRequired).max(LIMITS.passwordMax, MESSAGES.auth.currentPasswordWrong),
    password: newPasswordSchema,
    confirm: z.string(),
  })
  .refine((v) => v.password === v.confirm, {
    message: MESSAGES.auth.passwordsDoNotMatch,
    path: ['confirm'],
  });
export type ChangePasswordForm = z.infer<typeof changePasswordFormSchema>;

/** Client-side form: the two fields must match. */
export const updatePasswordFormSchema = z
  .object({ password: newPasswordSchema, confirm: z.string() })
  .refine((v) => v.password === v.confirm, {
    message: MESSAGES.auth.passwordsDoNotMatch,
    path: ['confirm'],
  });
export type UpdatePasswordForm = z.infer<typeof updatePasswordFormSchema>;
