-- The edge tier (docs/decisions.md, "Edge tier"): delivery machines and third-party CDNs in front
-- of the origin. An edge's credential is derived from the appliance's signing key and its id, so
-- nothing secret is stored here but the hash of a join token while it waits to be used.
create table edges (
  id text primary key check (id ~ '^edg_[a-z0-9]{20}$'),
  name text not null unique check (name ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
  -- `edge`: an svc edge that ships its log; `cdn`: a third-party CDN whose logs are imported.
  kind text not null check (kind in ('edge', 'cdn')),
  -- sha256 of the one-use join token; null once joined (and for a CDN).
  join_token_hash bytea unique,
  join_expires_at timestamptz,
  joined_at timestamptz,
  -- What the edge said of itself at its last heartbeat.
  address text,
  last_seen_at timestamptz,
  nginx_up boolean,
  -- Requests the edge served, counted from its log in the transaction that moves its position
  -- (so exactly once, like the bytes billed).
  requests bigint not null default 0,
  cache_hits bigint not null default 0,
  cache_misses bigint not null default 0,
  bytes_served bigint not null default 0,
  created_at timestamptz not null,
  removed_at timestamptz
);

-- One reader position per log: `origin` (this appliance's own nginx) and one per edge (its id).
-- Counting (`counted_until` of usage and viewers) is as far as the slowest source not retired.
alter table cdn_log_position add column source text;
update cdn_log_position set source = 'origin';
alter table cdn_log_position drop constraint cdn_log_position_pkey;
alter table cdn_log_position drop column id;
alter table cdn_log_position alter column source set not null;
alter table cdn_log_position add primary key (source);
-- A removed edge's log no longer holds counting back.
alter table cdn_log_position add column retired_at timestamptz;
