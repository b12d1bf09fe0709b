import type { Kysely } from 'kysely';
import { MESSAGES, SESSION, personName, type Invitation, type InvitationStatus } from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { AppError } from '../../lib/errors.ts';
import type { Mailer } from '../../lib/mail.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import type { UsersService } from '../users/users.service.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { InvitationLimits } from './limits.ts';

export const m = MESSAGES.invitations;

/** What the service, and each of its use cases, is built from. */
export interface InvitationsDeps {
  db: Kysely<DB>;
  organizations: OrganizationsService;
  users: UsersService;
  auth: AuthService;
  mailer: Mailer;
  appUrl: string;
  /** The limits on invitation links: checked in the transaction that makes one, before any mail. */
  limits: InvitationLimits;
}

export function invitationQuery(db: Executor) {
  return db
    .selectFrom('invitations as i')
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .leftJoin('users as inviter', 'inviter.id', 'i.invited_by')
    .select([
      'i.id',
      'i.email',
      'i.first_name',
      'i.last_name',
      'i.role',
      'i.organization_id',
      'o.name as organization_name',
      'o.org_type',
      'o.path',
      'o.parent_org_id as org_parent_id',
      'o.disable_parent_invites',
      'o.deleted_at as org_deleted_at',
      'i.status',
      'i.invited_by',
      'inviter.first_name as inviter_first_name',
      'inviter.last_name as inviter_last_name',
      'inviter.email as inviter_email',
      'i.created_at',
      'i.expires_at',
      'i.accepted_at',
      'i.superseded_by',
    ]);
}

export type InvitationRow = Awaited<ReturnType<ReturnType<typeof invitationQuery>['executeTakeFirstOrThrow']>>;

/** A pending invitation past its expiry reads as expired. */
export function effectiveStatus(row: InvitationRow): InvitationStatus {
  if (row.status === 'pending' && new Date(row.expires_at) <= new Date()) return 'expired';
  return row.status;
}

export function toInvitation(row: InvitationRow): Invitation {
  return {
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    role: row.role,
    organization_id: row.organization_id,
    organization_name: row.organization_name,
    status: effectiveStatus(row),
    invited_by: row.invited_by,
    invited_by_name: row.inviter_email
      ? personName({ first_name: row.inviter_first_name, last_name: row.inviter_last_name, email: row.inviter_email })
      : null,
    created_at: row.created_at,
    expires_at: row.expires_at,
    accepted_at: row.accepted_at,
  };
}

const UNUSABLE = {
  invitation_invalid: 404,
  invitation_expired: 410,
  invitation_revoked: 410,
  invitation_used: 410,
  invitation_organization_deleted: 410,
  // Resend or Copy link made a newer link for the same invitation.
  invitation_link_replaced: 410,
  // An account for the e-mail was created or moved since: the state it was made for is gone.
  invitation_superseded: 409,
} as const;

/** Why a token cannot be used: the acceptance page shows the reason. */
export class InvitationUnusableError extends AppError {
  constructor(code: keyof typeof UNUSABLE, message: string) {
    super(UNUSABLE[code], code, message);
  }
}

export const expiry = () => new Date(Date.now() + SESSION.invitationTtlSeconds * 1000);

/** An invitation's link, and the mail that sends it. */
export function createInvitationMail({ mailer, appUrl }: Pick<InvitationsDeps, 'mailer' | 'appUrl'>) {
  const linkFor = (token: string) => `${appUrl}/invitation?token=${token}`;

  async function mail(invitation: Invitation, link: string, inviter: Caller) {
    await mailer.send({
      to: invitation.email,
      subject: `You are invited to ${invitation.organization_name}`,
      text:
        `Hello ${invitation.first_name},\n\n${inviter.email} invited you to join ${invitation.organization_name} ` +
        `as ${invitation.role.replaceAll('_', ' ')}.\n\nAccept the invitation within 7 days:\n${link}\n`,
      link,
    });
  }

  return { linkFor, mail };
}
