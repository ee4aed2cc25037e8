-- Accounts, keys, streams, idempotency records and the events outbox.

create table accounts (
  id text primary key,
  name text not null,
  state text not null check (state in ('pending', 'active', 'suspended')),
  trusted boolean not null default false,
  billing_mode text not null default 'prepaid' check (billing_mode in ('prepaid', 'postpaid')),
  credit_usd numeric(20, 6) not null default 0,
  recording_retention_days integer default 30 check (recording_retention_days between 1 and 3650),
  created_at timestamptz not null
);

create table api_keys (
  id text primary key,
  account_id text not null references accounts (id) on delete cascade,
  token_hash bytea not null unique,
  last4 text not null,
  created_at timestamptz not null,
  revoked_at timestamptz
);
create index api_keys_account on api_keys (account_id) where revoked_at is null;

create table viewer_keys (
  id text primary key,
  account_id text not null references accounts (id) on delete cascade,
  -- Kept in the clear: it is the HMAC key that verifies viewer tokens (HS256).
  secret text not null,
  created_at timestamptz not null,
  revoked_at timestamptz
);
create index viewer_keys_account on viewer_keys (account_id) where revoked_at is null;

create table streams (
  seq bigserial not null unique,
  id text primary key,
  account_id text not null references accounts (id) on delete cascade,
  name text,
  status text not null check (status in ('pending', 'live', 'ended', 'expired', 'cancelled')),
  profile text not null check (profile in ('abr_basic', 'passthrough')),
  record boolean not null,
  replay boolean not null default false,
  max_resolution integer not null check (max_resolution in (480, 720, 1080)),
  max_duration_seconds integer not null,
  recording_retention_days integer check (recording_retention_days between 1 and 3650),
  metadata jsonb,
  player jsonb not null,
  key_hash bytea not null,
  created_at timestamptz not null,
  reservation_expires_at timestamptz not null,
  went_live_at timestamptz,
  ended_at timestamptz,
  end_reason text check (end_reason in ('deleted', 'disconnected', 'duration_limit', 'reservation_ttl',
    'limit_bitrate', 'limit_resolution', 'insufficient_credit', 'simulcast_not_supported', 'provision_failed')),
  recording_status text check (recording_status in ('recording', 'processing', 'ready', 'deleting', 'deleted',
    'failed', 'not_recorded', 'none', 'legacy'))
);
create index streams_account_seq on streams (account_id, seq desc);
create index streams_account_status_seq on streams (account_id, status, seq desc);
create index streams_account_created on streams (account_id, created_at);
create index streams_pending_expiry on streams (reservation_expires_at) where status = 'pending';

create table idempotency_keys (
  account_id text not null references accounts (id) on delete cascade,
  key text not null,
  request_hash bytea not null,
  response_status integer not null,
  -- AES-256-GCM sealed: the first response holds the stream key.
  response_sealed bytea not null,
  created_at timestamptz not null,
  primary key (account_id, key)
);
create index idempotency_keys_created on idempotency_keys (created_at);

create table events (
  seq bigserial primary key,
  id text not null unique,
  type text not null,
  account_id text not null references accounts (id) on delete cascade,
  stream_id text,
  payload jsonb not null,
  created_at timestamptz not null
);
create index events_account_seq on events (account_id, seq);
