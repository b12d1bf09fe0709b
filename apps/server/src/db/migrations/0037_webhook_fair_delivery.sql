-- Fair webhook delivery: the sender leases at most a few attempts at once per endpoint and per
-- organization, round-robin over the endpoints with due deliveries, and pauses an endpoint
-- whose attempts keep timing out, so one organization's receivers that never answer cannot
-- hold the senders every other organization needs.

-- The run of timeouts of the endpoint's attempts (an answer of any status ends it), and until
-- when the endpoint is paused because of it.
alter table webhook_endpoints
  add column timeouts_in_row integer not null default 0 check (timeouts_in_row >= 0),
  add column paused_until timestamptz;

-- Each endpoint's waiting deliveries in the order they fall due: a lease visits the endpoints
-- that have any (one probe each) and takes each one's first due few.
create index webhook_deliveries_endpoint_due_idx on webhook_deliveries (endpoint_id, next_attempt_at) where state = 'pending';

-- The deliveries leased, which every lease counts per endpoint (the attempts in flight).
create index webhook_deliveries_leased_idx on webhook_deliveries (lease_until) include (endpoint_id) where lease_until is not null;

-- The first-in-first-out lease read the due deliveries by time alone; nothing reads that index now.
drop index webhook_deliveries_due_idx;
