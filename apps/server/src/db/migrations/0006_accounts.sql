-- Each rate-limit count deletes a few expired rows, found through this index.
create index rate_limits_reset_idx on rate_limits (reset_at);
