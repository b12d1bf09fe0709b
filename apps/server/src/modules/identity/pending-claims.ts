import { sql } from 'kysely';
import { MESSAGES, mayReviewDomainClaims, type PendingDomainClaim } from '@console/domain';
import type { Executor } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { ForbiddenError } from '../../lib/errors.ts';
import { likeEscape } from '../../lib/sql.ts';

/** At most this many pending claims are listed at once; the oldest come first, so none is starved. */
const SHOWN = 200;

/**
 * The pending claims in the house admin's tree, for approval by hand: each with its claimant
 * and whether another organization's claim of the domain is already in effect.
 */
export async function pendingDomainClaims(caller: Caller, executor: Executor): Promise<{ items: PendingDomainClaim[] }> {
  if (!mayReviewDomainClaims(caller)) throw new ForbiddenError(MESSAGES.identity.onlyHouseApproves);
  const rows = await executor
    .selectFrom('identity_domains as d')
    .innerJoin('organizations as o', 'o.id', 'd.organization_id')
    .leftJoin('users as u', 'u.id', 'd.created_by')
    .select([
      'd.id',
      'd.domain',
      'd.organization_id',
      'o.name as organization_name',
      'u.email as claimed_by',
      'd.created_at',
      sql<boolean>`exists (
        select 1 from identity_domains e
        where e.domain = d.domain and e.id <> d.id and (e.verified_at is not null or e.approved_at is not null)
      )`.as('taken'),
    ])
    .where('d.verified_at', 'is', null)
    .where('d.approved_at', 'is', null)
    .where('o.deleted_at', 'is', null)
    .where('o.path', 'like', `${likeEscape(caller.organization.path)}%`)
    .orderBy('d.created_at')
    .orderBy('d.id')
    .limit(SHOWN)
    .execute();
  return { items: rows };
}
