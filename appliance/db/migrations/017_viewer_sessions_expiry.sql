-- The viewer-sessions-purge job deletes by expiry in batches (docs/decisions.md, "Hardening:
-- viewer_sessions purged"): without this index each batch would scan the table from the start,
-- past the rows the earlier batches left dead.
create index viewer_sessions_expires_at on viewer_sessions (expires_at);
