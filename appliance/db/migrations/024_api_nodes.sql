-- Several API nodes on one database answer alike (docs/decisions.md, "API nodes: one answer from
-- any node").

-- Rate limits counted across nodes: one fixed window per limit and key, started by the key's
-- first hit. UNLOGGED: nothing here survives a crash worth keeping (a lost window only lets a
-- caller start afresh), and the hot path skips the WAL. Keys are keyed hashes, never addresses.
create unlogged table rate_windows (
  scope text not null,
  key text not null,
  started_at timestamptz not null,
  hits integer not null,
  primary key (scope, key)
);

-- Each node's live viewer figures, so that any node answers with every node's count: rewritten
-- every second by the node that counts them; a node's rows older than a few seconds are dead.
create unlogged table viewer_node_figures (
  node text not null,
  stream_id text not null,
  -- The node's `viewers.now` of the stream (null: nobody on its player now).
  now jsonb,
  -- Watched seconds it counted and has not written to `viewer_minutes` yet.
  pending_watched_seconds double precision not null,
  -- Watched seconds of its largest address (`player.watch_minutes_limit` leaves them out).
  largest_address_seconds double precision not null,
  updated_at timestamptz not null,
  primary key (node, stream_id)
);

-- A job runs once per period cluster-wide, not once per node: a scheduler runs a job that
-- another one started less than half a period ago only when it is that one.
alter table job_runs add column last_run_by text;
