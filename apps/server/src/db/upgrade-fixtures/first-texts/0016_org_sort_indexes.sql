-- Organization lists sorted by name, creation, balance or agent limit, the id breaking ties
-- (scanned backwards for descending). Name is served by organizations_parent_name_idx and
-- organizations_name_idx already.
-- Children of one organization, newest or oldest first.
create index organizations_parent_created_idx on organizations (parent_org_id, created_at, id) where deleted_at is null;
-- Descendants (a path range), walked in creation order and filtered by path.
create index organizations_live_created_idx on organizations (created_at, id) where deleted_at is null;
-- Balance and limit live beside the organization: a large list is walked in their order and
-- joined to the organization by key. A balance change now updates this index too (one more
-- index entry per charge), the price of a sorted page not sorting the whole subtree.
create index billing_balance_idx on organization_billing_settings (credit_balance, organization_id);
create index billing_limit_idx on organization_billing_settings (activated_agent_limit, organization_id);
