-- The usage engine in three steps (rules: usage_batch_facts, usage_decide, usage_post), which
-- pass these composite types between them. usage_record now answers each refusal's detail as
-- structured JSON rather than text: a function's result type cannot be replaced in place, so
-- the old one goes first and its rule file creates the new one.
drop function if exists usage_record(jsonb, text, uuid, uuid, interval, interval, interval, interval);

-- A cap an event is counted against: the reporting key's, its activation's, or the spend cap
-- of its organization or one above it, in one month. `charged` and `alerted` are the month
-- row's as locked; `hit` marks a cap that refused an event of the batch.
create type usage_cap as (
  scope text,
  scope_id uuid,
  month date,
  cap numeric,
  organization_id uuid,
  name text,
  charged numeric,
  alerted integer,
  hit boolean
);

-- What the engine knows of one event before deciding it (usage_batch_facts).
create type usage_fact as (
  i integer,
  org uuid,
  id text,
  agent text,
  units numeric,
  occurred timestamptz,
  meta jsonb,
  first_i integer,
  reachable boolean,
  active boolean,
  duplicate boolean,
  duplicate_charged numeric,
  agent_id uuid,
  live boolean,
  priced boolean,
  price numeric,
  chain numeric[],
  sellers uuid[],
  month date,
  balance numeric,
  carry numeric,
  caps usage_cap[]
);

-- An event's outcome (usage_decide): accepted, duplicate or rejected, the reason, the detail
-- a message needs, and which of the batch's caps refused it.
create type usage_decision as (
  outcome text,
  reason text,
  detail jsonb,
  cap integer
);

-- An accepted event as usage_post writes it, with the carry of its organization and agent
-- type after it.
create type usage_accepted as (
  org uuid,
  id text,
  agent_id uuid,
  agent text,
  units numeric,
  price numeric,
  cost numeric,
  charged numeric,
  occurred timestamptz,
  meta jsonb,
  chain numeric[],
  sellers uuid[],
  carry numeric,
  carry_stored boolean
);
