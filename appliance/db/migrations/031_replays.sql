-- Replays (issue 33; docs/decisions.md, "Replays (issue 33)"): a stream with `replay` true and a
-- ready recording is offered as HLS VOD, remuxed from the MP4 into the recording's folder. Set
-- when those files are there; the recording's status says whether they still are.
alter table streams add column replay_made_at timestamptz;
alter table streams add column replay_attempts integer not null default 0;
-- The recordings job's look for replays to make, and the public refusals' rebuild (every few
-- seconds on every node) of players whose replay is offered: neither scans the ended streams.
create index streams_replay_due on streams (recording_ready_at)
  where replay and recording_status = 'ready' and replay_made_at is null;
create index streams_replay_offered on streams (id)
  where status = 'ended' and replay and recording_status = 'ready' and replay_made_at is not null;
