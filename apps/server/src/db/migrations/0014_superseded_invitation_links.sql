-- Links of an invitation replaced by a newer one (Resend, Copy link). Only token hashes are
-- kept, as for the live link, so an old link can say it was replaced instead of reading as
-- unknown. They go with their invitation.
create table invitation_replaced_links (
  token_hash text primary key,
  invitation_id uuid not null references invitations (id) on delete cascade,
  replaced_at timestamptz not null default now()
);
create index invitation_replaced_links_invitation_idx on invitation_replaced_links (invitation_id);
