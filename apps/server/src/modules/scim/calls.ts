import { sql, type Kysely } from 'kysely';
import type { FastifyRequest } from 'fastify';
import type { DB, Executor } from '../../db/schema.ts';

/** Each organization keeps its newest this many calls; older ones are deleted now and then. */
export const CALLS_KEPT = 1000;
/** One insert in this many also trims its organization's calls. */
const TRIM_EVERY = 25;
const PATH_MAX = 300;
const OUTCOME_MAX = 300;

/** The query parameters a call's path keeps: the ones SCIM defines. Anything else (a token a client put there) is left out. */
const KEPT_PARAMETERS = new Set(['filter', 'startindex', 'count', 'attributes', 'excludedattributes']);

/** The request's path without the /scim/v2 prefix, with only SCIM's own query parameters, at most PATH_MAX characters. */
export function callPath(url: string): string {
  const [path = '', query = ''] = url.split(/\?(.*)/s, 2);
  const kept = new URLSearchParams();
  for (const [name, value] of new URLSearchParams(query)) if (KEPT_PARAMETERS.has(name.toLowerCase())) kept.append(name, value);
  const text = kept.size > 0 ? `${path}?${decodeURIComponent(kept.toString().replace(/\+/g, '%20'))}` : path;
  const shown = text.replace(/^\/scim\/v2/, '') || '/';
  return shown.length > PATH_MAX ? `${shown.slice(0, PATH_MAX - 1)}…` : shown;
}

/** Keeps an organization's newest CALLS_KEPT calls. */
export async function trimCalls(executor: Executor, organizationId: string): Promise<void> {
  await sql`
    delete from scim_calls
    where organization_id = ${organizationId}::uuid
      and id < (select id from scim_calls where organization_id = ${organizationId}::uuid order by id desc offset ${CALLS_KEPT - 1} limit 1)`.execute(
    executor,
  );
}

/**
 * Writes one call of an authenticated token (refused ones too) before its answer leaves, so
 * the Identity page shows it as soon as the provider has its answer. A failure to write is
 * logged, never turned into the call's answer.
 */
export async function recordCall(db: Kysely<DB>, request: FastifyRequest, status: number): Promise<void> {
  const token = request.scimToken;
  if (!token) return;
  try {
    const outcome = (request.scimOutcome ?? (status < 400 ? 'ok' : String(status))).replace(/\s+/g, ' ');
    const row = await db
      .insertInto('scim_calls')
      .values({
        organization_id: token.organization.id,
        token_id: token.id,
        method: request.method,
        path: callPath(request.url),
        status,
        outcome: outcome.length > OUTCOME_MAX ? `${outcome.slice(0, OUTCOME_MAX - 1)}…` : outcome,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (Number(row.id) % TRIM_EVERY === 0) await trimCalls(db, token.organization.id);
  } catch (error) {
    request.log.error({ err: error, requestId: request.id }, 'SCIM call not recorded');
  }
}
