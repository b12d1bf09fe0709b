-- Invoices down the tree (issue 42): each seller (the house, a super agency, an agency) bills
-- its direct children for the credits it moved to them.
--
-- billing_details: what a seller prints on its invoices. Read when an invoice is issued and
-- copied into it, so a change reaches only invoices not yet issued.
create table billing_details (
  organization_id uuid primary key references organizations (id),
  legal_name text not null check (length(legal_name) between 1 and 200),
  address text not null check (length(address) between 1 and 500),
  tax_id text not null default '' check (length(tax_id) <= 50),
  currency text not null check (currency ~ '^[A-Z]{3}$'),
  credit_price numeric(12, 4) not null check (credit_price >= 0),
  tax_rate numeric(6, 3) not null check (tax_rate >= 0 and tax_rate <= 100),
  tax_label text not null check (length(tax_label) between 1 and 30),
  terms_days integer not null check (terms_days between 0 and 365),
  number_prefix text not null default '' check (number_prefix ~ '^[A-Za-z0-9-]{0,12}$'),
  note text check (length(note) <= 1000),
  updated_at timestamptz not null default now(),
  updated_by uuid references users (id)
);

-- The last number each seller gave. The issuing transaction takes the next one with the row
-- locked, so numbers have no gaps: a transaction that rolls back gives its number back.
create table invoice_counters (
  seller_id uuid primary key references organizations (id),
  last_number integer not null default 0 check (last_number >= 0)
);

-- An issued invoice or credit note: frozen (a trigger refuses every change but voiding).
-- Drafts are not stored: a child's draft is its billable ledger entries no issued document
-- holds yet, priced at the seller's current details.
create table invoices (
  id uuid primary key default gen_random_uuid(),
  seller_id uuid not null references organizations (id),
  buyer_id uuid not null references organizations (id),
  kind text not null check (kind in ('invoice', 'credit_note')),
  number integer not null check (number > 0),
  number_text text not null,
  -- The month it bills (its first day).
  period date not null check (extract(day from period) = 1),
  issued_at timestamptz not null default now(),
  due_on date not null,
  currency text not null,
  credit_price numeric(12, 4) not null,
  tax_rate numeric(6, 3) not null,
  tax_label text not null,
  terms_days integer not null,
  note text,
  -- The parties as printed: {id, name, legal_name, address, tax_id}.
  seller jsonb not null,
  buyer jsonb not null,
  subtotal numeric(18, 2) not null,
  tax numeric(18, 2) not null,
  total numeric(18, 2) not null,
  -- The buyer's ledger chain head at the end of the period, or at issue within it.
  verification_code text,
  created_by uuid references users (id),
  voided_at timestamptz,
  voided_by uuid references users (id),
  void_reason text,
  unique (seller_id, number),
  check (kind = 'invoice' or total <= 0),
  check ((voided_at is null) = (void_reason is null))
);
create index invoices_buyer_idx on invoices (buyer_id, issued_at desc);
create index invoices_seller_idx on invoices (seller_id, issued_at desc);

-- One line per billed ledger entry (the buyer's side); an entry is billed at most once.
create table invoice_lines (
  invoice_id uuid not null references invoices (id),
  n integer not null,
  entry_id uuid not null unique references credit_ledger_entries (id),
  occurred_at timestamptz not null,
  kind text not null check (kind in ('allocation', 'initial_balance', 'top_up', 'reversal')),
  description text not null,
  credits numeric(16, 2) not null,
  unit_price numeric(12, 4) not null,
  amount numeric(18, 2) not null,
  reference text not null,
  primary key (invoice_id, n)
);

-- Payments against an invoice. Never deleted: a reversal marks one, saying why.
create table invoice_payments (
  id uuid primary key default gen_random_uuid(),
  invoice_id uuid not null references invoices (id),
  amount numeric(18, 2) not null check (amount > 0),
  paid_on date not null,
  method text not null check (method in ('bank_transfer', 'card', 'cash', 'check', 'other')),
  reference text not null default '',
  created_by uuid references users (id),
  created_at timestamptz not null default now(),
  reversed_at timestamptz,
  reversed_by uuid references users (id),
  reverse_reason text,
  check ((reversed_at is null) = (reverse_reason is null))
);
create index invoice_payments_invoice_idx on invoice_payments (invoice_id);
create index invoice_payments_seller_day_idx on invoice_payments (paid_on);

-- Overdue reminders sent: the first at the due date, then one a week, bounded by a count.
-- The key makes each one go out once however many processes look.
create table invoice_reminders (
  invoice_id uuid not null references invoices (id),
  n integer not null check (n >= 1),
  sent_at timestamptz not null default now(),
  primary key (invoice_id, n)
);

-- invoice.* events: sent to the seller's and the billed child's endpoints only.
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
  'webhook.test'));
