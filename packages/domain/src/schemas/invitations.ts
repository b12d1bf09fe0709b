import { z } from 'zod';
import { LIMITS } from '../constants.ts';
import { MESSAGES } from '../messages.ts';
import { newPasswordSchema, sessionSchema } from './auth.ts';
import { paginationSchema } from './users.ts';
import { CONTROL_TEXT, UNSTORABLE_TEXT, isSingleLineText, isStorableText } from './common.ts';

const u = MESSAGES.users;

export const INVITATION_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

export const createInvitationSchema = z.object({
  email: z
    .string({ error: u.invalidEmail })
    .trim()
    .max(LIMITS.emailMax, u.invalidEmail)
    .pipe(z.email({ error: u.invalidEmail })),
  first_name: z
    .string({ error: u.firstNameMin })
    .trim()
    .min(LIMITS.personNameMin, u.firstNameMin)
    .max(LIMITS.personNameMax)
    .refine(isStorableText, UNSTORABLE_TEXT)
    .refine(isSingleLineText, CONTROL_TEXT),
  last_name: z
    .string({ error: u.lastNameMin })
    .trim()
    .min(LIMITS.personNameMin, u.lastNameMin)
    .max(LIMITS.personNameMax)
    .refine(isStorableText, UNSTORABLE_TEXT)
    .refine(isSingleLineText, CONTROL_TEXT),
  role: z.string({ error: u.selectRole }).min(1, u.selectRole).max(40).refine(isStorableText, UNSTORABLE_TEXT),
  /** The organization invited into: the caller's own or a direct child (default the caller's own). */
  organization_id: z.uuid().optional(),
});
export type CreateInvitationInput = z.input<typeof createInvitationSchema>;

/** An invitation as admins see it; the token never leaves the server except inside a link. */
export const invitationSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: z.string(),
  organization_id: z.uuid(),
  organization_name: z.string(),
  status: z.enum(INVITATION_STATUSES),
  invited_by: z.uuid().nullable(),
  /** Who invited, as the console names a person: "Ana Ruiz", or the e-mail when they have no name; null when unknown. */
  invited_by_name: z.string().nullable(),
  /** When the invitation was sent. */
  created_at: z.string(),
  expires_at: z.string(),
  accepted_at: z.string().nullable(),
});
export type Invitation = z.infer<typeof invitationSchema>;

export const listInvitationsQuerySchema = z.object({
  organization_id: z.uuid().optional(),
  status: z.enum(INVITATION_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(50),
});
export type ListInvitationsQuery = z.input<typeof listInvitationsQuerySchema>;
export type ListInvitationsParams = z.output<typeof listInvitationsQuerySchema>;

export const invitationListSchema = z.object({ invitations: z.array(invitationSchema), pagination: paginationSchema });
export type InvitationList = z.infer<typeof invitationListSchema>;

export const invitationResponseSchema = z.object({ invitation: invitationSchema });
export const invitationLinkSchema = z.object({ invitation: invitationSchema, link: z.string() });

export const acceptInvitationSchema = z.object({
  token: z.string().min(1, MESSAGES.invitations.invalidLink).max(200),
  /**
   * A signed-in invitee's consent to leave their organization for the invitation's:
   * without it acceptance only answers what would change.
   */
  confirm: z.boolean().optional(),
});
export type AcceptInvitationInput = z.input<typeof acceptInvitationSchema>;

/** One side of a move: an organization and the role held in it. */
export const membershipSchema = z.object({ organizationId: z.uuid(), organizationName: z.string(), role: z.string() });
export type Membership = z.infer<typeof membershipSchema>;

/** What acceptance answers: register, sign in first, confirm the move, or done. */
export const acceptResultSchema = z.discriminatedUnion('result', [
  z.object({
    result: z.literal('requires_registration'),
    requiresRegistration: z.literal(true),
    email: z.string(),
    invitationId: z.uuid(),
    organizationId: z.uuid(),
    organizationName: z.string(),
    role: z.string(),
  }),
  z.object({ result: z.literal('requires_login'), requiresLogin: z.literal(true), email: z.string() }),
  z.object({
    result: z.literal('requires_confirmation'),
    requiresConfirmation: z.literal(true),
    email: z.string(),
    invitationId: z.uuid(),
    /** What the invitee leaves. */
    from: membershipSchema,
    /** What the invitee joins. */
    to: membershipSchema,
  }),
  z.object({ result: z.literal('accepted'), organizationId: z.uuid(), organizationName: z.string(), role: z.string() }),
]);
export type AcceptResult = z.infer<typeof acceptResultSchema>;

export const registerInvitationSchema = z.object({ token: z.string().min(1).max(200), password: newPasswordSchema });

export const registrationFormSchema = z
  .object({ password: newPasswordSchema, confirm: z.string() })
  .refine((v) => v.password === v.confirm, { message: MESSAGES.auth.passwordsDoNotMatch, path: ['confirm'] });

export const registerResultSchema = sessionSchema;
