import { sql, type Kysely } from 'kysely';
import { IDENTITY, MESSAGES, type ScimToken } from '@console/domain';
import type { DB, Executor } from '../../db/schema.ts';
import { NotFoundError } from '../../lib/errors.ts';
import { identityOrganizationFor } from '../../lib/identity-organization.ts';
import { hashToken, randomToken } from '../../lib/secrets.ts';

export const m = MESSAGES.identity;

export interface ScimTokensDeps {
  db: Kysely<DB>;
  /** The console's own address: a token's SCIM base URL is `<appUrl>/scim/v2`. */
  appUrl: string;
}

/** The organization whose tokens the caller reads (or changes, `writing`), as for its identity provider. */
export const tokenOrganization = identityOrganizationFor;

/** A new secret: `scim_` and 256 random bits; only its SHA-256 is stored, and its first 13 characters name it. */
export function newSecret(): { secret: string; hash: string; prefix: string } {
  const secret = `${IDENTITY.scimTokenPrefix}${randomToken()}`;
  return { secret, hash: hashToken(secret), prefix: secret.slice(0, IDENTITY.scimTokenPrefix.length + 8) };
}

export function tokensQuery(executor: Executor, organizationId: string) {
  return executor
    .selectFrom('scim_tokens as t')
    .leftJoin('users as u', 'u.id', 't.created_by')
    .select([
      't.id',
      't.name',
      't.prefix',
      't.created_at',
      't.rotated_at',
      't.last_used_at',
      't.revoked_at',
      'u.id as creator_id',
      'u.email as creator_email',
      sql<string | null>`nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '')`.as('creator_name'),
    ])
    .where('t.organization_id', '=', organizationId);
}

type TokenRow = Awaited<ReturnType<ReturnType<typeof tokensQuery>['executeTakeFirstOrThrow']>>;

export function toScimToken(row: TokenRow): ScimToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    created_by: row.creator_id
      ? { id: row.creator_id, email: row.creator_email ?? '', name: row.creator_name ?? row.creator_email ?? '' }
      : null,
    created_at: row.created_at,
    rotated_at: row.rotated_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
  };
}

export const oneToken = async (executor: Executor, organizationId: string, tokenId: string): Promise<ScimToken> =>
  toScimToken(await tokensQuery(executor, organizationId).where('t.id', '=', tokenId).executeTakeFirstOrThrow());

/** The organization's token, locked for a change; 404 for a token of another organization. */
export async function lockedToken(trx: Executor, organizationId: string, tokenId: string) {
  const token = await trx
    .selectFrom('scim_tokens')
    .select(['id', 'name', 'prefix', 'revoked_at'])
    .where('id', '=', tokenId)
    .where('organization_id', '=', organizationId)
    .forUpdate()
    .executeTakeFirst();
  if (!token) throw new NotFoundError(m.scimTokenNotFound);
  return token;
}
