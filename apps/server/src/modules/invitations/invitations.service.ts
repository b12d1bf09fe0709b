import { sql, type Kysely, type Transaction } from 'kysely';
import {
  MESSAGES,
  SESSION,
  can,
  isOwnOrDirectChild,
  isRoleValidForOrgType,
  mayGrantRole,
  mayInviteTo,
  personName,
  mayManagePeopleOf,
  type AcceptResult,
  type CreateInvitationInput,
  type Invitation,
  type InvitationList,
  type InvitationStatus,
  type ListInvitationsParams,
} from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requireInSubtree, requireWritable } from '../../lib/authorize.ts';
import type { Caller } from '../../lib/caller.ts';
import { AppError, ConflictError, ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import type { Mailer } from '../../lib/mail.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { hashPassword, hashToken, randomToken } from '../../lib/secrets.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';
import type { UsersService } from '../users/users.service.ts';
import type { AuthService, IssuedSession } from '../auth/auth.service.ts';

const m = MESSAGES.invitations;

interface Deps {
  db: Kysely<DB>;
  organizations: OrganizationsService;
  users: UsersService;
  auth: AuthService;
  mailer: Mailer;
  appUrl: string;
}

function invitationQuery(db: Executor) {
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

type InvitationRow = Awaited<ReturnType<ReturnType<typeof invitationQuery>['executeTakeFirstOrThrow']>>;

/** A pending invitation past its expiry reads as expired. */
function effectiveStatus(row: InvitationRow): InvitationStatus {
  if (row.status === 'pending' && new Date(row.expires_at) <= new Date()) return 'expired';
  return row.status;
}

function toInvitation(row: InvitationRow): Invitation {
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
    invited_by_name: row.inviter_email ? personName({ first_name: row.inviter_first_name, last_name: row.inviter_last_name, email: row.inviter_email }) : null,
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

/**
 * The advisory lock class under which account creation and moves for one e-mail take
 * turns (the second key is the hash of the lowercased e-mail).
 */
const EMAIL_LOCK_CLASS = 0x1a71;

const expiry = () => new Date(Date.now() + SESSION.invitationTtlSeconds * 1000);

export function createInvitationsService({ db, organizations, users, auth, mailer, appUrl }: Deps) {
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

  /**
   * An invitation the caller may resend, copy or revoke: in its subtree (404 otherwise),
   * by those who manage invitations, of the own organization or a direct child.
   */
  async function manageable(caller: Caller, id: string, trx: Transaction<DB>) {
    const found = await invitationQuery(trx).where('i.id', '=', id).forUpdate('i').executeTakeFirst();
    // A soft-deleted organization's invitations are gone with it, like the organization.
    const row = requireInSubtree(caller, found?.org_deleted_at ? null : found, 'Invitation not found');
    if (!can(caller.role, 'invitations.manage')) throw new ForbiddenError();
    if (!isOwnOrDirectChild(caller, { id: row.organization_id, parent_org_id: row.org_parent_id })) {
      throw new ForbiddenError(MESSAGES.users.onlyOwnOrDirectChild);
    }
    return row;
  }

  /**
   * A fresh token replaces the old one: the previous link stops working, and its hash is
   * kept so that it says it was replaced by a newer link.
   */
  async function rotate(trx: Transaction<DB>, id: string) {
    const token = randomToken();
    await trx
      .insertInto('invitation_replaced_links')
      .columns(['token_hash', 'invitation_id'])
      .expression((eb) => eb.selectFrom('invitations').select(['token_hash', 'id']).where('id', '=', id))
      .execute();
    await trx
      .updateTable('invitations')
      .set({ token_hash: hashToken(token), expires_at: expiry() })
      .where('id', '=', id)
      .execute();
    return token;
  }

  /**
   * The invitation behind a token, or the reason it cannot be used. Locks in a fixed order:
   * the invitation's e-mail (registrations and moves of one e-mail take turns), its
   * organization (shared: a deletion, which locks the organization first, waits or is
   * seen), then the invitation; every fact is read after the locks.
   */
  async function usable(trx: Transaction<DB>, token: string) {
    const tokenHash = hashToken(token);
    const found = await trx.selectFrom('invitations').select(['email', 'organization_id']).where('token_hash', '=', tokenHash).executeTakeFirst();
    if (!found) {
      const replaced = await trx.selectFrom('invitation_replaced_links').select('invitation_id').where('token_hash', '=', tokenHash).executeTakeFirst();
      if (replaced) throw new InvitationUnusableError('invitation_link_replaced', m.linkReplaced);
      throw new InvitationUnusableError('invitation_invalid', m.invalidLink);
    }
    await sql`select pg_advisory_xact_lock(${sql.lit(EMAIL_LOCK_CLASS)}, hashtext(${found.email.toLowerCase()}))`.execute(trx);
    await trx.selectFrom('organizations').select('id').where('id', '=', found.organization_id).forShare().execute();
    const row = await invitationQuery(trx).where('i.token_hash', '=', tokenHash).forUpdate('i').executeTakeFirst();
    if (!row) throw new InvitationUnusableError('invitation_invalid', m.invalidLink);
    // Whatever became of the invitation itself, nobody joins a deleted organization.
    if (row.org_deleted_at) throw new InvitationUnusableError('invitation_organization_deleted', m.organizationDeleted);
    const status = effectiveStatus(row);
    if (status === 'expired') throw new InvitationUnusableError('invitation_expired', m.expired);
    if (status === 'revoked' && row.superseded_by) throw new InvitationUnusableError('invitation_superseded', m.superseded);
    if (status === 'revoked') throw new InvitationUnusableError('invitation_revoked', m.revoked);
    if (status === 'accepted') throw new InvitationUnusableError('invitation_used', m.used);
    return row;
  }

  /**
   * Marks the invitation accepted and ends the other pending invitations for its e-mail:
   * an account now exists for it, so they are revoked as superseded by this one.
   */
  async function markAccepted(trx: Transaction<DB>, row: InvitationRow, userId: string): Promise<string[]> {
    await trx
      .updateTable('invitations')
      .set({ status: 'accepted', accepted_at: sql`now()`, accepted_user_id: userId })
      .where('id', '=', row.id)
      .execute();
    const superseded = await trx
      .updateTable('invitations')
      .set({ status: 'revoked', revoked_at: sql`now()`, superseded_by: row.id })
      .where(sql`lower(email)`, '=', row.email.toLowerCase())
      .where('status', '=', 'pending')
      .where('id', '<>', row.id)
      .returning('id')
      .execute();
    return superseded.map((s) => s.id);
  }

  return {
    async create(caller: Caller, input: CreateInvitationInput, info: ClientInfo): Promise<Invitation> {
      const org = await organizations.visible(caller, input.organization_id ?? caller.organization.id);
      if (!mayManagePeopleOf(caller, org)) throw new ForbiddenError(MESSAGES.users.onlyOwnOrDirectChild);
      if (!mayInviteTo(caller, org)) throw new ForbiddenError(m.parentInvitesDisabled);
      if (!isRoleValidForOrgType(input.role, org.org_type)) throw new RuleError(MESSAGES.users.roleNotForOrgType(input.role, org.org_type));
      if (!mayGrantRole(caller, input.role)) throw new ForbiddenError(MESSAGES.users.roleAboveOwn);

      const token = randomToken();
      const invitation = await db.transaction().execute(async (trx) => {
        // Locked shared: a deletion under way finishes first and is seen, or waits for this.
        const live = await trx.selectFrom('organizations').select('id').where('id', '=', org.id).where('deleted_at', 'is', null).forShare().executeTakeFirst();
        if (!live) throw new NotFoundError(MESSAGES.organizations.notFound);
        // Whether the e-mail has an account elsewhere changes nothing here, so the answer
        // reveals nothing; a member of this very organization is within the inviter's reach.
        const account = await users.findByEmail(input.email, trx);
        if (account?.organization_id === org.id) throw new ConflictError(m.alreadyMember);
        const pending = await trx
          .selectFrom('invitations')
          .select(['id', 'expires_at'])
          .where('organization_id', '=', org.id)
          .where(sql`lower(email)`, '=', input.email.toLowerCase())
          .where('status', '=', 'pending')
          .forUpdate()
          .executeTakeFirst();
        if (pending && new Date(pending.expires_at) > new Date()) throw new ConflictError(m.alreadyPending);
        // An expired pending invitation gives way to the new one.
        if (pending) await trx.updateTable('invitations').set({ status: 'revoked', revoked_at: sql`now()` }).where('id', '=', pending.id).execute();
        // One pending invitation per e-mail and organization: of requests racing past the
        // check above, the first insert wins and the others, waiting on it, insert nothing.
        const created = await trx
          .insertInto('invitations')
          .values({
            token_hash: hashToken(token),
            email: input.email,
            first_name: input.first_name,
            last_name: input.last_name,
            role: input.role,
            organization_id: org.id,
            invited_by: caller.userId,
            expires_at: expiry(),
          })
          .onConflict((oc) => oc.doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!created) throw new ConflictError(m.alreadyPending);
        await writeAudit(trx, {
          actorUserId: caller.userId,
          organizationId: org.id,
          action: 'invitation.create',
          targetType: 'invitation',
          targetId: created.id,
          details: { email: input.email, role: input.role },
          ...info,
        });
        return toInvitation(await invitationQuery(trx).where('i.id', '=', created.id).executeTakeFirstOrThrow());
      });
      await mail(invitation, linkFor(token), caller);
      return invitation;
    },

    async list(caller: Caller, query: ListInvitationsParams): Promise<InvitationList> {
      const org = await organizations.visible(caller, query.organization_id ?? caller.organization.id);
      let filtered = invitationQuery(db).where('i.organization_id', '=', org.id);
      if (query.status === 'pending') filtered = filtered.where('i.status', '=', 'pending').where('i.expires_at', '>', sql<string>`now()`);
      else if (query.status === 'expired') filtered = filtered.where('i.status', '=', 'pending').where('i.expires_at', '<=', sql<string>`now()`);
      else if (query.status) filtered = filtered.where('i.status', '=', query.status);
      const [rows, count] = await Promise.all([
        filtered
          .orderBy('i.created_at', 'desc')
          .orderBy('i.id', 'desc')
          .limit(query.page_size)
          .offset((query.page - 1) * query.page_size)
          .execute(),
        filtered.clearSelect().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
      ]);
      return {
        invitations: rows.map(toInvitation),
        pagination: { page: query.page, page_size: query.page_size, total: count.n, total_pages: Math.ceil(count.n / query.page_size) },
      };
    },

    /** A fresh token and expiry, mailed again; the previous link stops working. */
    async resend(caller: Caller, id: string, info: ClientInfo): Promise<Invitation> {
      const { invitation, token } = await db.transaction().execute(async (trx) => {
        const row = await manageable(caller, id, trx);
        if (row.status !== 'pending') throw new RuleError(row.status === 'accepted' ? m.used : m.revoked);
        const token = await rotate(trx, row.id);
        await writeAudit(trx, { actorUserId: caller.userId, organizationId: row.organization_id, action: 'invitation.resend', targetType: 'invitation', targetId: row.id, ...info });
        return { invitation: toInvitation(await invitationQuery(trx).where('i.id', '=', row.id).executeTakeFirstOrThrow()), token };
      });
      await mail(invitation, linkFor(token), caller);
      return invitation;
    },

    /**
     * A link an admin can copy. Only the token's hash is stored, so a link cannot be read
     * back: this makes a fresh one, and the previously sent link stops working.
     */
    async link(caller: Caller, id: string, info: ClientInfo): Promise<{ invitation: Invitation; link: string }> {
      return db.transaction().execute(async (trx) => {
        const row = await manageable(caller, id, trx);
        if (row.status !== 'pending') throw new RuleError(row.status === 'accepted' ? m.used : m.revoked);
        const token = await rotate(trx, row.id);
        await writeAudit(trx, { actorUserId: caller.userId, organizationId: row.organization_id, action: 'invitation.link', targetType: 'invitation', targetId: row.id, ...info });
        return { invitation: toInvitation(await invitationQuery(trx).where('i.id', '=', row.id).executeTakeFirstOrThrow()), link: linkFor(token) };
      });
    },

    async revoke(caller: Caller, id: string, info: ClientInfo): Promise<Invitation> {
      return db.transaction().execute(async (trx) => {
        const row = await manageable(caller, id, trx);
        if (row.status !== 'pending') throw new RuleError(row.status === 'accepted' ? m.used : m.revoked);
        await trx.updateTable('invitations').set({ status: 'revoked', revoked_at: sql`now()` }).where('id', '=', row.id).execute();
        await writeAudit(trx, { actorUserId: caller.userId, organizationId: row.organization_id, action: 'invitation.revoke', targetType: 'invitation', targetId: row.id, details: { email: row.email }, ...info });
        return toInvitation(await invitationQuery(trx).where('i.id', '=', row.id).executeTakeFirstOrThrow());
      });
    },

    /**
     * Reads a token: a new e-mail must register; an existing account must sign in; the
     * signed-in invitee is told what they leave and what they join, and only with `confirm`
     * moves into the organization with the role, in one transaction.
     */
    async accept(token: string, confirm: boolean, caller: Caller | null, info: ClientInfo): Promise<AcceptResult> {
      return db.transaction().execute(async (trx) => {
        const row = await usable(trx, token);
        const account = await users.findByEmail(row.email, trx);
        if (!account) {
          return {
            result: 'requires_registration',
            requiresRegistration: true,
            email: row.email,
            invitationId: row.id,
            organizationId: row.organization_id,
            organizationName: row.organization_name,
            role: row.role,
          };
        }
        if (!caller) return { result: 'requires_login', requiresLogin: true, email: row.email };
        if (caller.userId !== account.id) throw new ForbiddenError(m.otherAccount);
        // Leaving changes the organization left: not for the people of a suspended or inactive one.
        requireWritable(caller);
        // A role within the own organization changes through the role rules, not a link.
        if (account.organization_id === row.organization_id) throw new ConflictError(m.alreadyInOrganization);
        if (!confirm) {
          return {
            result: 'requires_confirmation',
            requiresConfirmation: true,
            email: row.email,
            invitationId: row.id,
            from: { organizationId: account.organization_id, organizationName: caller.organization.name, role: account.role },
            to: { organizationId: row.organization_id, organizationName: row.organization_name, role: row.role },
          };
        }
        await users.assignMembership(trx, account, row.organization_id, row.role);
        const superseded = await markAccepted(trx, row, account.id);
        await writeAudit(trx, {
          actorUserId: account.id,
          organizationId: row.organization_id,
          action: 'invitation.accept',
          targetType: 'invitation',
          targetId: row.id,
          details: { role: row.role, from_organization_id: account.organization_id, from_role: account.role, superseded },
          ...info,
        });
        return { result: 'accepted', organizationId: row.organization_id, organizationName: row.organization_name, role: row.role };
      });
    },

    /** Creates the invitee's account from the invitation and signs it in. */
    async register(token: string, password: string, info: ClientInfo): Promise<IssuedSession> {
      const passwordHash = await hashPassword(password);
      return db.transaction().execute(async (trx) => {
        const row = await usable(trx, token);
        // An invitation made for an existing account is accepted by signing in.
        if (await users.findByEmail(row.email, trx)) throw new ConflictError(m.accountExists);
        const user = await users.insert(trx, {
          email: row.email,
          password_hash: passwordHash,
          first_name: row.first_name,
          last_name: row.last_name,
          role: row.role,
          organization_id: row.organization_id,
          invited_at: row.created_at,
        });
        const superseded = await markAccepted(trx, row, user.id);
        await writeAudit(trx, { actorUserId: user.id, organizationId: row.organization_id, action: 'invitation.register', targetType: 'invitation', targetId: row.id, details: { role: row.role, superseded }, ...info });
        return auth.startSession(trx, user.id, info);
      });
    },
  };
}

export type InvitationsService = ReturnType<typeof createInvitationsService>;
