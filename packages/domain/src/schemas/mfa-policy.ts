import { z } from 'zod';
import { ORG_TYPES } from '../hierarchy.ts';
import { MESSAGES } from '../messages.ts';
import { MFA_POLICY_GRACE } from '../mfa-policy.ts';

const graceDays = z
  .number({ error: MESSAGES.mfaPolicy.graceDays })
  .int(MESSAGES.mfaPolicy.graceDays)
  .min(MFA_POLICY_GRACE.min, MESSAGES.mfaPolicy.graceDays)
  .max(MFA_POLICY_GRACE.max, MESSAGES.mfaPolicy.graceDays);

/** What an organization's admins set: a second factor for its own people, for every organization below, and (the house) for every admin role. */
export const updateMfaPolicySchema = z
  .object({
    require_own: z.boolean(),
    require_subtree: z.boolean(),
    require_admins: z.boolean(),
    grace_days: graceDays,
  })
  .strict();
export type UpdateMfaPolicyInput = z.infer<typeof updateMfaPolicySchema>;

/** A requirement set by an organization above, shown locked on the form. */
export const inheritedMfaRequirementSchema = z.object({
  organization_id: z.uuid(),
  organization_name: z.string(),
  org_type: z.enum(ORG_TYPES),
  kind: z.enum(['subtree', 'admins']),
  grace_days: z.number().int(),
  since: z.string(),
});

/** A person of the organization as the coverage list shows them. */
export const mfaCoveredPersonSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string().nullable(),
  role: z.string(),
  enrolled: z.boolean(),
  /** When they must have a factor by (null once enrolled). */
  deadline: z.string().nullable(),
});

export const mfaPolicySchema = z.object({
  organization_id: z.uuid(),
  /** What this organization itself sets. */
  policy: z.object({
    require_own: z.boolean(),
    require_subtree: z.boolean(),
    require_admins: z.boolean(),
    grace_days: z.number().int(),
    updated_at: z.string().nullable(),
    updated_by_email: z.string().nullable(),
  }),
  inherited: z.array(inheritedMfaRequirementSchema),
  /** The people of this organization a requirement reaches (theirs or an ancestor's), at most a page of them. */
  coverage: z.object({
    covered: z.number().int(),
    not_enrolled: z.number().int(),
    people: z.array(mfaCoveredPersonSchema),
    truncated: z.boolean(),
  }),
});
export type MfaPolicyView = z.infer<typeof mfaPolicySchema>;

/** On a person's own profile: what the policy asks of them, or null when nothing is. */
export const mfaEnrollmentSchema = z.object({ required: z.literal(true), deadline: z.string() }).nullable();
