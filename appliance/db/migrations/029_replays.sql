-- Replays (issue 33; docs/decisions.md, "Replays (issue 33)"): a stream with `replay` true and a
-- ready recording is offered as HLS VOD, remuxed from the MP4 into the recording's folder. Set
-- when those files are there; the recording's status says whether they still are.
alter table streams add column replay_made_at timestamptz;
alter table streams add column replay_attempts integer not null default 0;
