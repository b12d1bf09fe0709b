-- Credit grants: one grant's versions per page, nearly. 0055 left 70 % of each page free, and
-- with eight usage batches at once a third of the draws still were not heap-only: a page held
-- about fifteen grants, and the waiting batches' snapshots kept some eight versions of each drawn
-- grant from being pruned, more than the room. Each draw that did not fit wrote a new entry in
-- every index of the table and moved the grant to another page, so the table and its indexes
-- grew, and every read of the held grants visited more pages and dead entries. With 90 % free
-- (about five grants a page) the same load made every draw heap-only (41,000 of 41,000, against
-- 196,000 of 236,000 at 30 %). The table stays small beside the ledger: a few grants per
-- organization, a tenth of a page each. Rewritten as in 0055 so the room applies to the grants
-- already there.
alter table credit_grants set (fillfactor = 10);
cluster credit_grants using credit_grants_held_idx;
