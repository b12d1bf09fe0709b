import { sql } from 'kysely';

/** `like` treats % and _ as wildcards: a search for "50%" must match the text "50%". */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * `column` names an organization of the subtree at `path`: one whose materialized path starts
 * with it (the path index serves it); with `live`, deleted organizations are left out.
 */
export function organizationInSubtree(column: string, path: string, options: { live?: boolean } = {}) {
  return sql<boolean>`${sql.ref(column)} in (select o.id from organizations o where o.path like ${`${likeEscape(path)}%`}${
    options.live ? sql` and o.deleted_at is null` : sql``
  })`;
}

/** The day after a YYYY-MM-DD date: an inclusive end date runs to the start of the next day. */
export function upperBound(to: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(to)) return to;
  const next = new Date(`${to}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}

const ISO_WITH_OFFSET = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * An ISO date-time as UTC, its fraction of a second kept as written. ISO 8601 allows offsets
 * up to ±23:59 and PostgreSQL reads them only up to ±15:59, so a time is sent to the
 * database in UTC. Text of another form is returned as it is.
 */
export function utcText(iso: string): string {
  const match = ISO_WITH_OFFSET.exec(iso);
  if (!match) return iso;
  const [, seconds, fraction = '', offset] = match;
  const utc = new Date(`${seconds}${offset}`);
  return Number.isNaN(utc.getTime()) ? iso : `${utc.toISOString().slice(0, 19)}${fraction}Z`;
}
