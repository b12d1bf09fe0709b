import { MESSAGES, type FactorsReset } from '@console/domain';
import { revokeSessions } from '../../lib/access.ts';
import { activeAdmins } from '../../lib/admins.ts';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import type { Mailer } from '../../lib/mail.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { removeAllFactors } from '../../lib/second-factor.ts';
import { requireEndAccess, type UserReads, type UsersDeps } from './queries.ts';

const r = MESSAGES.factorsReset;

/**
 * A person who lost every second factor asks an admin of their organization or of any
 * organization above it. The admin, under the rule of ending the person's sessions, removes every factor,
 * ends every session (the person signs in with the password alone and sets up a factor
 * again), and the change is audited. The person and their organization's active admins are
 * mailed in the same transaction, so the mail goes only if the reset commits.
 */
export function createResetFactors({ db, mailer, reads: { visibleUser } }: Pick<UsersDeps, 'db'> & { mailer: Mailer; reads: UserReads }) {
  async function resetFactors(caller: Caller, id: string, info: ClientInfo): Promise<FactorsReset> {
    return db.transaction().execute(async (trx) => {
      const target = await visibleUser(caller, id, trx);
      requireEndAccess(caller, target);
      // Taking the person's row lock serializes resets with their own factor changes.
      await trx.selectFrom('users').select('id').where('id', '=', target.id).forUpdate().execute();
      const removed = await removeAllFactors(trx, target.id);
      const ended = await revokeSessions(trx, target.id, 'second factors reset by an admin');
      await auditAction(trx, caller, info, {
        organizationId: target.organization_id,
        action: 'auth.mfa_reset',
        targetType: 'user',
        targetId: target.id,
        details: { by: 'admin', totp: removed.totp, passkeys: removed.passkeys, recovery_codes: removed.recovery_codes, ended },
      });
      const person = [target.first_name, target.last_name].filter(Boolean).join(' ') || target.email;
      await mailer.send({ to: target.email, subject: r.personSubject, text: r.person(caller.email) }, trx);
      // The person's organization's admins (bounded by the people of one organization), the person excepted.
      for (const admin of await activeAdmins(trx, [target.organization_id]))
        if (admin.email !== target.email)
          await mailer.send(
            { to: admin.email, subject: r.adminsSubject(person), text: r.admins(person, caller.email, target.org_name) },
            trx,
          );
      return { ...removed, ended };
    });
  }

  return { resetFactors };
}
