-- ledger_entry_hash: the hash of one credit ledger entry in its organization's chain.
--
-- Each organization's ledger is a hash chain: an entry stores prev_hash (the hash of the
-- organization's entry before it, null for its first) and hash = this function over prev_hash
-- and the entry's own fields. Editing any field of an entry changes its hash, and deleting or
-- reordering entries breaks the next entry's prev_hash, so ledger_chain_check finds the first
-- entry that no longer fits. organization_billing_settings.ledger_head holds the hash of the
-- organization's last entry (the chain head), so a deleted last entry shows too.
--
-- hash = sha256(prev_hash (nothing for the first entry) || the UTF-8 text of a JSON array of
-- every stored field but seq: id, organization, amount, entry type, transaction group,
-- metadata, balance_after, external_ref, refund_of, agent type, units, created_by, created_at.
-- The text must not depend on how a value was typed, only on what the column stores: amounts
-- are taken as numeric(16, 2) and units as numeric(18, 4) (the columns' types, so 5 and 5.00
-- hash alike), metadata as jsonb (its text is canonical; absent is '{}', the column's
-- default), created_at as its exact epoch in seconds (microseconds, independent of TimeZone
-- and DateStyle). In a JSON array every value is quoted or a number, so no field can run into
-- the next, and null is JSON null, distinct from the empty string "".
--
-- ledger_post, the one writer of the ledger, computes it in the posting's transaction; the
-- migration that brought the chain (0048) creates this same function for its backfill.
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
