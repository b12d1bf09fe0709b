-- Mail waiting to be sent over SMTP. A request stores its message here and is answered; a
-- background sender delivers it, retrying with growing delays, and deletes it once sent or
-- given up (the text carries live links). `locked_until` lets several server processes
-- share the queue: a sender leases the rows it is sending, and a lease that runs out (the
-- process died mid-send) makes them due again.
create table mail_queue (
  id bigint generated always as identity primary key,
  to_address text not null,
  subject text not null,
  body_text text not null,
  attempts integer not null default 0 check (attempts >= 0),
  next_attempt_at timestamptz not null default now(),
  locked_until timestamptz,
  last_error text,
  created_at timestamptz not null default now()
);

create index mail_queue_due_idx on mail_queue (next_attempt_at, id);
