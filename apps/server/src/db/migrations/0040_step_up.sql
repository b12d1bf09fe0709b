-- Step-up: moving money and secrets asks for a second factor (or the password of a person
-- without one) proved within a short window.

-- When the session last proved it: a sign-in that gave the password (and the second factor
-- when the person has one) proves it at that moment, as does a step-up. Null: never.
alter table refresh_sessions add column stepped_up_at timestamptz;

-- Allocations and adjustments above this many credits ask for a step-up; the house's admins set it.
alter table global_settings add column step_up_threshold numeric(16, 2) not null default 1000.00
  check (step_up_threshold >= 0);
