import { sql, type Transaction } from 'kysely';
import { MESSAGES, can, isOwnOrDirectChild, type Invitation } from '@console/domain';
import type { DB } from '../../db/schema.ts';
import { auditAction } from '../../lib/audit.ts';
import { requireInSubtree } from '../../lib/authorize.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { hashToken, randomToken } from '../../lib/secrets.ts';
import { createInvitationMail, expiry, invitationQuery, m, toInvitation, type InvitationsDeps } from './queries.ts';

/** What an inviter does with a pending invitation: resend it, copy a fresh link, revoke it. */
export function createInvitationManagement({ db, mailer, appUrl, limits }: Pick<InvitationsDeps, 'db' | 'mailer' | 'appUrl' | 'limits'>) {
  const { linkFor, mail } = createInvitationMail({ mailer, appUrl });

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

  /** A pending invitation the caller may manage; an accepted or revoked one is refused with its state. */
  async function pending(caller: Caller, id: string, trx: Transaction<DB>) {
    const row = await manageable(caller, id, trx);
    if (row.status !== 'pending') throw new RuleError(row.status === 'accepted' ? m.used : m.revoked);
    return row;
  }

  /**
   * A fresh token for a pending invitation, audited as the resend or the copied link it
   * serves. Counted against the invitation limits once the caller may manage it, before
   * anything is written: a resend also waits the resend interval since the last mail.
   */
  async function reissue(caller: Caller, id: string, action: 'invitation.resend' | 'invitation.link', info: ClientInfo) {
    return db.transaction().execute(async (trx) => {
      const row = await pending(caller, id, trx);
      const send = { invitationId: row.id, inviterId: caller.userId, organizationPath: row.path, email: row.email };
      await limits.count(trx, send, action === 'invitation.resend');
      const token = await rotate(trx, row.id);
      await auditAction(trx, caller, info, { organizationId: row.organization_id, action, targetType: 'invitation', targetId: row.id });
      return { invitation: toInvitation(await invitationQuery(trx).where('i.id', '=', row.id).executeTakeFirstOrThrow()), token };
    });
  }

  /** A fresh token and expiry, mailed again; the previous link stops working. */
  async function resend(caller: Caller, id: string, info: ClientInfo): Promise<Invitation> {
    const { invitation, token } = await reissue(caller, id, 'invitation.resend', info);
    await mail(invitation, linkFor(token), caller);
    return invitation;
  }

  /**
   * A link an admin can copy. Only the token's hash is stored, so a link cannot be read
   * back: this makes a fresh one, and the previously sent link stops working.
   */
  async function link(caller: Caller, id: string, info: ClientInfo): Promise<{ invitation: Invitation; link: string }> {
    const { invitation, token } = await reissue(caller, id, 'invitation.link', info);
    return { invitation, link: linkFor(token) };
  }

  async function revoke(caller: Caller, id: string, info: ClientInfo): Promise<Invitation> {
    return db.transaction().execute(async (trx) => {
      const row = await pending(caller, id, trx);
      await trx.updateTable('invitations').set({ status: 'revoked', revoked_at: sql`now()` }).where('id', '=', row.id).execute();
      await auditAction(trx, caller, info, {
        organizationId: row.organization_id,
        action: 'invitation.revoke',
        targetType: 'invitation',
        targetId: row.id,
        details: { email: row.email },
      });
      return toInvitation(await invitationQuery(trx).where('i.id', '=', row.id).executeTakeFirstOrThrow());
    });
  }

  return { resend, link, revoke };
}
