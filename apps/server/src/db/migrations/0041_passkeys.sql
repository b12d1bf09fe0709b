-- Passkeys (WebAuthn credentials): a second factor, and a sign-in on their own.

-- A person's passkeys. The public key needs no sealing; the counter is the last signature
-- count the authenticator reported (0 for authenticators that keep none).
create table passkeys (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id),
  credential_id text not null unique,
  public_key text not null,
  counter bigint not null default 0 check (counter >= 0),
  transports text not null default '',
  name text not null check (char_length(name) between 1 and 100),
  created_at timestamptz not null default now(),
  last_used_at timestamptz
);
create index passkeys_user_idx on passkeys (user_id, created_at);

-- The challenges a browser signs: only their SHA-256 is kept, each answers once before it
-- expires. A registration or a re-check names its person; a second factor, the sign-in challenge it answers;
-- a passwordless sign-in, nobody until the passkey names them.
create table webauthn_challenges (
  challenge_hash text primary key,
  purpose text not null check (purpose in ('register', 'reauth', 'second_factor', 'passwordless')),
  user_id uuid references users (id),
  sign_in_token_hash text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index webauthn_challenges_expiry_idx on webauthn_challenges (expires_at);
