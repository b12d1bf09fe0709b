-- Organizations, billing settings, users, sessions, one-time tokens, mail outbox, audit log.
-- Runs unchanged on PostgreSQL 15 and on PGlite.

create table organizations (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(name) between 2 and 100),
  description text check (description is null or char_length(description) <= 500),
  org_type text not null check (org_type in ('house', 'super_agency', 'agency', 'tenant')),
  parent_org_id uuid,
  parent_org_type text,
  -- Materialized path: '/<root id>/.../<own id>/'. The "C" collation lets a btree
  -- index serve prefix searches (descendants) with LIKE 'prefix%'.
  path text collate "C" not null,
  status text not null default 'active' check (status in ('active', 'inactive', 'suspended')),
  disable_parent_invites boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz,
  unique (id, org_type),
  -- The parent's type travels with the reference, so the database itself checks
  -- that a child is exactly one level below its parent.
  foreign key (parent_org_id, parent_org_type) references organizations (id, org_type),
  check (
    (org_type = 'house' and parent_org_id is null and parent_org_type is null)
    or (org_type = 'super_agency' and parent_org_type = 'house')
    or (org_type = 'agency' and parent_org_type = 'super_agency')
    or (org_type = 'tenant' and parent_org_type = 'agency')
  ),
  check (parent_org_id is null or parent_org_type is not null)
);

create unique index organizations_path_idx on organizations (path);
create index organizations_parent_name_idx on organizations (parent_org_id, name, id) where deleted_at is null;
create index organizations_created_idx on organizations (created_at);

-- The path is derived, never written by callers; the parent never changes.
create function organizations_set_path() returns trigger language plpgsql as $$
declare
  parent_path text;
begin
  if tg_op = 'UPDATE' then
    if new.parent_org_id is distinct from old.parent_org_id or new.org_type <> old.org_type then
      raise exception 'an organization''s parent and type never change' using errcode = '23514';
    end if;
    new.path := old.path;
    return new;
  end if;
  if new.parent_org_id is null then
    new.path := '/' || new.id::text || '/';
  else
    select path into parent_path from organizations where id = new.parent_org_id;
    new.path := parent_path || new.id::text || '/';
  end if;
  return new;
end;
$$;

create trigger organizations_path_trg before insert or update on organizations
  for each row execute function organizations_set_path();

create table organization_billing_settings (
  organization_id uuid primary key references organizations (id),
  credit_balance numeric(16, 2) not null default 0 check (credit_balance >= 0),
  activated_agent_limit integer not null default 0 check (activated_agent_limit >= 0),
  updated_at timestamptz not null default now()
);

create table users (
  id uuid primary key default gen_random_uuid(),
  email text not null check (char_length(email) between 3 and 254),
  password_hash text,
  first_name text,
  last_name text,
  role text not null check (role ~ '^((house|super_agency|agency|tenant)_(admin|manager|user|support)|admin)$'),
  status text not null default 'active' check (status in ('active', 'inactive', 'pending', 'suspended')),
  organization_id uuid not null references organizations (id),
  preferred_locale text not null default 'en',
  invited_at timestamptz,
  last_login_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  deleted_at timestamptz
);

create unique index users_email_lower_idx on users (lower(email));
create index users_organization_idx on users (organization_id, created_at desc);

-- A sign-in starts a session (a refresh-token family); each refresh rotates its token.
create table refresh_sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id),
  created_at timestamptz not null default now(),
  last_used_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz,
  revoked_reason text,
  user_agent text,
  ip text
);

create index refresh_sessions_user_idx on refresh_sessions (user_id) where revoked_at is null;

create table refresh_tokens (
  token_hash text primary key,
  session_id uuid not null references refresh_sessions (id),
  created_at timestamptz not null default now(),
  used_at timestamptz
);

create index refresh_tokens_session_idx on refresh_tokens (session_id);

-- Password-reset (and later other) single-use tokens; only their SHA-256 is kept.
create table one_time_tokens (
  token_hash text primary key,
  purpose text not null check (purpose in ('password_reset')),
  user_id uuid not null references users (id),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);

create index one_time_tokens_user_idx on one_time_tokens (user_id, purpose);

create table outbox (
  id bigint generated always as identity primary key,
  to_address text not null,
  subject text not null,
  body_text text not null,
  link text,
  created_at timestamptz not null default now()
);

create index outbox_created_idx on outbox (created_at desc);

create table audit_log (
  id bigint generated always as identity primary key,
  actor_user_id uuid references users (id),
  organization_id uuid references organizations (id),
  action text not null,
  target_type text not null,
  target_id text,
  details jsonb not null default '{}',
  ip text,
  request_id text,
  created_at timestamptz not null default now()
);

create index audit_log_org_idx on audit_log (organization_id, created_at desc);

-- Shared counters for rate limits, so several server processes count together.
create table rate_limits (
  key text primary key,
  count integer not null,
  reset_at timestamptz not null
);
