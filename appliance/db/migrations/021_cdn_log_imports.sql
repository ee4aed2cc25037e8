-- Logs of third-party CDNs imported with `svc cdn import` (docs/decisions.md, "Any CDN in front").
-- A file is known by the sha256 of its content (decompressed): its row is written in the
-- transaction that adds what it counts, so a file counts once, however often it is imported.
create table cdn_log_imports (
  digest text primary key check (digest ~ '^[0-9a-f]{64}$'),
  -- The CDN it came from (an edge of kind `cdn`, migration 020).
  source text not null references edges (id),
  -- The file's name at its first import, for the operator.
  file_name text not null,
  lines bigint not null,
  skipped bigint not null,
  delivered_bytes bigint not null,
  first_time timestamptz,
  last_time timestamptz,
  imported_at timestamptz not null
);

create index cdn_log_imports_source on cdn_log_imports (source, imported_at);
