-- Every relay of the appliance's own that carries a publisher's media holds capacity
-- (docs/decisions.md, "Public edge"): the SRT relay, RTMPS's TLS in nginx, the WHIP relay.
alter table streams drop constraint streams_ingest_relay_check;
alter table streams add constraint streams_ingest_relay_check check (ingest_relay in ('srt', 'rtmps', 'whip'));
