-- The storage sweep's bookkeeping: each queued deletion is tried until it is
-- done (the file removed, already gone, or kept because a live row points at
-- it), with its attempts, last error and when it may be tried again.
alter table private.storage_deletions
  add column attempts integer not null default 0,
  add column last_error text,
  add column next_attempt_at timestamptz,
  add column outcome text check (outcome in ('removed', 'absent', 'in_use'));
