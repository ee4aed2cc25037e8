-- Ingest nodes (docs/decisions.md, "Ingest nodes"): the machines that take publishers and run
-- ladders, sharing this database. The primary is one of them. A node's credential for the origin
-- is derived from the signing key and its id: nothing secret is stored here but the hash of a
-- join token while it waits to be used.
create table nodes (
  id text primary key check (id ~ '^nod_[a-z0-9]{20}$'),
  name text not null unique check (name ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
  -- `active`: takes new reservations; `draining`: its live streams finish, nothing new comes;
  -- `removed`: gone (kept for the streams that name it).
  status text not null default 'active' check (status in ('active', 'draining', 'removed')),
  -- sha256 of the one-use join token; null once joined (and for the primary, which never joins).
  join_token_hash bytea unique,
  join_expires_at timestamptz,
  joined_at timestamptz,
  -- What the node said of itself at its last heartbeat: where publishers reach it, what it can carry.
  rtmp_url text,
  whip_url text,
  srt_host text,
  cores numeric,
  reserved_cores numeric,
  -- The ladder load it measured (cores busy with its ladders, from /proc), and whether its nginx takes publishers.
  measured_load numeric,
  ingest_ready boolean not null default false,
  last_seen_at timestamptz,
  created_at timestamptz not null,
  drained_at timestamptz,
  removed_at timestamptz
);

-- The node a stream's capacity is reserved on (pending) or whose ladder runs it (live).
alter table streams add column node_id text references nodes (id);
create index streams_node_active on streams (node_id) where status in ('pending', 'live');
