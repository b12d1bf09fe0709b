import { z } from 'zod';
import { ORG_STATUSES, ORG_TYPES } from '../hierarchy.ts';

export const USER_STATUSES = ['active', 'inactive', 'pending', 'suspended'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** The organization a user belongs to, as the shell needs it. */
export const userOrganizationSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  org_type: z.enum(ORG_TYPES),
  status: z.enum(ORG_STATUSES),
});

/** User profile of spec 1 section 3 (avatar_url is always null). */
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
});
export type UserProfile = z.infer<typeof userProfileSchema>;
