import { z } from 'zod';
import { ACTIVITY_ACTIONS } from '../activity-actions.ts';
import { booleanTextSchema } from './common.ts';
import { dateOrDateTime } from './credits.ts';

/**
 * Who acted: a person, an API key (machine actions), a SCIM token (provisioning by the
 * organization's identity provider), or nobody known (a failed sign-in of an unknown e-mail).
 */
export const activityActorSchema = z.object({
  kind: z.enum(['user', 'api_key', 'scim_token', 'system']),
  /** The person's, the key's or the token's id. */
  id: z.string().nullable(),
  /** "Ana Ruiz" (the e-mail when the person has no name), or the key's or token's name. */
  name: z.string().nullable(),
  email: z.string().nullable(),
});
export type ActivityActor = z.infer<typeof activityActorSchema>;

export const activityEventSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  action: z.string(),
  actor: activityActorSchema,
  /** The readable sentence: "Ana Ruiz allocated 500.00 credits to Acme Dental". */
  sentence: z.string(),
  organization: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  target_type: z.string(),
  target_id: z.string().nullable(),
  /** The client address the request came from. */
  ip: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type ActivityEvent = z.infer<typeof activityEventSchema>;

export const activityQuerySchema = z.object({
  /** An organization in the caller's subtree (default: the caller's own). */
  organization_id: z.uuid().optional(),
  /** With its whole subtree (default) or the organization alone. */
  include_subtree: booleanTextSchema.default(true),
  /** Only what this person did. */
  actor_user_id: z.uuid().optional(),
  action: z.enum(ACTIVITY_ACTIONS).optional(),
  /** Inclusive start. */
  from: dateOrDateTime.optional(),
  /** A date is inclusive (to the start of the next day); a date-time is exclusive. */
  to: dateOrDateTime.optional(),
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type ActivityQuery = z.input<typeof activityQuerySchema>;
export type ActivityParams = z.output<typeof activityQuerySchema>;

export const activityPageSchema = z.object({
  events: z.array(activityEventSchema),
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: z.string().nullable(),
});
export type ActivityPage = z.infer<typeof activityPageSchema>;

export const activityExportQuerySchema = activityQuerySchema.omit({ cursor: true, limit: true });
export type ActivityExportQuery = z.input<typeof activityExportQuerySchema>;
