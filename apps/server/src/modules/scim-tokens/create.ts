import { sql } from 'kysely';
import { IDENTITY, type ScimToken } from '@console/domain';
import { auditAction } from '../../lib/audit.ts';
import type { Caller } from '../../lib/caller.ts';
import { RuleError } from '../../lib/errors.ts';
import type { ClientInfo } from '../../lib/request-info.ts';
import { lockOrganizationScim } from '../../lib/scim-lock.ts';
import { lockedToken, m, newSecret, oneToken, tokenOrganization, type ScimTokensDeps } from './queries.ts';

export interface IssuedScimToken {
  token: ScimToken;
  secret: string;
  base_url: string;
}

/**
 * Making and rotating a token: the secret is in the answer only. An organization has at most
 * IDENTITY.maxScimTokens live tokens, counted under the organization's lock so two admins
 * making one each at once cannot pass it. A rotated token's old secret stops at once.
 */
export function createScimTokenIssue({ db, appUrl }: ScimTokensDeps) {
  const baseUrl = `${appUrl}/scim/v2`;

  async function create(caller: Caller, organizationId: string, input: { name: string }, info: ClientInfo): Promise<IssuedScimToken> {
    return db.transaction().execute(async (trx) => {
      const org = await tokenOrganization(caller, organizationId, trx, true);
      await lockOrganizationScim(trx, org.id);
      const live = await trx
        .selectFrom('scim_tokens')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('organization_id', '=', org.id)
        .where('revoked_at', 'is', null)
        .executeTakeFirstOrThrow();
      if (live.n >= IDENTITY.maxScimTokens) throw new RuleError(m.tooManyScimTokens(IDENTITY.maxScimTokens));
      const made = newSecret();
      const row = await trx
        .insertInto('scim_tokens')
        .values({ organization_id: org.id, name: input.name, prefix: made.prefix, token_hash: made.hash, created_by: caller.userId })
        .returning('id')
        .executeTakeFirstOrThrow();
      await auditAction(trx, caller, info, {
        organizationId: org.id,
        action: 'scim.token_created',
        targetType: 'scim_token',
        targetId: row.id,
        details: { name: input.name, prefix: made.prefix },
      });
      return { token: await oneToken(trx, org.id, row.id), secret: made.secret, base_url: baseUrl };
    });
  }

  async function rotate(caller: Caller, organizationId: string, tokenId: string, info: ClientInfo): Promise<IssuedScimToken> {
    return db.transaction().execute(async (trx) => {
      const org = await tokenOrganization(caller, organizationId, trx, true);
      const token = await lockedToken(trx, org.id, tokenId);
      if (token.revoked_at) throw new RuleError(m.scimTokenRevoked);
      const made = newSecret();
      await trx
        .updateTable('scim_tokens')
        .set({ token_hash: made.hash, prefix: made.prefix, rotated_at: sql`now()` })
        .where('id', '=', token.id)
        .execute();
      await auditAction(trx, caller, info, {
        organizationId: org.id,
        action: 'scim.token_rotated',
        targetType: 'scim_token',
        targetId: token.id,
        details: { name: token.name, prefix: made.prefix, previous_prefix: token.prefix },
      });
      return { token: await oneToken(trx, org.id, token.id), secret: made.secret, base_url: baseUrl };
    });
  }

  return { create, rotate };
}
