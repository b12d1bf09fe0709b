import { sql, type Kysely } from 'kysely';
import { capRefusalOf, mayViewPricePaidBy, parseUsageRefusal, type ActivationStatus, type Entitlement } from '@console/domain';
import { compileOnce } from '../../db/compile-once.ts';
import type { DB } from '../../db/schema.ts';
import type { VerifiedKey } from '../../lib/api-key.ts';

interface EntitlementRow {
  parent_org_id: string | null;
  balance: string;
  spendable: string;
  soonest_at: string | null;
  soonest_amount: string | null;
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
      select o.parent_org_id, b.credit_balance as balance, spend.amount::numeric(16, 2)::text as spendable,
             to_char(soon.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as soonest_at, soon.amount::numeric(16, 2)::text as soonest_amount,
             v.status as activation_status,
             case when t.id is null then null else organization_price(o.id, t.id, now())::numeric(14, 4)::text end as price,
             (d).outcome, (d).reason, (d).detail
      from organizations o
      join organization_billing_settings b on b.organization_id = o.id
      left join agent_types t on t.code = ${v.agent}
      left join agent_activations v on v.organization_id = o.id and v.agent_type_id = t.id and v.deactivated_at is null
      -- What this agent may spend: the bound the usage engine draws in (credit_spendable).
      cross join lateral (select coalesce(credit_spendable(o.id, t.id, now()), 0) as amount) spend
      left join lateral (
        select g.expires_at as at, sum(g.remaining) as amount from credit_grants g
        where g.organization_id = o.id and g.remaining > 0 and g.expires_at > now()
        group by g.expires_at order by g.expires_at limit 1
      ) soon on true
      cross join lateral (
        select array_agg(row(c.scope, c.scope_id, cap_window_start(c.kind, now()), c.cap, c.organization_id, c.name,
                             spend_cap_charged(c.scope, c.scope_id, c.kind, cap_window_start(c.kind, now())), 0, false,
                             c.kind, c.visible, c.set_by, c.set_by_name)::usage_cap order by c.n, c.w) as caps
        from (
          select 0::bigint as n, w.n as w, 'key' as scope, k.id as scope_id, w.kind, w.cap, k.organization_id, k.name,
                 true as visible, ko.id as set_by, ko.name as set_by_name
          from api_keys k
          join organizations ko on ko.id = k.organization_id
          cross join lateral (values (1, 'day', k.daily_cap), (2, 'week', k.weekly_cap), (3, 'month', k.monthly_cap)) as w(n, kind, cap)
          where k.id = ${v.keyId} and w.cap is not null
          union all
          select 1, w.n, 'activation', v.id, w.kind, w.cap, v.organization_id, t.name, true,
                 case when starts_with(s.path, ${v.reach}) then s.id end, case when starts_with(s.path, ${v.reach}) then s.name end
          from (values (1, 'day', v.daily_cap), (2, 'week', v.weekly_cap), (3, 'month', v.monthly_cap)) as w(n, kind, cap)
          left join organizations s on s.id = coalesce(v.caps_set_by, v.organization_id)
          where v.id is not null and w.cap is not null
          union all
          select 2 + a.n, w.n, 'subtree', a.id, w.kind, w.cap, a.id, ca.name, starts_with(ca.path, ${v.reach}),
                 case when starts_with(p.path, ${v.reach}) then p.id end, case when starts_with(p.path, ${v.reach}) then p.name end
          from unnest(organization_ancestors(o.path) || o.id) with ordinality as a(id, n)
          join organization_billing_settings cb on cb.organization_id = a.id
          cross join lateral (values (1, 'day', cb.daily_spend_cap), (2, 'week', cb.weekly_spend_cap), (3, 'month', cb.spend_cap)) as w(n, kind, cap)
          join organizations ca on ca.id = a.id
          left join organizations p on p.id = ca.parent_org_id
          where w.cap is not null
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
          p_balance => spend.amount,
          p_window => date_trunc('month', now() at time zone 'UTC')::date,
          p_caps => coalesce(caps.caps, '{}'),
          p_hits => array(select generate_series(1, cardinality(caps.caps)))) as d
      ) decision
      where o.id = ${v.organizationId}`;
    return { compile: () => query.compile(db) };
  });

  /**
   * May this organization use this agent now: the decision recording usage would take for an
   * event of one cent (usage_decide): within the key's reach and live, it and every
   * organization above it active, a live activation of a priced agent, no cap it charges
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
    const refusal = row && row.outcome !== 'accepted' ? parseUsageRefusal(row.reason, row.detail) : null;
    if (!row || refusal?.reason === 'out_of_reach') {
      return {
        allowed: false,
        reason: 'out_of_reach',
        cap: null,
        balance: '0.00',
        spendable: '0.00',
        soonest_expiry: null,
        activation_status: null,
        price: null,
      };
    }
    const price = mayViewPricePaidBy(key, { id: query.organization_id, parent_org_id: row.parent_org_id }) ? row.price : null;
    return {
      allowed: refusal === null,
      reason: refusal?.reason ?? null,
      cap: refusal ? capRefusalOf(refusal) : null,
      balance: row.balance,
      spendable: row.spendable,
      soonest_expiry: row.soonest_at && row.soonest_amount ? { at: row.soonest_at, amount: row.soonest_amount } : null,
      activation_status: row.activation_status,
      price,
    };
  }

  return { entitlement };
}
