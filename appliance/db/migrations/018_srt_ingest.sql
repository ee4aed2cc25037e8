-- SRT ingest (docs/decisions.md, "SRT ingest (issue 29)"): each stream that can be published to
-- holds one UDP port of the srt range, given at creation; a finished stream's port is free again.
alter table streams add column srt_port integer;
create unique index streams_srt_port_open on streams (srt_port) where status in ('pending', 'live');
-- Set at admission when the publisher comes through the SRT relay: capacity reserves its CPU.
alter table streams add column ingest_relay text check (ingest_relay in ('srt'));
