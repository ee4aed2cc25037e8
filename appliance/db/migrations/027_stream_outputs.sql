-- Restreaming (issue 32; docs/decisions.md, "Restreaming"): where a live stream is pushed as sent
-- (YouTube, Twitch, any RTMP(S)/SRT server). Written by the API (what the owner asks), and by the
-- node that pushes (status, last_error, connected_at, bytes_sent). At most 5 per stream (the API
-- counts under the stream's row lock).
create table stream_outputs (
  seq bigserial not null unique,
  id text primary key,
  stream_id text not null references streams (id) on delete cascade,
  account_id text not null references accounts (id) on delete cascade,
  name text,
  -- rtmp://, rtmps:// or srt:// without the key.
  url text not null,
  -- Secret: never read back whole (shown masked).
  stream_key text not null,
  enabled boolean not null default true,
  status text not null default 'idle' check (status in ('idle', 'connecting', 'active', 'errored')),
  last_error text,
  connected_at timestamptz,
  bytes_sent bigint not null default 0,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index stream_outputs_stream on stream_outputs (stream_id, seq);
