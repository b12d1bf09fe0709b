import { sql, type Kysely } from 'kysely';
import type { GrantRow } from '@console/domain';
import type { DB } from '../../db/schema.ts';
import type { OrganizationsService } from '../organizations/organizations.service.ts';

export interface GrantsDeps {
  db: Kysely<DB>;
  organizations: OrganizationsService;
}

/** A grant as the API answers it, from `grantRows`. */
export interface GrantSqlRow {
  id: string;
  organization_id: string;
  granted_by_id: string;
  granted_by_name: string;
  amount: string;
  remaining: string;
  priority: number;
  expires_at: string | null;
  agent_types: { code: string; name: string }[] | null;
  created_at: string;
  expired_at: string | null;
  transaction_id: string | null;
}

const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** The columns of a grant with its grantor's name, its agent types and its entry's transaction. */
export const grantColumns = sql`
  g.id, g.organization_id, g.granted_by as granted_by_id, gb.name as granted_by_name,
  g.amount::numeric(16, 2)::text as amount, g.remaining::numeric(16, 2)::text as remaining, g.priority::int as priority,
  ${iso('g.expires_at')} as expires_at,
  case when g.agent_type_ids is null then null else (
    select coalesce(jsonb_agg(jsonb_build_object('code', t.code, 'name', t.name) order by t.name), '[]'::jsonb)
    from agent_types t where t.id = any(g.agent_type_ids)) end as agent_types,
  ${iso('g.created_at')} as created_at, ${iso('g.expired_at')} as expired_at,
  (select e.transaction_group from credit_ledger_entries e where e.id = g.entry_id) as transaction_id`;

export const grantJoins = sql`join organizations gb on gb.id = g.granted_by`;

export function toGrant(row: GrantSqlRow): GrantRow {
  return {
    id: row.id,
    organization_id: row.organization_id,
    granted_by: { id: row.granted_by_id, name: row.granted_by_name },
    amount: row.amount,
    remaining: row.remaining,
    priority: row.priority,
    expires_at: row.expires_at,
    agent_types: row.agent_types,
    created_at: row.created_at,
    expired_at: row.expired_at,
    transaction_id: row.transaction_id,
  };
}
