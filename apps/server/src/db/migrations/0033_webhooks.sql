-- Webhooks: endpoints an organization's admins register, the events the changes write in
-- their own transaction (an outbox), one delivery per event and subscribed endpoint, and
-- every attempt at it.

-- An endpoint receives its organization's events of the types it names and, with
-- include_subtree, those of every organization below. Its signing secret is stored encrypted
-- with a key the database does not hold; the previous one signs beside it until it expires.
create table webhook_endpoints (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references organizations (id),
  url text not null check (char_length(url) between 1 and 2000),
  description text not null default '' check (char_length(description) <= 200),
  event_types text[] not null check (cardinality(event_types) between 1 and 40),
  include_subtree boolean not null default false,
  enabled boolean not null default true,
  disabled_reason text check (disabled_reason in ('manual', 'failing', 'gone')),
  disabled_at timestamptz,
  secret_encrypted text not null,
  secret_created_at timestamptz not null default now(),
  previous_secret_encrypted text,
  previous_secret_expires_at timestamptz,
  -- The first failure since the last success: an endpoint failing for days is disabled.
  failing_since timestamptz,
  last_success_at timestamptz,
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  check (enabled = (disabled_reason is null) and enabled = (disabled_at is null)),
  check ((previous_secret_encrypted is null) = (previous_secret_expires_at is null))
);
create index webhook_endpoints_org_idx on webhook_endpoints (organization_id, created_at desc, id desc);

-- The outbox: one row per event, written by the change it reports. `dedupe_key` keeps grouped
-- events (usage refused) to one per period.
create table webhook_events (
  id uuid primary key default gen_random_uuid(),
  type text not null check (type in (
    'balance.low', 'balance.recovered', 'usage.refused', 'credits.allocated', 'credits.adjusted',
    'agent_limit.warning', 'agent_limit.critical', 'agent_limit.changed',
    'agent.activated', 'agent.deactivated', 'agent.error',
    'api_key.created', 'api_key.rolled', 'api_key.revoked',
    'organization.created', 'organization.suspended', 'organization.deleted',
    'invitation.accepted', 'spend_cap.reached', 'top_up.succeeded', 'top_up.failed', 'webhook.test')),
  organization_id uuid not null references organizations (id),
  data jsonb not null,
  dedupe_key text,
  created_at timestamptz not null default now()
);
create unique index webhook_events_dedupe_idx on webhook_events (dedupe_key) where dedupe_key is not null;
create index webhook_events_created_idx on webhook_events (created_at);

-- One event to one endpoint. A sender leases a due row (lease_until) for the time of one
-- attempt, so several processes never send it at once; a process killed mid-attempt leaves
-- the lease to expire and the row is sent again.
create table webhook_deliveries (
  id uuid primary key default gen_random_uuid(),
  event_id uuid not null references webhook_events (id) on delete cascade,
  endpoint_id uuid not null references webhook_endpoints (id) on delete cascade,
  state text not null default 'pending' check (state in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0 check (attempts >= 0),
  next_attempt_at timestamptz,
  lease_until timestamptz,
  delivered_at timestamptz,
  created_at timestamptz not null default now(),
  unique (endpoint_id, event_id),
  check ((state = 'pending') = (next_attempt_at is not null)),
  check ((state = 'delivered') = (delivered_at is not null))
);
create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where state = 'pending';
create index webhook_deliveries_log_idx on webhook_deliveries (endpoint_id, created_at desc, id desc);
create index webhook_deliveries_event_idx on webhook_deliveries (event_id);

create table webhook_attempts (
  id bigint generated always as identity primary key,
  delivery_id uuid not null references webhook_deliveries (id) on delete cascade,
  attempted_at timestamptz not null default now(),
  status_code integer,
  response_ms integer,
  error text,
  response_body text
);
create index webhook_attempts_delivery_idx on webhook_attempts (delivery_id, id desc);
