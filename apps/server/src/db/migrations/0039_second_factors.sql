-- Second factors: a person's authenticator app (TOTP), their recovery codes, and the
-- challenges a right password gives a person who has a factor.

-- One authenticator app per person. Its secret is needed in clear to check codes, so it is
-- stored sealed under a key the database does not hold. Pending (confirmed_at null) until a
-- first code confirms it; last_step is the last time step a code was accepted for, so no
-- code is ever accepted twice.
create table totp_factors (
  user_id uuid primary key references users (id),
  secret_sealed text not null,
  created_at timestamptz not null default now(),
  confirmed_at timestamptz,
  last_step integer check (last_step >= 0)
);

-- Recovery codes: only their SHA-256 is kept; each answers one challenge.
create table recovery_codes (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id),
  code_hash text not null,
  created_at timestamptz not null default now(),
  used_at timestamptz,
  unique (user_id, code_hash)
);
create index recovery_codes_unused_idx on recovery_codes (user_id) where used_at is null;

-- A right password for a person with a factor: the challenge the second factor answers.
-- Only the token's SHA-256 is kept; a run of wrong codes voids it.
create table sign_in_challenges (
  token_hash text primary key,
  user_id uuid not null references users (id),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  failures integer not null default 0 check (failures >= 0),
  used_at timestamptz
);
create index sign_in_challenges_user_idx on sign_in_challenges (user_id, created_at);
