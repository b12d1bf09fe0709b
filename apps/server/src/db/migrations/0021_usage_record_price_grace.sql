-- usage_record takes a seventh argument, the price grace of a key's report (its rule file
-- creates the new function). The six-argument function goes first: beside a seven-argument
-- one, calls would name two functions.
drop function usage_record(jsonb, text, uuid, uuid, interval, interval);
