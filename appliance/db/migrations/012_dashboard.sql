-- The operator dashboard (docs/decisions.md, Operator dashboard).

-- A live stream's ingest over time: the live tick stores one measurement per stream every
-- 10 seconds at most (streams.ingest keeps only the latest). Kept 7 days (the
-- `ingest-samples-purge` job), and with the stream (cascade).
create table ingest_samples (
  stream_id text not null references streams (id) on delete cascade,
  at timestamptz not null,
  kbps integer,
  width integer,
  height integer,
  keyframe_interval_seconds real,
  limit_warning text check (limit_warning in ('limit_bitrate', 'limit_resolution')),
  keyframe_warning boolean not null,
  primary key (stream_id, at)
);
create index ingest_samples_at on ingest_samples (at);

-- The operator token's generation: the token is derived from the signing key and this number,
-- so it survives restarts and is never stored; `svc dashboard --rotate` adds one, which revokes
-- the token before. One row.
create table dashboard_access (
  only_row boolean primary key default true check (only_row),
  generation integer not null check (generation > 0),
  rotated_at timestamptz
);
insert into dashboard_access (generation) values (1);
