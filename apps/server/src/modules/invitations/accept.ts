import { sql, type Transaction } from 'kysely';
import type { AcceptResult } from '@console/domain';
import type { DB } from '../../db/schema.ts';
import { writeAudit } from '../../lib/audit.ts';
import { requireWritable } from '../../lib/authorize.ts';
import type { Caller } from '../../lib/caller.ts';
import { ConflictError, ForbiddenError } from '../../lib/errors.ts';
import { lockKeyed } from '../../lib/locks.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { hashPassword, hashToken } from '../../lib/secrets.ts';
import type { IssuedSession } from '../auth/auth.service.ts';
import { InvitationUnusableError, effectiveStatus, invitationQuery, m, type InvitationRow, type InvitationsDeps } from './queries.ts';

/** What the invitee does with a link: accept it into an existing account, or register. */
export function createInvitationAcceptance({ db, users, auth }: Pick<InvitationsDeps, 'db' | 'users' | 'auth'>) {
  /**
   * The invitation behind a token, or the reason it cannot be used. Locks in a fixed order:
   * the invitation's e-mail (registrations and moves of one e-mail take turns), its
   * organization (shared: a deletion, which locks the organization first, waits or is
   * seen), then the invitation; every fact is read after the locks.
   */
  async function usable(trx: Transaction<DB>, token: string) {
    const tokenHash = hashToken(token);
    const found = await trx
      .selectFrom('invitations')
      .select(['email', 'organization_id'])
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    if (!found) {
      const replaced = await trx
        .selectFrom('invitation_replaced_links')
        .select('invitation_id')
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      if (replaced) throw new InvitationUnusableError('invitation_link_replaced', m.linkReplaced);
      throw new InvitationUnusableError('invitation_invalid', m.invalidLink);
    }
    await lockKeyed(trx, 'email', found.email.toLowerCase());
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

  /**
   * Reads a token: a new e-mail must register; an existing account must sign in; the
   * signed-in invitee is told what they leave and what they join, and only with `confirm`
   * moves into the organization with the role, in one transaction.
   */
  async function accept(token: string, confirm: boolean, caller: Caller | null, info: ClientInfo): Promise<AcceptResult> {
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
  }

  /** Creates the invitee's account from the invitation and signs it in. */
  async function register(token: string, password: string, info: ClientInfo): Promise<IssuedSession> {
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
      await writeAudit(trx, {
        actorUserId: user.id,
        organizationId: row.organization_id,
        action: 'invitation.register',
        targetType: 'invitation',
        targetId: row.id,
        details: { role: row.role, superseded },
        ...info,
      });
      return auth.startSession(trx, user.id, info);
    });
  }

  return { accept, register };
}
