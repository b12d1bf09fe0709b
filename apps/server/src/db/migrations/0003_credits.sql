-- The credit ledger: exact amounts, append-only, one row per movement per organization.
create table credit_ledger_entries (
  id uuid primary key default gen_random_uuid(),
  -- Insertion order: breaks ties between entries of one transaction, and pages stably.
  seq bigint generated always as identity unique,
  organization_id uuid not null references organizations (id),
  amount numeric(16, 2) not null check (amount <> 0),
  entry_type text not null check (entry_type in (
    'initial_balance', 'allocation_sent', 'allocation_received', 'consumption', 'refund',
    'adjustment_increase', 'adjustment_decrease'
  )),
  transaction_group uuid not null,
  metadata jsonb not null default '{}',
  balance_after numeric(16, 2) not null check (balance_after >= 0),
  external_ref text,
  created_by uuid references users (id),
  -- clock_timestamp(): taken after the balance row is locked, so per organization the
  -- order of created_at is the order of balance_after.
  created_at timestamptz not null default clock_timestamp(),
  check (
    (entry_type in ('allocation_sent', 'consumption', 'adjustment_decrease') and amount < 0)
    or (entry_type in ('initial_balance', 'allocation_received', 'refund', 'adjustment_increase') and amount > 0)
  )
);

create index ledger_org_created_idx on credit_ledger_entries (organization_id, created_at desc, seq desc);
create index ledger_org_type_created_idx on credit_ledger_entries (organization_id, entry_type, created_at desc, seq desc);
create index ledger_group_idx on credit_ledger_entries (transaction_group);
-- A usage record imported twice is recorded once.
create unique index ledger_external_ref_idx on credit_ledger_entries (organization_id, external_ref) where external_ref is not null;

create function credit_ledger_append_only() returns trigger language plpgsql as $$
begin
  raise exception 'credit ledger entries are append-only' using errcode = '42501';
end;
$$;

create trigger credit_ledger_no_update before update or delete on credit_ledger_entries
  for each row execute function credit_ledger_append_only();
create trigger credit_ledger_no_truncate before truncate on credit_ledger_entries
  for each statement execute function credit_ledger_append_only();

-- A retried request with the same Idempotency-Key returns the first answer.
create table idempotency_keys (
  user_id uuid not null references users (id),
  key text not null,
  request_hash text not null,
  response jsonb,
  created_at timestamptz not null default now(),
  primary key (user_id, key)
);
