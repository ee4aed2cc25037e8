-- Money (docs/decisions.md, Billing): what is charged is a ledger of charges; what was paid is a
-- ledger of credits. Every amount is numeric with 6 decimals (micro-dollars), never a float.

-- Publishing time, the quantity ingest is charged on: one row per connected publisher. Written
-- where a publisher is admitted, leaves or its stream ends, with the appliance's clock.
create table publish_sessions (
  stream_id text not null references streams (id) on delete cascade,
  started_at timestamptz not null,
  ended_at timestamptz check (ended_at >= started_at),
  primary key (stream_id, started_at)
);
create index publish_sessions_open on publish_sessions (stream_id) where ended_at is null;
create index publish_sessions_started on publish_sessions (started_at);

-- Bytes the CDN delivered per stream and minute (the minute of the log line), written by the
-- CDN log reader in the transaction that moves its position, so each byte is counted once.
-- Only what is charged: 2xx answers for playlists, segments and recording downloads.
create table delivery_minutes (
  stream_id text not null references streams (id) on delete cascade,
  minute timestamptz not null,
  bytes bigint not null check (bytes >= 0),
  -- What metering has charged of `bytes` (only metering writes it; the reader only adds to bytes).
  charged_bytes bigint not null default 0,
  primary key (stream_id, minute)
);
create index delivery_minutes_uncharged on delivery_minutes (stream_id) where bytes > charged_bytes;

-- The charges ledger. Natural key: a stream (its recording is charged under it), an item and the
-- period (a minute for ingest and delivery, an hour for storage); a metering run that repeats or
-- was killed half-way finds the row and does not charge it again. Quantities are whole units:
-- seconds (abr_basic, passthrough), bytes (delivery), byte-seconds (storage). Each amount is the
-- rounded running total of its stream and item minus what was charged before, so a stream's
-- charges add up to round(rate x quantity), and sums of amounts are exact.
create table charges (
  stream_id text not null references streams (id) on delete cascade,
  item text not null check (item in ('abr_basic', 'passthrough', 'delivery', 'storage')),
  period_start timestamptz not null,
  account_id text not null references accounts (id) on delete cascade,
  quantity numeric(30, 0) not null check (quantity >= 0),
  amount_usd numeric(20, 6) not null,
  charged_at timestamptz not null,
  primary key (stream_id, item, period_start)
);
create index charges_account_period on charges (account_id, period_start);
-- The credit rules look at accounts charged lately.
create index charges_charged_at on charges (charged_at);

-- Credit added (or taken back with --force) by the operator; accounts.credit_usd is their sum.
create table credits (
  seq bigserial primary key,
  account_id text not null references accounts (id) on delete cascade,
  amount_usd numeric(20, 6) not null,
  created_at timestamptz not null
);
create index credits_account on credits (account_id, created_at);
insert into credits (account_id, amount_usd, created_at)
  select id, credit_usd, created_at from accounts where credit_usd <> 0;

alter table streams
  -- Ingest is charged up to this minute boundary, storage up to this hour boundary.
  add column ingest_metered_until timestamptz,
  add column storage_metered_until timestamptz;
-- What metering still has to look at: streams that published and are not charged to their end,
-- and recordings that occupied disk and are not charged to their deletion.
create index streams_ingest_unmetered on streams (id)
  where went_live_at is not null and (ended_at is null or ingest_metered_until is null or ingest_metered_until < ended_at);
create index streams_storage_unmetered on streams (id)
  where recording_ready_at is not null and (recording_deleted_at is null or storage_metered_until is null or storage_metered_until < recording_deleted_at);

alter table accounts
  -- Sum of the account's charges, kept in the transaction that writes them: balance = credit - charged.
  add column charged_usd numeric(20, 6) not null default 0,
  -- Since when the balance has been at or below zero; null while it is above.
  add column balance_depleted_at timestamptz,
  -- The last balance warning sent (low, then depleted), so each is sent once per crossing.
  add column balance_warning text check (balance_warning in ('low', 'depleted'));
