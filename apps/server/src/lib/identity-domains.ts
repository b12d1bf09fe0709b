import { sql } from 'kysely';
import { emailDomain } from '@console/domain';
import type { Executor } from '../db/schema.ts';

/** The organization whose claim of this e-mail's domain is in effect (verified or approved), with its provider's issuer when it has one. */
export async function organizationClaimingEmail(
  executor: Executor,
  email: string,
): Promise<{ organization_id: string; organization_name: string; has_provider: boolean } | null> {
  const domain = emailDomain(email);
  if (!domain) return null;
  const row = await executor
    .selectFrom('identity_domains as d')
    .innerJoin('organizations as o', 'o.id', 'd.organization_id')
    .leftJoin('identity_providers as p', 'p.organization_id', 'd.organization_id')
    .select(['d.organization_id', 'o.name as organization_name', sql<boolean>`p.organization_id is not null`.as('has_provider')])
    .where('d.domain', '=', domain)
    .where((eb) => eb.or([eb('d.verified_at', 'is not', null), eb('d.approved_at', 'is not', null)]))
    .where('o.deleted_at', 'is', null)
    .executeTakeFirst();
  return row ?? null;
}
