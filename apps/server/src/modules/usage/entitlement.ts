import { sql, type Kysely } from 'kysely';
import { mayViewPricePaidBy, parseUsageRefusal, type ActivationStatus, type Entitlement } from '@console/domain';
import { compileOnce } from '../../db/compile-once.ts';
import type { DB } from '../../db/schema.ts';
import type { VerifiedKey } from '../../lib/api-key.ts';

interface EntitlementRow {
  parent_org_id: string | null;
  balance: string;
  activation_status: ActivationStatus | null;
  price: string | null;
  outcome: 'accepted' | 'rejected';
  reason: unknown;
  detail: unknown;
}

/**
 * The smallest event that charges anything: one cent. It passes a cap exactly when the month
 * has reached the cap, and it exceeds the balance exactly when the balance is zero.
 */
const ONE_CENT = '0.01';

export function createEntitlement({ db }: { db: Kysely<DB> }) {
  // Every check runs this one statement: compiled once, a prepared statement on PostgreSQL.
  // The decision is usage_decide's, the one recording usage takes, for a hypothetical event of
  // one cent occurring now, counted against the caps a recorded event would be in the same
  // order (the key's, the activation's, then the organizations' from the top down).
  const check = compileOnce((v: { reach: string; agent: string; organizationId: string; keyId: string }) => {
    const query = sql<EntitlementRow>`
      select o.parent_org_id, b.credit_balance as balance, v.status as activation_status,
             case when t.id is null then null else organization_price(o.id, t.id, now())::numeric(14, 4)::text end as price,
             (d).outcome, (d).reason, (d).detail
      from organizations o
      cross join (select date_trunc('month', now() at time zone 'UTC')::date as month) m
      join organization_billing_settings b on b.organization_id = o.id
      left join agent_types t on t.code = ${v.agent}
      left join agent_activations v on v.organization_id = o.id and v.agent_type_id = t.id and v.deactivated_at is null
      cross join lateral (
        select array_agg(row(c.scope, c.scope_id, m.month, c.cap, c.organization_id, c.name, spend_cap_charged(c.scope, c.scope_id, m.month),
                             0, false)::usage_cap order by c.n) as caps
        from (
          select 0 as n, 'key' as scope, k.id as scope_id, k.monthly_cap as cap, k.organization_id, k.name
          from api_keys k where k.id = ${v.keyId} and k.monthly_cap is not null
          union all
          select 1, 'activation', v.id, v.monthly_cap, v.organization_id, t.name where v.monthly_cap is not null
          union all
          select 2 + a.n, 'subtree', a.id, cb.spend_cap, a.id, ca.name
          from unnest(organization_ancestors(o.path) || o.id) with ordinality as a(id, n)
          join organization_billing_settings cb on cb.organization_id = a.id and cb.spend_cap is not null
          join organizations ca on ca.id = a.id
        ) c
      ) caps
      cross join lateral (
        select usage_decide(
          p_reachable => starts_with(o.path, ${v.reach}) and o.deleted_at is null,
          p_duplicate => false,
          p_occurred => now(), p_now => now(), p_ahead => interval '0', p_behind => interval '0',
          p_agent_known => t.id is not null,
          p_active => o.status = 'active' and not exists (
            select 1 from organizations a where a.id = any(organization_ancestors(o.path)) and a.status <> 'active'),
          p_live => v.id is not null,
          p_priced => exists (select 1 from agent_prices p where p.agent_type_id = t.id and p.effective_from <= now()),
          p_charge => ${ONE_CENT}::numeric,
          p_balance => b.credit_balance,
          p_window => m.month,
          p_caps => coalesce(caps.caps, '{}'),
          p_hits => array(select generate_series(1, cardinality(caps.caps)))) as d
      ) decision
      where o.id = ${v.organizationId}`;
    return { compile: () => query.compile(db) };
  });

  /**
   * May this organization use this agent now: the decision recording usage would take for an
   * event of one cent (usage_decide): within the key's reach and live, it and every
   * organization above it active, a live activation of a priced agent, no monthly cap it charges
   * against reached, and a balance above zero; otherwise the first reason that fails. Nothing is
   * told of an organization out of reach: its balance reads 0.00. The price is the
   * organization's own, so a key never learns a seller's price above it, and is told only for its
   * own organization and its children (the margins rule: below them, the price holds the margin
   * of the seller in between).
   */
  async function entitlement(key: VerifiedKey, query: { organization_id: string; agent: string }): Promise<Entitlement> {
    const { rows } = await db.executeQuery(
      check({ reach: key.organization.path, agent: query.agent, organizationId: query.organization_id, keyId: key.id }),
    );
    const row = rows[0];
    const reason = !row ? 'out_of_reach' : row.outcome === 'accepted' ? null : parseUsageRefusal(row.reason, row.detail).reason;
    if (!row || reason === 'out_of_reach') {
      return { allowed: false, reason: 'out_of_reach', balance: '0.00', activation_status: null, price: null };
    }
    const price = mayViewPricePaidBy(key, { id: query.organization_id, parent_org_id: row.parent_org_id }) ? row.price : null;
    return { allowed: reason === null, reason, balance: row.balance, activation_status: row.activation_status, price };
  }

  return { entitlement };
}
