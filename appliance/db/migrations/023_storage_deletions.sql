-- Deletions that must reach the object storage (docs/decisions.md, "Object storage"): a recording
-- deleted by its owner, by retention or at zero balance, and the session pieces it was made from.
-- Written in the transaction that deletes the recording, done by the `storage-deletions` job,
-- retried with backoff until the bucket answers: a deletion is never lost.
create table storage_deletions (
  prefix text primary key check (prefix ~ '^[a-z]+/str_[a-z0-9]{20}/$'),
  requested_at timestamptz not null,
  attempts integer not null default 0,
  next_attempt_at timestamptz not null,
  last_error text
);

create index storage_deletions_due on storage_deletions (next_attempt_at);
