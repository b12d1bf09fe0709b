-- The life of an API key: an end date, a roll to a new secret with the old one kept for a
-- grace period, a requests-per-minute override, and the newest refusal written to the audit log.

-- null: the key never expires. From expires_at on, both its secrets are refused.
alter table api_keys add column expires_at timestamptz;
-- A roll moves the secret in use (its prefix and hash) here and makes a new one; the old
-- secret is accepted until previous_expires_at (a roll without grace sets it to the moment of
-- the roll). A second roll replaces these: a key has at most one previous secret.
alter table api_keys add column previous_prefix text;
alter table api_keys add column previous_secret_hash text;
alter table api_keys add column previous_expires_at timestamptz;
alter table api_keys add column rolled_at timestamptz;
alter table api_keys add constraint api_keys_previous_check check (
  (previous_prefix is null) = (previous_secret_hash is null) and (previous_prefix is null) = (previous_expires_at is null)
);
create unique index api_keys_previous_prefix_key on api_keys (previous_prefix) where previous_prefix is not null;
-- null: the house's default limit applies.
alter table api_keys add column rate_limit_per_minute integer check (rate_limit_per_minute > 0);
-- The last refusal of the key (expired, or its previous secret after the grace period) that the
-- audit log recorded, and why: a refused key is audited at most once per reason and hour, not
-- once per request. (A revoked key's refusals are not: its revocation is in the audit log.)
alter table api_keys add column refusal_audited_at timestamptz;
alter table api_keys add column refusal_audited_reason text check (refusal_audited_reason in ('expired', 'rolled'));

-- The key list: an organization's keys newest first, the id breaking ties for the cursor. The
-- list reads its live keys and then the others, each part in this order (whether a key is live
-- depends on the time, which no index can hold).
create index api_keys_org_list_idx on api_keys (organization_id, created_at desc, id desc);
drop index api_keys_org_idx;

-- The highest requests-per-minute a key's own override may ask for; the house's admins set it.
alter table global_settings add column api_key_rate_limit_ceiling integer not null default 6000
  check (api_key_rate_limit_ceiling > 0);
