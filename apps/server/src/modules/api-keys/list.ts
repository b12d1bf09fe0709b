import type { ApiKeyFilter, ApiKeyPage } from '@console/domain';
import type { Caller } from '../../lib/caller.ts';
import { BadRequestError } from '../../lib/errors.ts';
import {
  CURSOR,
  PART_CODES,
  k,
  keyListQuery,
  ownOrganization,
  partsOf,
  toApiKey,
  type ApiKeysDeps,
  type KeyRow,
  type Part,
} from './queries.ts';

export function createList({ db, organizations }: Pick<ApiKeysDeps, 'db' | 'organizations'>) {
  /**
   * A page of keys: live ones first, then revoked and expired ones, each part newest first.
   * `state` keeps one part (`expiring`: the live keys ending within the week or with an old
   * secret in its grace period). The cursor names the part and key the last page ended on.
   */
  async function list(
    caller: Caller,
    organizationId: string,
    query: { state?: ApiKeyFilter; cursor?: string; limit: number },
  ): Promise<ApiKeyPage> {
    const org = await ownOrganization(organizations, caller, organizationId, db, false);
    let parts = partsOf(query.state);
    let after: string | undefined;
    if (query.cursor !== undefined) {
      const match = CURSOR.exec(query.cursor);
      const part = match && (Object.keys(PART_CODES) as Part[]).find((p) => PART_CODES[p] === match[1]);
      if (!match || !part || !parts.includes(part)) throw new BadRequestError(k.invalidCursor);
      parts = parts.slice(parts.indexOf(part));
      after = match[2];
    }
    const rows: { part: Part; row: KeyRow }[] = [];
    for (const [index, part] of parts.entries()) {
      if (rows.length > query.limit) break;
      const found = await keyListQuery(db, org.id, part, {
        filter: query.state,
        after: index === 0 ? after : undefined,
        limit: query.limit + 1 - rows.length,
      }).execute();
      rows.push(...found.map((row) => ({ part, row })));
    }
    const more = rows.length > query.limit;
    const shown = rows.slice(0, query.limit);
    const last = shown.at(-1);
    return {
      api_keys: shown.map(({ row }) => toApiKey(row)),
      next_cursor: more && last ? `${PART_CODES[last.part]}:${last.row.id}` : null,
    };
  }

  return { list };
}
