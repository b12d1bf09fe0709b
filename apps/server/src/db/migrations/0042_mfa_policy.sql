-- Require-a-second-factor policy, one row per organization that has ever set one.
-- Each requirement is on while its `_since` is set: the time it was last turned on, from which
-- a person's grace is counted (or from their joining, when later). `own_since`: the
-- organization's own people; `subtree_since`: the people of every organization below it;
-- `admins_since` (the house only): every admin role anywhere in the tree. `grace_days` is how
-- long a covered person without a factor may still work before only enrollment is left.
create table mfa_policies (
  organization_id uuid primary key references organizations (id),
  own_since timestamptz,
  subtree_since timestamptz,
  admins_since timestamptz,
  grace_days integer not null default 7 check (grace_days between 0 and 14),
  updated_by uuid references users (id),
  updated_at timestamptz not null default now()
);
