import { sql, type Kysely } from 'kysely';
import {
  MESSAGES,
  activityDetailsAsSeen,
  activitySentence,
  personName,
  type ActivityEvent,
  type ActivityPage,
  type ActivityParams,
} from '@console/domain';
import type { DB } from '../../db/schema.ts';
import type { Caller } from '../../lib/caller.ts';
import { BadRequestError } from '../../lib/errors.ts';
import { organizationInSubtree, upperBound } from '../../lib/sql.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';

interface AuditRow {
  id: string;
  created_at: string;
  action: string;
  actor_user_id: string | null;
  organization_id: string | null;
  target_type: string;
  target_id: string | null;
  details: Record<string, unknown> | null;
  ip: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  organization_name: string | null;
  target_name: string | null;
}

/** A row as the caller may read it: a seller's price change names no prices above the seller (the margins rule). */
function toEvent(caller: Caller, row: AuditRow): ActivityEvent {
  const details = activityDetailsAsSeen(caller, { action: row.action, organization_id: row.organization_id, details: row.details ?? {} });
  const keyName = typeof details.key_name === 'string' ? details.key_name : null;
  // Provisioning rows name the SCIM token that made the change.
  const scim = details.scim_token as { id?: unknown; name?: unknown } | undefined;
  const scimName = scim && typeof scim.name === 'string' ? scim.name : null;
  const actor: ActivityEvent['actor'] = row.actor_user_id
    ? {
        kind: 'user',
        id: row.actor_user_id,
        name: row.email ? personName({ first_name: row.first_name, last_name: row.last_name, email: row.email }) : null,
        email: row.email,
      }
    : keyName
      ? { kind: 'api_key', id: row.target_type === 'api_key' ? row.target_id : null, name: keyName, email: null }
      : scimName
        ? { kind: 'scim_token', id: typeof scim?.id === 'string' ? scim.id : null, name: scimName, email: null }
        : { kind: 'system', id: null, name: null, email: null };
  const who = actor.kind === 'api_key' ? `Key ${actor.name}` : actor.kind === 'scim_token' ? `SCIM token ${actor.name}` : actor.name;
  return {
    id: row.id,
    created_at: row.created_at,
    action: row.action,
    actor,
    sentence: activitySentence({ action: row.action, actor: who, organization: row.organization_name, target: row.target_name, details }),
    organization: row.organization_id && row.organization_name !== null ? { id: row.organization_id, name: row.organization_name } : null,
    target_type: row.target_type,
    target_id: row.target_id,
    ip: row.ip,
    details,
  };
}

/** The organization a page is read for: where it sits, and whether it can have anything below it. */
export interface ActivityAnchor {
  id: string;
  path: string;
  org_type: string;
}

/**
 * The page query the server runs: the audit rows of `anchor` (with its subtree, or alone),
 * filtered, newest first by (created_at, id), `limit + 1` rows. The organization alone is
 * served by audit_log (organization_id, created_at desc, id desc); so is a tenant's subtree,
 * since a tenant has nothing below it. Any other subtree goes by the organizations' paths,
 * walking audit_log (created_at desc, id desc) newest first. The cursor must already be checked.
 */
export function activityPageQuery(
  anchor: ActivityAnchor,
  params: Omit<ActivityParams, 'cursor' | 'limit'>,
  cursor: string | undefined,
  limit: number,
) {
  const where = [
    params.include_subtree && anchor.org_type !== 'tenant'
      ? organizationInSubtree('a.organization_id', anchor.path)
      : sql`a.organization_id = ${anchor.id}::uuid`,
  ];
  if (params.actor_user_id) where.push(sql`a.actor_user_id = ${params.actor_user_id}::uuid`);
  if (params.action) where.push(sql`a.action = ${params.action}`);
  if (params.from) where.push(sql`a.created_at >= ${new Date(params.from)}`);
  if (params.to) where.push(sql`a.created_at < ${new Date(upperBound(params.to))}`);
  if (cursor !== undefined)
    where.push(sql`(a.created_at, a.id) < (select c.created_at, c.id from audit_log c where c.id = ${cursor}::bigint)`);
  return sql<AuditRow>`
    select a.id::text as id, a.created_at, a.action, a.actor_user_id, a.organization_id, a.target_type, a.target_id, a.details, a.ip,
           u.first_name, u.last_name, u.email, o.name as organization_name,
           case a.target_type
             when 'organization' then (select t.name from organizations t where t.id = a.target_id::uuid)
             when 'user' then (select coalesce(nullif(trim(coalesce(t.first_name, '') || ' ' || coalesce(t.last_name, '')), ''), t.email) from users t where t.id = a.target_id::uuid)
             when 'invitation' then (select t.email from invitations t where t.id = a.target_id::uuid)
             when 'api_key' then (select t.name from api_keys t where t.id = a.target_id::uuid)
             when 'agent_type' then (select t.name from agent_types t where t.id = a.target_id::uuid)
             when 'agent_activation' then (select t.name from agent_activations x join agent_types t on t.id = x.agent_type_id where x.id = a.target_id::uuid)
           end as target_name
    from audit_log a
    left join users u on u.id = a.actor_user_id
    left join organizations o on o.id = a.organization_id
    where ${sql.join(where, sql` and `)}
    order by a.created_at desc, a.id desc
    limit ${limit + 1}`;
}

/** The activity log: the audit rows of an organization in the caller's subtree, a page at a time. */
export function createActivityService({ db, organizations }: { db: Kysely<DB>; organizations: OrganizationsService }) {
  async function page(caller: Caller, params: ActivityParams, cursor: string | undefined, limit: number): Promise<ActivityPage> {
    const anchor = await organizations.visible(caller, params.organization_id ?? caller.organization.id);
    // A cursor is an audit row's id: a bigint.
    if (cursor !== undefined && (!/^\d{1,19}$/.test(cursor) || BigInt(cursor) > 2n ** 63n - 1n))
      throw new BadRequestError(MESSAGES.credits.invalidCursor);
    const { rows } = await activityPageQuery(anchor, params, cursor, limit).execute(db);
    const more = rows.length > limit;
    const shown = more ? rows.slice(0, limit) : rows;
    return { events: shown.map((row) => toEvent(caller, row)), next_cursor: more ? shown[shown.length - 1]!.id : null };
  }

  return {
    list: (caller: Caller, params: ActivityParams) => page(caller, params, params.cursor, params.limit),

    /** Every filtered event, newest first, fetched a page at a time so memory stays flat. */
    async *exportRows(caller: Caller, params: Omit<ActivityParams, 'cursor' | 'limit'>): AsyncGenerator<ActivityEvent> {
      let cursor: string | undefined;
      do {
        const batch = await page(caller, { ...params, limit: 1000 }, cursor, 1000);
        yield* batch.events;
        cursor = batch.next_cursor ?? undefined;
      } while (cursor);
    },
  };
}

export type ActivityService = ReturnType<typeof createActivityService>;
