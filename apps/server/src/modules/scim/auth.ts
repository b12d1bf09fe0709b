import { sql, type Kysely } from 'kysely';
import type { FastifyRequest } from 'fastify';
import { IDENTITY, MESSAGES, type OrgStatus } from '@console/domain';
import type { DB } from '../../db/schema.ts';
import { bearerToken } from '../../lib/caller.ts';
import { hashToken } from '../../lib/secrets.ts';
import type { ScimActor, ScimCredential } from './context.ts';
import { ScimError } from './errors.ts';

/** Longer than any token this server makes: not looked up. */
const MAX_TOKEN_LENGTH = 200;

/**
 * The SCIM door's onRequest hook: `Authorization: Bearer scim_...`, looked up by its hash
 * before any body is read. Unknown, revoked or rotated-away secrets get 401; a token of a
 * deleted organization too. The token's last use is written at most once a minute.
 */
export function createScimAuthenticator(db: Kysely<DB>) {
  return async function authenticate(request: FastifyRequest): Promise<void> {
    const secret = bearerToken(request);
    if (!secret || !secret.startsWith(IDENTITY.scimTokenPrefix) || secret.length > MAX_TOKEN_LENGTH) {
      throw new ScimError(401, MESSAGES.identity.scimUnauthorized);
    }
    const row = await db
      .selectFrom('scim_tokens as t')
      .innerJoin('organizations as o', 'o.id', 't.organization_id')
      .select([
        't.id',
        't.name',
        't.prefix',
        'o.id as org_id',
        'o.name as org_name',
        'o.org_type',
        'o.status as org_status',
        sql<OrgStatus | null>`(select a.status from organizations a
          where a.id = any(organization_ancestors(o.path)) and a.status <> 'active'
          order by length(a.path) desc limit 1)`.as('ancestor_status'),
        sql<boolean>`coalesce(t.last_used_at < now() - interval '1 minute', true)`.as('stale_use'),
      ])
      .where('t.token_hash', '=', hashToken(secret))
      .where('t.revoked_at', 'is', null)
      .where('o.deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw new ScimError(401, MESSAGES.identity.scimUnauthorized);
    if (row.stale_use) {
      await db
        .updateTable('scim_tokens')
        .set({ last_used_at: sql`now()` })
        .where('id', '=', row.id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', sql<string>`now() - interval '1 minute'`)]))
        .execute();
    }
    const frozen: ScimCredential['organization']['frozen'] =
      row.org_status !== 'active'
        ? { status: row.org_status, where: 'own' }
        : row.ancestor_status && row.ancestor_status !== 'active'
          ? { status: row.ancestor_status, where: 'ancestor' }
          : null;
    request.scimToken = {
      id: row.id,
      name: row.name,
      prefix: row.prefix,
      organization: { id: row.org_id, name: row.org_name, org_type: row.org_type, frozen },
    };
  };
}

/** The authenticated token of a request, with the address and request id its audit rows carry. */
export function scimActorOf(request: FastifyRequest): ScimActor {
  if (!request.scimToken) throw new ScimError(401, MESSAGES.identity.scimUnauthorized);
  return { token: request.scimToken, ip: request.ip, requestId: request.id };
}

/** A provider of a suspended or inactive organization (or one below such) reads but changes nothing. */
export function requireScimWritable(actor: ScimActor): void {
  const frozen = actor.token.organization.frozen;
  if (frozen) throw new ScimError(403, MESSAGES.organizations.frozen(frozen.status, frozen.where));
}
