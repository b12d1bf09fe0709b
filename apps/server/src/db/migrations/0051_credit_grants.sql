-- Credit grants: credits with terms. An allocation, an automatic top-up or an adjustment may
-- carry an expiry instant, a scope (a list of agent types) and a priority (0 to 100); the
-- credits it brings are then a grant of the organization that receives them, drawn down by
-- its consumption and, at its instant, expired back to the organization that granted it.
--
-- Credits without terms are the organization's open credits, as all credits were before:
-- they are not stored as rows but are what the balance holds beyond its grants' remainders
-- (balance - sum(remaining)), so every existing balance is one open grant as it stands.
-- Every change of a grant is made under its organization's balance lock (ledger_post and
-- the expiry both take it first), so the balance row orders them.
create table credit_grants (
  id uuid primary key default gen_random_uuid(),
  organization_id uuid not null references organizations (id),
  -- Where the remainder goes at expiry: the sender of the credits, or the house itself for
  -- its own adjustments.
  granted_by uuid not null references organizations (id),
  -- The ledger entry that brought the credits.
  entry_id uuid not null,
  amount numeric(16, 2) not null check (amount > 0),
  remaining numeric(16, 2) not null check (remaining >= 0 and remaining <= amount),
  priority smallint not null default 0 check (priority between 0 and 100),
  expires_at timestamptz,
  -- null: every agent; otherwise only events of these agent types draw from it.
  agent_type_ids uuid[] check (agent_type_ids is null or cardinality(agent_type_ids) between 1 and 100),
  created_at timestamptz not null,
  -- Set once, by the expiry that took the remainder (or found none).
  expired_at timestamptz,
  -- The last warning sent before the expiry, in days ahead (7, then 1).
  warned_days integer,
  check (expired_at is null or expires_at is not null)
) with (fillfactor = 80);
-- No index names `remaining`, and each page keeps room: a draw, which changes only
-- `remaining`, is a heap-only update that touches no index.
create index credit_grants_held_idx on credit_grants (organization_id);
create index credit_grants_due_idx on credit_grants (expires_at) where expired_at is null and expires_at is not null;
create index credit_grants_entry_idx on credit_grants (entry_id);

-- Each movement of a grant, by the ledger entry that made it: its creation (+amount), each
-- draw by a consumption, an allocation onward or a reversal (-), its expiry (-remainder).
-- Append-only; a grant's remaining is the sum of its moves (db:reconcile checks it), and the
-- part of an entry not covered by moves came from, or went to, the open credits.
-- Grants are never deleted, so the grant a move names is not checked by a foreign key (a
-- trigger per row on the usage engine's hot path); db:reconcile finds a move without its grant.
create table credit_grant_moves (
  entry_id uuid not null,
  grant_id uuid not null,
  amount numeric(16, 2) not null check (amount <> 0),
  primary key (entry_id, grant_id)
);
create index credit_grant_moves_grant_idx on credit_grant_moves (grant_id);

-- An expiry is a pair of entries: `expiry` takes a grant's remainder from its holder,
-- `expiry_returned` gives it to the organization that granted it (as open credits).
alter table credit_ledger_entries drop constraint credit_ledger_entries_entry_type_check;
alter table credit_ledger_entries add constraint credit_ledger_entries_entry_type_check check (entry_type in (
  'initial_balance', 'allocation_sent', 'allocation_received', 'consumption', 'refund',
  'adjustment_increase', 'adjustment_decrease', 'earning', 'reversal_sent', 'reversal_received',
  'expiry', 'expiry_returned'
));
alter table credit_ledger_entries drop constraint credit_ledger_entries_check;
alter table credit_ledger_entries add constraint credit_ledger_entries_check check (
  (entry_type in ('allocation_sent', 'consumption', 'adjustment_decrease', 'reversal_sent', 'expiry') and amount < 0)
  or (entry_type in ('initial_balance', 'allocation_received', 'refund', 'adjustment_increase', 'earning', 'reversal_received',
                     'expiry_returned') and amount > 0)
);

-- Each accepted event carries the grants it drew from ({grant id: amount}) to usage_post.
alter type usage_accepted add attribute draws jsonb;

-- ledger_post takes each entry's terms and draws: the old signature goes, so no call can
-- match two versions.
drop function if exists ledger_post(uuid, uuid, boolean, uuid[], numeric[], text[], jsonb[], text[], text[], uuid[], numeric[], uuid[]);
drop function if exists credits_allocate(uuid, uuid, text, boolean, uuid, text, text, text, text, interval, text, text);
drop function if exists credits_adjust(uuid, uuid, text, text, text, text, text);

-- Grants tell their holders: before they expire (credits.expiring) and when they have.
alter table webhook_events drop constraint webhook_events_type_check;
alter table webhook_events add constraint webhook_events_type_check check (type in (
  'balance.low', 'balance.recovered', 'usage.refused', 'credits.allocated', 'credits.adjusted',
  'agent_limit.warning', 'agent_limit.critical', 'agent_limit.changed',
  'agent.activated', 'agent.deactivated', 'agent.error',
  'api_key.created', 'api_key.rolled', 'api_key.revoked',
  'organization.created', 'organization.suspended', 'organization.deleted',
  'invitation.accepted', 'spend_cap.reached', 'top_up.succeeded', 'top_up.failed',
  'member.factor_added', 'member.factor_removed', 'member.factors_reset', 'organization.mfa_policy_changed',
  'invoice.issued', 'invoice.paid', 'invoice.overdue',
  'credits.expiring', 'credits.expired',
  'webhook.test'));

-- An automatic top-up's terms: each top-up's credits expire that many days after it, are
-- limited to those agent types and drawn at that priority ({expires_after_days,
-- agent_type_ids, priority}); null: open credits.
alter table organization_billing_settings add column top_up_terms jsonb;
