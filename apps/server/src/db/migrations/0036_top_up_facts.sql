-- What each automatic top-up request was for, so that a parent sees it on its child's spend
-- controls: the child's balance when the request was queued and, for usage refused for want
-- of credits, what the refused events would have charged. The top-up runner re-checks the
-- refusal against it under the balance locks: a refusal is topped up only when the balance
-- is below the line, or when one top-up of the set amount lets the refused events through.
alter table top_up_requests
  add column balance numeric(16, 2),
  add column refused numeric(16, 2) check (refused > 0);
