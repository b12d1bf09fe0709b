-- The CSV exports under way, one row each, so the bound on one person's exports at once holds
-- across every server process. A row is deleted when its answer ends; a row whose process
-- died is ignored once its lease has passed, and deleted by that person's next export.
create table export_slots (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users (id) on delete cascade,
  expires_at timestamptz not null
);
create index export_slots_user_idx on export_slots (user_id, expires_at);
