import { sql } from 'kysely';
import {
  MESSAGES,
  isRoleValidForOrgType,
  mayGrantRole,
  mayInviteTo,
  mayManagePeopleOf,
  type CreateInvitationInput,
  type Invitation,
} from '@console/domain';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { ConflictError, ForbiddenError, NotFoundError, RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { hashToken, randomToken } from '../../lib/secrets.ts';
import { createInvitationMail, expiry, invitationQuery, m, toInvitation, type InvitationsDeps } from './queries.ts';

export function createInvitationCreate({ db, organizations, users, mailer, appUrl, limits }: InvitationsDeps) {
  const { linkFor, mail } = createInvitationMail({ mailer, appUrl });

  async function create(caller: Caller, input: CreateInvitationInput, info: ClientInfo): Promise<Invitation> {
    const org = await organizations.visible(caller, input.organization_id ?? caller.organization.id);
    if (!mayManagePeopleOf(caller, org)) throw new ForbiddenError(MESSAGES.users.onlyOwnOrDirectChild);
    if (!mayInviteTo(caller, org)) throw new ForbiddenError(m.parentInvitesDisabled);
    if (!isRoleValidForOrgType(input.role, org.org_type)) throw new RuleError(MESSAGES.users.roleNotForOrgType(input.role, org.org_type));
    if (!mayGrantRole(caller, input.role)) throw new ForbiddenError(MESSAGES.users.roleAboveOwn);

    const token = randomToken();
    const invitation = await db.transaction().execute(async (trx) => {
      // Locked shared: a deletion under way finishes first and is seen, or waits for this.
      const live = await trx
        .selectFrom('organizations')
        .select('id')
        .where('id', '=', org.id)
        .where('deleted_at', 'is', null)
        .forShare()
        .executeTakeFirst();
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
      if (pending)
        await trx.updateTable('invitations').set({ status: 'revoked', revoked_at: sql`now()` }).where('id', '=', pending.id).execute();
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
      const row = await invitationQuery(trx).where('i.id', '=', created.id).executeTakeFirstOrThrow();
      // Past a limit, the invitation goes with the rolled-back transaction and no mail is sent.
      await limits.count(trx, { invitationId: row.id, inviterId: caller.userId, organizationPath: row.path, email: row.email }, true);
      await auditAction(trx, caller, info, {
        organizationId: org.id,
        action: 'invitation.create',
        targetType: 'invitation',
        targetId: created.id,
        details: { email: input.email, role: input.role },
      });
      return toInvitation(row);
    });
    await mail(invitation, linkFor(token), caller);
    return invitation;
  }

  return { create };
}
