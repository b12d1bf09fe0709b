-- ledger_chain_check: is an organization's ledger chain whole (ledger_entry_hash says what is
-- hashed)? Walks its entries in seq order, recomputing each one, and answers one row:
--   checked     the entries walked (up to and including the first broken one);
--   head        the stored hash of the last entry walked: with the chain whole, the chain head
--               (at p_until, when given);
--   broken_seq, broken_id, reason
--               the first entry that no longer fits, null when the chain is whole:
--               'edited'          its hash is not the hash of its fields and prev_hash (a field,
--                                 prev_hash or the hash itself was changed);
--               'missing_before'  its prev_hash is not the stored hash of the entry before it
--                                 (an entry before it was deleted, or the entries reordered);
--               'missing_at_end'  (only without p_until) the organization's ledger_head is not
--                                 the last entry's hash (the last entries were deleted); broken_id
--                                 is the last entry's, null when none is left, broken_seq null.
-- With p_until the walk stops at the organization's first entry dated at or after it, so it
-- answers the chain head as of that moment (entries are dated after the balance lock, so per
-- organization their dates follow seq), and ledger_head, which is today's, is not compared.
-- It only reads, so the append-only ledger needs nothing lifted.
create or replace function ledger_chain_check(p_org uuid, p_until timestamptz default null)
returns table (checked bigint, head bytea, broken_seq bigint, broken_id uuid, reason text)
language sql stable as $$
  with walked as (
    select e.seq, e.id, e.hash, row_number() over w as n,
           case
             when e.hash is distinct from ledger_entry_hash(e.prev_hash, e.id, e.organization_id, e.amount, e.entry_type,
                                                             e.transaction_group, e.metadata, e.balance_after, e.external_ref,
                                                             e.refund_of, e.agent_type_id, e.units, e.created_by, e.created_at)
               then 'edited'
             when e.prev_hash is distinct from lag(e.hash) over w then 'missing_before'
           end as reason
    from credit_ledger_entries e
    where e.organization_id = p_org
      and (p_until is null or e.seq < coalesce(
        (select min(f.seq) from credit_ledger_entries f where f.organization_id = p_org and f.created_at >= p_until),
        9223372036854775807))
    window w as (order by e.seq)
  ),
  broken as (select * from walked where walked.reason is not null order by walked.seq limit 1),
  last as (select * from walked order by walked.seq desc limit 1),
  tail as (
    select p_until is null
           and (select b.ledger_head from organization_billing_settings b where b.organization_id = p_org)
               is distinct from (select last.hash from last) as broken
  )
  select coalesce(broken.n, last.n, 0), coalesce(broken.hash, last.hash), broken.seq,
         case when broken.id is not null then broken.id when tail.broken then last.id end,
         coalesce(broken.reason, case when tail.broken then 'missing_at_end' end)
  from tail
  left join broken on true
  left join last on true
$$;
