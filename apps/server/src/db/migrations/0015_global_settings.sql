-- The global settings: one row, kept by the house's admins and read by every page. Links
-- are absolute http(s) addresses (checked by the API; the checks here keep the row sane).
create table global_settings (
  id boolean primary key default true check (id),
  documentation_url text check (char_length(documentation_url) <= 2048),
  billing_portal_url text check (char_length(billing_portal_url) <= 2048),
  -- Up to two community channels, each a name with its link, or neither.
  community_1_name text check (char_length(community_1_name) between 1 and 60),
  community_1_url text check (char_length(community_1_url) <= 2048),
  community_2_name text check (char_length(community_2_name) between 1 and 60),
  community_2_url text check (char_length(community_2_url) <= 2048),
  updated_at timestamptz,
  updated_by uuid references users (id),
  constraint global_settings_channel_1 check ((community_1_name is null) = (community_1_url is null)),
  constraint global_settings_channel_2 check ((community_2_name is null) = (community_2_url is null)),
  -- The second channel is set only beside a first.
  constraint global_settings_channels_in_order check (community_2_name is null or community_1_name is not null)
);
insert into global_settings (id) values (true);
