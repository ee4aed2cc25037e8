-- Per-minute viewer counts from the hosted player's beats (docs/decisions.md, Viewer counting).
-- Each API node counts the beats it receives and adds its share of a minute here: the columns
-- are viewer-seconds within the minute (an estimate, so fractional), which add up across nodes
-- and across a node's restart. Averages are these divided by 60. No viewer is identified.

create table viewer_minutes (
  stream_id text not null references streams (id) on delete cascade,
  -- Start of the minute (UTC).
  minute timestamptz not null,
  -- Players on the live player: playing, paused or buffering.
  watching_seconds double precision not null check (watching_seconds >= 0),
  -- Players on the waiting screen (stream pending).
  waiting_seconds double precision not null check (waiting_seconds >= 0),
  -- Of watching: buffering (stalled).
  buffering_seconds double precision not null check (buffering_seconds >= 0),
  -- Of watching: playing or buffering (paused time is not watched); the watch minutes.
  watched_seconds double precision not null check (watched_seconds >= 0),
  -- False once any node's count of this minute was a sampled estimate.
  exact boolean not null,
  primary key (stream_id, minute)
);
