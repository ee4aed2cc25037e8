-- Moderators and bans of a channel (issue 33; docs/decisions.md, "Channels: tokens, moderators,
-- bans, attendance"): a row names one stream or one channel, whose every stream it then covers
-- (the spec's moderation group). `scope_id` is whichever of the two it names (the prefixes keep
-- them apart), so one unique key serves both kinds.

alter table moderators alter column stream_id drop not null;
alter table moderators add column channel_id text references channels (id) on delete cascade;
alter table moderators add constraint moderators_one_scope check (num_nonnulls(stream_id, channel_id) = 1);
alter table moderators add column scope_id text generated always as (coalesce(stream_id, channel_id)) stored;
alter table moderators drop constraint moderators_stream_id_viewer_id_key;
alter table moderators add constraint moderators_scope_viewer unique (scope_id, viewer_id);

alter table bans alter column stream_id drop not null;
alter table bans add column channel_id text references channels (id) on delete cascade;
alter table bans add constraint bans_one_scope check (num_nonnulls(stream_id, channel_id) = 1);
alter table bans add column scope_id text generated always as (coalesce(stream_id, channel_id)) stored;
alter table bans drop constraint bans_stream_id_viewer_id_key;
alter table bans add constraint bans_scope_viewer unique (scope_id, viewer_id);
drop index bans_stream_created;
create index bans_scope_created on bans (scope_id, created_at, id);
drop index bans_stream_network;
create index bans_scope_network on bans (scope_id, network) where network is not null;
