-- When a person last became an admin: set when a role change gives an admin role to someone who
-- held none. The house's requirement of a second factor for every admin role counts a person's
-- grace from the later of its switching on and this (or their joining, while this is null), so
-- a person promoted long after joining gets the whole grace, not a deadline already past.
alter table users add column admin_since timestamptz;
