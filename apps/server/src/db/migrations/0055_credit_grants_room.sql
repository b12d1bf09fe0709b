-- Credit grants: more room on each page. A draw changes only `remaining`, which no index
-- names, so it can be a heap-only update that touches no index, but only when the grant's
-- page has room for the new version. A batch of usage draws one grant per organization and
-- agent, and while other batches wait for their locks their snapshots keep the old versions
-- from being pruned: with a page only a fifth free, it filled after one batch and most draws
-- wrote a new entry in every index of the table. A page 70 % free holds several batches'
-- versions. The table is rewritten (clustered by organization, the order the held grants are
-- read in) so the room applies to the grants already there.
alter table credit_grants set (fillfactor = 30);
cluster credit_grants using credit_grants_held_idx;
