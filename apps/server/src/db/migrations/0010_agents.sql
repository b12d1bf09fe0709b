-- The platform the console governs: a catalog of agent types with prices, their activations
-- per organization (never more than the organization's activated agent limit), API keys for
-- agent runtimes, and metered usage charged to the ledger.

-- Agent types, kept by the house's admins. A retired type takes no new activations.
create table agent_types (
  id uuid primary key default gen_random_uuid(),
  code text not null check (code ~ '^[a-z0-9][a-z0-9_-]{1,39}$'),
  name text not null check (length(name) between 1 and 100),
  description text,
  kind text not null check (kind in ('assistant', 'automation', 'integration', 'analytics', 'other')),
  -- What one unit is, as a person reads it: "run", "1k tokens", "minute".
  unit text not null check (length(unit) between 1 and 40),
  status text not null default 'active' check (status in ('active', 'retired')),
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  retired_at timestamptz,
  check ((status = 'retired') = (retired_at is not null))
);
create unique index agent_types_code_key on agent_types (code);

-- Prices in credits per unit, up to four decimals. A change adds a row: an event is charged
-- the price in force when it occurred (the latest effective_from at or before it).
create table agent_prices (
  agent_type_id uuid not null references agent_types (id),
  effective_from timestamptz not null,
  price numeric(14, 4) not null check (price >= 0),
  created_by uuid references users (id),
  primary key (agent_type_id, effective_from)
);

-- An organization's activation of an agent type. Live while deactivated_at is null; at most
-- one live activation per organization and type, and never more live ones than the
-- organization's activated_agent_limit (checked under the lock of its billing row). The
-- runtime reports status, health and last activity through heartbeats.
create table agent_activations (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references organizations (id),
  agent_type_id uuid not null references agent_types (id),
  status text not null default 'inactive' check (status in ('active', 'inactive', 'error')),
  health_score integer check (health_score between 0 and 100),
  last_active_at timestamptz,
  activated_at timestamptz not null default now(),
  activated_by uuid references users (id),
  deactivated_at timestamptz,
  deactivated_by uuid references users (id)
);
create unique index agent_activations_live_key on agent_activations (organization_id, agent_type_id) where deactivated_at is null;
create index agent_activations_org_idx on agent_activations (organization_id, activated_at desc);

-- API keys of an organization for agent runtimes: only the SHA-256 of the secret is kept; the
-- prefix is shown to recognise a key. A key acts for its organization and its descendants,
-- on the machine routes only, within its scopes.
create table api_keys (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references organizations (id),
  name text not null check (length(name) between 1 and 100),
  prefix text not null,
  secret_hash text not null,
  scopes text[] not null check (
    cardinality(scopes) > 0 and scopes <@ array['usage:write', 'agents:report', 'entitlements:read']::text[]
  ),
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  last_used_at timestamptz,
  use_count bigint not null default 0,
  revoked_at timestamptz,
  revoked_by uuid references users (id)
);
create unique index api_keys_prefix_key on api_keys (prefix);
create index api_keys_org_idx on api_keys (organization_id, created_at desc);

-- Accepted usage events. The client's event id makes an event count once per organization:
-- a replay finds this row and answers its first outcome. `cost` is units × price exactly;
-- `charged` is what the event took from the balance in whole cents, the rest carried.
create table usage_events (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references organizations (id),
  client_event_id text not null check (length(client_event_id) between 1 and 200),
  agent_type_id uuid not null references agent_types (id),
  units numeric(18, 4) not null check (units > 0),
  price numeric(14, 4) not null check (price >= 0),
  cost numeric(32, 8) not null check (cost >= 0),
  charged numeric(16, 2) not null check (charged >= 0),
  occurred_at timestamptz not null,
  received_at timestamptz not null default now(),
  api_key_id uuid references api_keys (id),
  created_by uuid references users (id),
  ledger_entry_id uuid references credit_ledger_entries (id),
  metadata jsonb not null default '{}',
  check ((charged = 0) = (ledger_entry_id is null))
);
create unique index usage_events_client_key on usage_events (organization_id, client_event_id);
create index usage_events_org_agent_time_idx on usage_events (organization_id, agent_type_id, occurred_at desc);
create index usage_events_org_time_idx on usage_events (organization_id, occurred_at desc);

-- What usage cost beyond the whole cents charged so far, per organization and agent type.
-- Over all events: sum(cost) = sum(charged) + carry, so rounding neither makes nor loses
-- credits (`npm run db:reconcile` checks it).
create table usage_carry (
  organization_id uuid not null references organizations (id),
  agent_type_id uuid not null references agent_types (id),
  carry numeric(32, 8) not null default 0 check (carry >= 0 and carry < 0.01),
  primary key (organization_id, agent_type_id)
);

-- A consumption entry names its agent type and units, so the ledger filters by agent.
alter table credit_ledger_entries add column agent_type_id uuid references agent_types (id);
alter table credit_ledger_entries add column units numeric(18, 4);
alter table credit_ledger_entries add constraint credit_ledger_agent_check
  check ((agent_type_id is null) = (units is null) and (agent_type_id is null or entry_type = 'consumption'));
create index ledger_org_agent_idx on credit_ledger_entries (organization_id, agent_type_id, created_at desc, seq desc)
  where agent_type_id is not null;

-- Low-balance alerts: each organization has a threshold (100 credits unless its admins
-- change it). A balance change that takes the balance from at or above it to below it
-- queues one alert; nothing more until the balance has been back at or above it. An event
-- refused for want of credits alerts at most once an hour (insufficient_alerted_at).
alter table organization_billing_settings
  add column low_balance_threshold numeric(16, 2) not null default 100 check (low_balance_threshold >= 0),
  add column insufficient_alerted_at timestamptz;

-- Alerts waiting to be mailed to the organization's admins by the server's background sender.
create table balance_alerts (
  id bigint generated always as identity primary key,
  organization_id uuid not null references organizations (id),
  kind text not null check (kind in ('low_balance', 'insufficient_credits')),
  balance numeric(16, 2) not null,
  threshold numeric(16, 2) not null,
  created_at timestamptz not null default now(),
  mailed_at timestamptz
);
create index balance_alerts_pending_idx on balance_alerts (id) where mailed_at is null;

-- The crossing is seen where the balance changes, whatever moved it (allocation,
-- adjustment, usage), in the same transaction.
create function billing_low_balance_alert() returns trigger language plpgsql as $$
begin
  if old.credit_balance >= old.low_balance_threshold and new.credit_balance < new.low_balance_threshold then
    insert into balance_alerts (organization_id, kind, balance, threshold)
    values (new.organization_id, 'low_balance', new.credit_balance, new.low_balance_threshold);
  end if;
  return null;
end;
$$;

create trigger billing_low_balance_trg after update of credit_balance on organization_billing_settings
  for each row execute function billing_low_balance_alert();
