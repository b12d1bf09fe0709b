-- Each organization's credit ledger is hash-chained: an entry stores prev_hash (the hash of the
-- organization's entry before it, in seq order; null for its first) and hash, over prev_hash and
-- its own fields (rules/functions/ledger_entry_hash.sql says what is hashed). The organization's
-- ledger_head is the hash of its last entry, null while it has none. ledger_post writes all
-- three in the posting's transaction; ledger_chain_check and db:reconcile walk the chains.
alter table credit_ledger_entries add column prev_hash bytea, add column hash bytea;
alter table organization_billing_settings add column ledger_head bytea;

-- The backfill needs the hash before the rules are applied (they run after the migrations):
-- the same function as rules/functions/ledger_entry_hash.sql, which then replaces it alike.
create or replace function ledger_entry_hash(
  p_prev bytea,
  p_id uuid,
  p_org uuid,
  p_amount numeric,
  p_type text,
  p_group uuid,
  p_meta jsonb,
  p_balance_after numeric,
  p_ref text,
  p_refund_of text,
  p_agent uuid,
  p_units numeric,
  p_created_by uuid,
  p_at timestamptz
) returns bytea
language sql immutable as $$
  select sha256(coalesce(p_prev, ''::bytea) || convert_to(jsonb_build_array(
    p_id, p_org, p_amount::numeric(16, 2), p_type, p_group, coalesce(p_meta, '{}'::jsonb), p_balance_after::numeric(16, 2),
    p_ref, p_refund_of, p_agent, p_units::numeric(18, 4), p_created_by, extract(epoch from p_at)
  )::text, 'UTF8'))
$$;

-- The entries already written, chained per organization in seq order. The ledger refuses
-- updates (rules/triggers/credit_ledger_append_only.sql): its guard is lifted for the backfill
-- only, inside this migration's transaction.
alter table credit_ledger_entries disable trigger credit_ledger_no_update;
do $$
declare
  e record;
  v_org uuid;
  v_head bytea;
  v_hash bytea;
begin
  for e in select * from credit_ledger_entries order by organization_id, seq loop
    if v_org is distinct from e.organization_id then
      v_org := e.organization_id;
      v_head := null;
    end if;
    v_hash := ledger_entry_hash(v_head, e.id, e.organization_id, e.amount, e.entry_type, e.transaction_group, e.metadata,
                                e.balance_after, e.external_ref, e.refund_of, e.agent_type_id, e.units, e.created_by, e.created_at);
    update credit_ledger_entries set prev_hash = v_head, hash = v_hash where id = e.id;
    v_head := v_hash;
  end loop;
end;
$$;
alter table credit_ledger_entries enable trigger credit_ledger_no_update;

update organization_billing_settings b set ledger_head = last.hash
from (select distinct on (organization_id) organization_id, hash from credit_ledger_entries order by organization_id, seq desc) last
where b.organization_id = last.organization_id;

alter table credit_ledger_entries alter column hash set not null;
