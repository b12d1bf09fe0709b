import { sql } from 'kysely';
import { compareGrants, type BalanceParts, type GrantList } from '@console/domain';
import type { Caller } from '../../lib/caller.ts';
import { grantColumns, grantJoins, toGrant, type GrantSqlRow, type GrantsDeps } from './queries.ts';

/**
 * An organization's balance in its parts and its grants, for anyone who may see the
 * organization: the grants it holds (with `all`, also those used up or expired), newest
 * first among equals in draw order. `spendable` lists each agent type live there, or named by
 * one of its grants, with credit_spendable's figure: the same bound the usage engine draws in.
 */
export function createGrantList({ db, organizations }: GrantsDeps) {
  async function list(caller: Caller, organizationId: string, all: boolean): Promise<GrantList> {
    await organizations.visible(caller, organizationId);
    const [grants, parts] = await Promise.all([
      sql<GrantSqlRow>`
        select ${grantColumns} from credit_grants g ${grantJoins}
        where g.organization_id = ${organizationId} and (${all} or g.remaining > 0)
        order by g.created_at desc
        limit 500`.execute(db),
      sql<{ total: string; open: string; spendable: BalanceParts['spendable']; soonest_at: string | null; soonest_amount: string | null }>`
        with held as (
          select g.* from credit_grants g where g.organization_id = ${organizationId} and g.remaining > 0
        ),
        soonest as (
          select min(h.expires_at) as at from held h where h.expires_at > now()
        )
        select b.credit_balance::numeric(16, 2)::text as total,
               greatest(b.credit_balance - coalesce((select sum(h.remaining) from held h), 0), 0)::numeric(16, 2)::text as open,
               coalesce((
                 select jsonb_agg(jsonb_build_object('code', t.code, 'name', t.name,
                          'amount', credit_spendable(b.organization_id, t.id, now())::numeric(16, 2)::text) order by t.name)
                 from agent_types t
                 where exists (select 1 from agent_activations v where v.organization_id = b.organization_id and v.agent_type_id = t.id
                                 and v.deactivated_at is null)
                    or exists (select 1 from held h where t.id = any(h.agent_type_ids))
               ), '[]'::jsonb) as spendable,
               to_char(s.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as soonest_at,
               (select sum(h.remaining)::numeric(16, 2)::text from held h where h.expires_at = s.at) as soonest_amount
        from organization_billing_settings b cross join soonest s
        where b.organization_id = ${organizationId}`.execute(db),
    ]);
    const p = parts.rows[0]!;
    return {
      parts: {
        total: p.total,
        open: p.open,
        spendable: p.spendable,
        soonest_expiry: p.soonest_at && p.soonest_amount ? { at: p.soonest_at, amount: p.soonest_amount } : null,
      },
      grants: grants.rows
        .map(toGrant)
        .sort((a, b) => Number(a.remaining === '0.00') - Number(b.remaining === '0.00') || compareGrants(a, b)),
    };
  }
  return { list };
}
