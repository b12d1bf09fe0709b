import { sql, type SelectQueryBuilder } from 'kysely';
import { IDENTITY, SCIM_SCHEMA } from '@console/domain';
import { ScimError } from './errors.ts';

/** A list request's query: the filter and the page (SCIM names, in any case). */
export type ListQuery = Record<string, string | string[] | undefined>;

const param = (query: ListQuery, name: string): string | undefined => {
  const key = Object.keys(query).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : query[key];
  return Array.isArray(value) ? value[0] : value;
};

export const filterOf = (query: ListQuery): string | undefined => param(query, 'filter')?.trim() || undefined;

/**
 * The page asked for: `startIndex` is 1-based (below 1 reads as 1), `count` at most
 * IDENTITY.scimMaxPage (a negative count as 0, none as the maximum).
 */
export function pageOf(query: ListQuery): { startIndex: number; count: number } {
  const number = (name: string, fallback: number) => {
    const text = param(query, name);
    if (text === undefined || text.trim() === '') return fallback;
    if (!/^-?\d{1,9}$/.test(text.trim())) throw new ScimError(400, `${name} must be an integer.`, 'invalidValue');
    return Number(text);
  };
  return {
    startIndex: Math.max(1, number('startIndex', 1)),
    count: Math.min(IDENTITY.scimMaxPage, Math.max(0, number('count', IDENTITY.scimMaxPage))),
  };
}

/** Whether the answer leaves out members: `excludedAttributes=members`, or `attributes` without it. */
export function withoutMembers(query: ListQuery): boolean {
  const list = (name: string) =>
    param(query, name)
      ?.split(',')
      .map((a) => a.trim().toLowerCase()) ?? null;
  const excluded = list('excludedAttributes');
  const only = list('attributes');
  return (excluded?.includes('members') ?? false) || (only !== null && !only.some((a) => a === 'members' || a.startsWith('members.')));
}

export function listResponse<T>(resources: T[], totalResults: number, startIndex: number) {
  return { schemas: [SCIM_SCHEMA.listResponse], totalResults, startIndex, itemsPerPage: resources.length, Resources: resources };
}

/**
 * The total a filtered list matches and the page asked for, oldest first (`created_at`, then
 * `id`, of the resource's table `alias`): what every SCIM list answers.
 */
export async function pageRows<DB, TB extends keyof DB, O>(
  found: SelectQueryBuilder<DB, TB, O>,
  alias: string,
  { startIndex, count }: { startIndex: number; count: number },
): Promise<{ total: number; rows: O[] }> {
  const total = await found.clearSelect().select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
  const rows =
    count === 0
      ? []
      : await found
          .orderBy(sql.ref(`${alias}.created_at`))
          .orderBy(sql.ref(`${alias}.id`))
          .offset(startIndex - 1)
          .limit(count)
          .execute();
  return { total: (total as { n: number }).n, rows };
}
