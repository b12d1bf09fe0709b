-- Invitations: the only way in. The token is random and kept only as its SHA-256.
create table invitations (
  id uuid primary key default gen_random_uuid(),
  token_hash text not null unique,
  email text not null check (char_length(email) between 3 and 254),
  first_name text not null,
  last_name text not null,
  role text not null check (role ~ '^(house|super_agency|agency|tenant)_(admin|manager|user|support)$'),
  organization_id uuid not null references organizations (id),
  invited_by uuid references users (id),
  status text not null default 'pending' check (status in ('pending', 'accepted', 'revoked')),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  accepted_at timestamptz,
  accepted_user_id uuid references users (id),
  revoked_at timestamptz
);

-- One pending invitation per e-mail and organization.
create unique index invitations_pending_email_idx on invitations (organization_id, lower(email)) where status = 'pending';
create index invitations_org_created_idx on invitations (organization_id, created_at desc, id);

-- Users lists: one organization, newest first (the default), filtered and sorted.
create index users_org_status_idx on users (organization_id, status, created_at desc);
