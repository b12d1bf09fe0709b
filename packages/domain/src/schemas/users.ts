import { z } from 'zod';
import { LIMITS, PAGING } from '../constants.ts';
import { ORG_STATUSES, ORG_TYPES } from '../hierarchy.ts';
import { MESSAGES } from '../messages.ts';
import { mfaEnrollmentSchema } from './mfa-policy.ts';
import { CONTROL_TEXT, UNSTORABLE_TEXT, booleanTextSchema, isSingleLineText, isStorableText, pageNumberSchema } from './common.ts';

export const USER_STATUSES = ['active', 'inactive', 'pending', 'suspended'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** The organization a user belongs to, as the shell needs it. */
export const userOrganizationSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  org_type: z.enum(ORG_TYPES),
  status: z.enum(ORG_STATUSES),
  /**
   * On a person's own profile (`/users/me`, the session): the status of the nearest
   * suspended or inactive organization above theirs, or null when every one is active.
   */
  ancestor_status: z.enum(ORG_STATUSES).nullable().optional(),
});

/** A user's profile as the console reads it (avatar_url is always null: no avatars are stored). */
export const userProfileSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  avatar_url: z.null(),
  role: z.string(),
  status: z.enum(USER_STATUSES),
  organization_id: z.uuid(),
  preferred_locale: z.string(),
  invited_at: z.string().nullable(),
  last_login_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  deleted_at: z.string().nullable(),
  organization: userOrganizationSchema,
  /**
   * On a person's own profile (`/users/me`, the session): what the second-factor policy asks
   * of them (a factor by `deadline`), or null when nothing is.
   */
  mfa_enrollment: mfaEnrollmentSchema.optional(),
});
export type UserProfile = z.infer<typeof userProfileSchema>;

const personName = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(LIMITS.personNameMin, message)
    .max(LIMITS.personNameMax)
    .refine(isStorableText, UNSTORABLE_TEXT)
    .refine(isSingleLineText, CONTROL_TEXT);

export const USER_SORT_FIELDS = ['created_at', 'email', 'first_name', 'last_name', 'role', 'status', 'last_login_at'] as const;

export const listUsersQuerySchema = z.object({
  organization_id: z.uuid().optional(),
  /** The people of every live organization below it too (default: the organization's own). */
  include_subtree: booleanTextSchema.default(false),
  page: pageNumberSchema,
  page_size: z.coerce.number().int().min(1).max(100).default(PAGING.usersPageSize),
  status: z.enum(USER_STATUSES).optional(),
  role: z.string().max(40).refine(isStorableText, UNSTORABLE_TEXT).optional(),
  search: z.string().trim().max(LIMITS.emailMax).refine(isStorableText, UNSTORABLE_TEXT).optional(),
  sort_by: z.enum(USER_SORT_FIELDS).default('created_at'),
  sort_order: z.enum(['asc', 'desc']).default('desc'),
});
export type ListUsersQuery = z.input<typeof listUsersQuerySchema>;
export type ListUsersParams = z.output<typeof listUsersQuerySchema>;

export const paginationSchema = z.object({
  page: z.number().int(),
  page_size: z.number().int(),
  total: z.number().int(),
  total_pages: z.number().int(),
});

export const userListSchema = z.object({ users: z.array(userProfileSchema), pagination: paginationSchema });
export type UserList = z.infer<typeof userListSchema>;

/** The profile fields a person edits of themselves and an admin or manager of others. */
const profileEdits = {
  first_name: personName(MESSAGES.users.firstNameMin).optional(),
  last_name: personName(MESSAGES.users.lastNameMin).optional(),
  preferred_locale: z
    .string()
    .regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'Use a locale such as en or en-US.')
    .optional(),
};

/** What a user may change of their own profile. The e-mail is the sign-in identity: see docs/decisions.md. */
export const updateMeSchema = z.object(profileEdits).strict();
export type UpdateMeInput = z.infer<typeof updateMeSchema>;

/** An admin or manager editing another user; only admins change the status. */
export const updateUserSchema = z
  .object({
    ...profileEdits,
    status: z.enum(['active', 'inactive']).optional(),
  })
  .strict()
  .refine((v) => Object.values(v).some((value) => value !== undefined), { message: 'Nothing to update.' });
export type UpdateUserInput = z.infer<typeof updateUserSchema>;

export const updateRoleSchema = z.object({
  role: z.string({ error: MESSAGES.users.selectRole }).min(1, MESSAGES.users.selectRole).max(40).refine(isStorableText, UNSTORABLE_TEXT),
});

export const userResponseSchema = z.object({ user: userProfileSchema });
