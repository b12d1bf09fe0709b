-- The machine API's live-key reads take, after the first, only the keys made or rolled since
-- the last read: these indexes find them without reading every key.
create index api_keys_created_idx on api_keys (created_at);
create index api_keys_rolled_idx on api_keys (rolled_at) where rolled_at is not null;
