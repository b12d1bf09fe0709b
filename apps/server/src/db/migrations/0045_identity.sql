-- Single sign-on (OpenID Connect) and provisioning (SCIM 2.0), per organization.

-- An organization's identity provider: one per organization. The client secret is sealed with
-- the server's key. `jit_role` on means a person the provider signs in who is not yet a member
-- is created at that role (never an admin role: the check below and the domain rule agree).
-- `enforce_sso`: its people sign in only through the provider, but `break_glass_user_id`, one
-- named admin who keeps the password and second factors.
create table identity_providers (
  organization_id uuid primary key references organizations (id),
  issuer text not null check (char_length(issuer) between 1 and 2048),
  client_id text not null check (char_length(client_id) between 1 and 500),
  client_secret_sealed text not null,
  email_claim text not null default 'email' check (char_length(email_claim) between 1 and 100),
  name_claim text not null default 'name' check (char_length(name_claim) between 1 and 100),
  jit_role text check (jit_role is null or jit_role not like '%admin'),
  enforce_sso boolean not null default false,
  break_glass_user_id uuid references users (id),
  tested_at timestamptz,
  updated_by uuid references users (id),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- The e-mail domains an organization claims. A claim takes effect once verified (its TXT record
-- `_console-verification.<domain>` holds `verification_token`) or approved by a house admin.
-- Any number of organizations may have a pending claim; only one claim per domain may be in
-- effect, so a squatter's pending claim cannot block the domain's owner.
create table identity_domains (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references organizations (id),
  domain text not null check (domain = lower(domain) and char_length(domain) between 3 and 253),
  verification_token text not null,
  verified_at timestamptz,
  approved_at timestamptz,
  approved_by uuid references users (id),
  checked_at timestamptz,
  check_error text,
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  unique (organization_id, domain)
);
create unique index identity_domains_in_effect on identity_domains (domain)
  where verified_at is not null or approved_at is not null;

-- A sign-in sent to the provider, waiting for its answer: only the SHA-256 of `state` is kept,
-- the PKCE verifier is sealed, and each answers once (`used_at`) before it expires. A test
-- sign-in (`tested_by`) proves the provider works and starts no session.
create table sso_sign_ins (
  state_hash text primary key,
  organization_id uuid not null references organizations (id),
  code_verifier_sealed text not null,
  nonce text not null,
  email text,
  tested_by uuid references users (id),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index sso_sign_ins_expiry_idx on sso_sign_ins (expires_at);

-- The provider's subject (`sub`) a person signed in as: the link survives a changed e-mail.
create table sso_identities (
  organization_id uuid not null references organizations (id),
  subject text not null,
  user_id uuid not null references users (id),
  created_at timestamptz not null default now(),
  last_sign_in_at timestamptz,
  primary key (organization_id, subject)
);
create index sso_identities_user_idx on sso_identities (user_id);

-- How each session began: a password (with or without a second factor), a passkey alone, or
-- the organization's provider. Enforcing SSO ends the sessions that did not begin there.
alter table refresh_sessions add column method text not null default 'password'
  check (method in ('password', 'passkey', 'sso'));

-- SCIM bearer tokens: only a hash is kept; the prefix names the token on screens and in logs.
create table scim_tokens (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references organizations (id),
  name text not null check (char_length(name) between 1 and 100),
  prefix text not null,
  token_hash text not null unique,
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  rotated_at timestamptz,
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index scim_tokens_org_idx on scim_tokens (organization_id, created_at);

-- SCIM groups of an organization. A group whose `role` is set gives that role to its members.
create table scim_groups (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references organizations (id),
  display_name text not null check (char_length(display_name) between 1 and 200),
  external_id text,
  role text,
  version integer not null default 1,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (organization_id, display_name)
);

create table scim_group_members (
  group_id uuid not null references scim_groups (id) on delete cascade,
  user_id uuid not null references users (id),
  primary key (group_id, user_id)
);
create index scim_group_members_user_idx on scim_group_members (user_id);

-- The provider's own id for a person (SCIM externalId), and which token provisioned them.
alter table users add column scim_external_id text;
alter table users add column scim_token_id uuid references scim_tokens (id);

-- The provisioning calls an organization's provider made, newest first on the Identity page.
create table scim_calls (
  id bigint generated always as identity primary key,
  organization_id uuid not null references organizations (id),
  token_id uuid references scim_tokens (id),
  method text not null,
  path text not null check (char_length(path) <= 300),
  status integer not null,
  outcome text not null check (char_length(outcome) <= 300),
  created_at timestamptz not null default now()
);
create index scim_calls_org_idx on scim_calls (organization_id, id desc);
