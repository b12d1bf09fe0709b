import { sql, type Kysely } from 'kysely';
import { mayViewPricePaidBy, type ActivationStatus, type Entitlement, type UsageRejection } from '@console/domain';
import { compileOnce } from '../../db/compile-once.ts';
import type { DB } from '../../db/schema.ts';
import type { VerifiedKey } from '../../lib/api-key.ts';

interface EntitlementRow {
  reachable: boolean;
  parent_org_id: string | null;
  active: boolean;
  balance: string;
  agent_id: string | null;
  activation_status: ActivationStatus | null;
  price: string | null;
  cap_reason: 'key_cap_reached' | 'activation_cap_reached' | 'spend_cap_reached' | null;
}

export function createEntitlement({ db }: { db: Kysely<DB> }) {
  // Every check runs this one statement: compiled once, a prepared statement on PostgreSQL.
  const check = compileOnce((v: { reach: string; agent: string; organizationId: string; keyId: string }) => {
    const query = sql<EntitlementRow>`
      select starts_with(o.path, ${v.reach}) and o.deleted_at is null as reachable, o.parent_org_id,
             o.status = 'active' and not exists (
               select 1 from organizations a where a.id = any(organization_ancestors(o.path)) and a.status <> 'active'
             ) as active,
             b.credit_balance as balance, t.id as agent_id, v.status as activation_status,
             case when t.id is null then null else organization_price(o.id, t.id, now())::numeric(14, 4)::text end as price,
             -- A cap this month's usage has reached (the key's, the activation's, or one on the
             -- organization or above it), told in the order usage_record refuses by.
             case
               when k.monthly_cap is not null and spend_cap_charged('key', k.id, m.month) >= k.monthly_cap then 'key_cap_reached'
               when v.monthly_cap is not null and spend_cap_charged('activation', v.id, m.month) >= v.monthly_cap then 'activation_cap_reached'
               when exists (
                 select 1 from unnest(organization_ancestors(o.path) || o.id) as c(id)
                 join organization_billing_settings cb on cb.organization_id = c.id
                 where cb.spend_cap is not null and spend_cap_charged('subtree', c.id, m.month) >= cb.spend_cap
               ) then 'spend_cap_reached'
             end as cap_reason
      from organizations o
      cross join (select date_trunc('month', now() at time zone 'UTC')::date as month) m
      left join api_keys k on k.id = ${v.keyId}
      join organization_billing_settings b on b.organization_id = o.id
      left join agent_types t on t.code = ${v.agent}
      left join agent_activations v on v.organization_id = o.id and v.agent_type_id = t.id and v.deactivated_at is null
      where o.id = ${v.organizationId}`;
    return { compile: () => query.compile(db) };
  });

  /**
   * May this organization use this agent now: it is within the key's reach and live,
   * it and every organization above it are active, it has a live activation of the
   * agent, no monthly cap it charges against is reached, and its balance is above zero. Otherwise the first reason that fails, in that
   * order. Nothing is told of an organization out of reach: its balance reads 0.00. The
   * price is the organization's own, so a key never learns a seller's price above it, and is
   * told only for its own organization and its children (the margins rule: below them, the
   * price holds the margin of the seller in between).
   */
  async function entitlement(key: VerifiedKey, query: { organization_id: string; agent: string }): Promise<Entitlement> {
    const { rows } = await db.executeQuery(
      check({ reach: key.organization.path, agent: query.agent, organizationId: query.organization_id, keyId: key.id }),
    );
    const row = rows[0];
    if (!row?.reachable) return { allowed: false, reason: 'out_of_reach', balance: '0.00', activation_status: null, price: null };
    const reason: UsageRejection | null = !row.agent_id
      ? 'unknown_agent'
      : !row.active
        ? 'organization_not_active'
        : !row.activation_status
          ? 'agent_not_active'
          : row.cap_reason
            ? row.cap_reason
            : !/[1-9]/.test(row.balance)
              ? 'insufficient_credits'
              : null;
    const price = mayViewPricePaidBy(key, { id: query.organization_id, parent_org_id: row.parent_org_id }) ? row.price : null;
    return { allowed: reason === null, reason, balance: row.balance, activation_status: row.activation_status, price };
  }

  return { entitlement };
}
