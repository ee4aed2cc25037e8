-- A live stream's media seen reaching the origin while its node is silent to the database (docs/decisions.md,
-- "One broadcast across a node's death"): the node still publishes (only its database link is cut), so
-- a second publisher with the same key on another node is refused while this is recent.
alter table streams add column media_seen_at timestamptz;
