-- Where the cluster's recorder reads the publish sessions ingest nodes ship (docs/decisions.md,
-- "Ingest nodes: the primary's object storage"): written by a primary at each start; an ingest
-- node with a bucket does not start unless it is this one. One row; nothing secret.
create table cluster_storage (
  one boolean primary key default true check (one),
  -- null: the primary keeps recordings in its data dir, and nodes ship their sessions to the origin.
  bucket text,
  prefix text not null default '',
  -- For the messages only: the same bucket may be reached at different addresses from different machines.
  endpoint text,
  written_by text not null,
  written_at timestamptz not null
);
