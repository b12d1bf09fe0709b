-- invoice_billable: the ledger entries of buyer p_buyer that seller p_seller bills and no
-- invoice line holds yet (its draft), optionally only those dated before p_before. The one
-- selection both the drafts and the issuing read, so what a draft shows is what is issued.
--   allocation_received from p_seller: 'top_up' when automatic, else 'allocation';
--   initial_balance from p_seller: 'initial_balance';
--   reversal_sent of p_buyer whose reversed allocation p_seller sent: 'reversal' (negative).
-- on_credit_note: a reversal whose reversed allocation is already on an issued document goes
-- on a credit note; every other entry (a reversal whose allocation is in the same draft too)
-- goes on the invoice. A reversal of an allocation on a voided invoice is billed nowhere: the
-- allocation was never charged, so nothing is owed back. Ordered by the buyer's ledger order
-- (seq), read through the partial index of billable entries.
create or replace function invoice_billable(p_seller uuid, p_buyer uuid, p_before timestamptz default null)
returns table (
  entry_id uuid,
  seq bigint,
  occurred_at timestamptz,
  kind text,
  description text,
  credits numeric,
  reference text,
  on_credit_note boolean
)
language sql stable as $$
  select e.id, e.seq, e.created_at,
         case
           when e.entry_type = 'initial_balance' then 'initial_balance'
           when e.entry_type = 'reversal_sent' then 'reversal'
           when e.metadata->>'automatic' = 'true' then 'top_up'
           else 'allocation'
         end,
         case
           when e.entry_type = 'initial_balance' then 'Initial balance'
           when e.entry_type = 'reversal_sent' then
             'Credits returned: reversal of the allocation of ' || to_char(orig.created_at at time zone 'UTC', 'YYYY-MM-DD')
           when e.metadata->>'automatic' = 'true' then 'Automatic top-up'
           else 'Credits allocated'
         end
           || coalesce(': ' || nullif(btrim(coalesce(e.metadata->>'notes', e.metadata->>'reason')), ''), ''),
         e.amount,
         e.transaction_group::text,
         e.entry_type = 'reversal_sent'
           and exists (select 1 from invoice_lines l where l.entry_id = orig.id)
  from credit_ledger_entries e
  -- A reversal's original allocation: the buyer's received entry, and the seller's sent one.
  left join lateral (
    select r.id, r.created_at
    from credit_ledger_entries r
    where e.entry_type = 'reversal_sent'
      and r.transaction_group = (e.metadata->>'reverses_transaction_id')::uuid
      and r.organization_id = p_buyer
      and r.entry_type = 'allocation_received'
      and exists (
        select 1 from credit_ledger_entries s
        where s.transaction_group = r.transaction_group and s.entry_type = 'allocation_sent' and s.organization_id = p_seller
      )
  ) orig on true
  where e.organization_id = p_buyer
    and e.entry_type in ('allocation_received', 'initial_balance', 'reversal_sent')
    and (p_before is null or e.created_at < p_before)
    and (
      (e.entry_type in ('allocation_received', 'initial_balance') and e.metadata->>'from_org_id' = p_seller::text)
      or (e.entry_type = 'reversal_sent' and orig.id is not null
          and not exists (select 1 from invoice_lines l join invoices i on i.id = l.invoice_id
                          where l.entry_id = orig.id and i.voided_at is not null))
    )
    and not exists (select 1 from invoice_lines l where l.entry_id = e.id)
  order by e.seq
$$;
