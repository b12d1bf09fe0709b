import { sql } from 'kysely';
import type { ScimToken } from '@console/domain';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { lockedToken, oneToken, tokenOrganization, type ScimTokensDeps } from './queries.ts';

/** A revoked token stops at once (the SCIM door looks tokens up on every request); revoking it again changes nothing. */
export function createScimTokenRevoke({ db }: Pick<ScimTokensDeps, 'db'>) {
  async function revoke(caller: Caller, organizationId: string, tokenId: string, info: ClientInfo): Promise<ScimToken> {
    return db.transaction().execute(async (trx) => {
      const org = await tokenOrganization(caller, organizationId, trx, true);
      const token = await lockedToken(trx, org.id, tokenId);
      if (!token.revoked_at) {
        await trx.updateTable('scim_tokens').set({ revoked_at: sql`now()` }).where('id', '=', token.id).execute();
        await auditAction(trx, caller, info, {
          organizationId: org.id,
          action: 'scim.token_revoked',
          targetType: 'scim_token',
          targetId: token.id,
          details: { name: token.name, prefix: token.prefix },
        });
      }
      return oneToken(trx, org.id, token.id);
    });
  }
  return { revoke };
}
