-- Chat, reactions and moderation (docs/decisions.md, "Chat").

alter table streams add column chat jsonb not null
  default '{"enabled": true, "anonymous_posting": true, "slow_mode_seconds": 0, "reaction_sampling": null}';

-- One row per stream with chat: the last position of its feed. Every event takes the next
-- position under this row's lock, so positions commit in order and a feed never skips one.
create table chat_feeds (
  stream_id text primary key references streams (id) on delete cascade,
  last_seq bigint not null default 0
);

create table chat_messages (
  id text primary key,
  stream_id text not null references streams (id) on delete cascade,
  -- The feed position of the post.
  seq bigint not null,
  -- A token's `sub`, `anon:<client id>` for anonymous posters, a moderator id for link moderators.
  viewer_id text collate "C" not null,
  -- Anonymous posts only: a keyed hash of the poster's network (IPv4 address, IPv6 /64), never the address.
  network text,
  name text not null,
  verified boolean not null,
  role text not null check (role in ('viewer', 'moderator')),
  text text not null,
  -- Shadowed: its author was banned; only the author's own feed shows it.
  hidden boolean not null default false,
  created_at timestamptz not null,
  deleted_at timestamptz,
  -- 'owner' or the moderator id (`mod_...`) that deleted it.
  deleted_by text
);
create index chat_messages_stream_seq on chat_messages (stream_id, seq);
create index chat_messages_stream_viewer on chat_messages (stream_id, viewer_id, created_at);

-- The feed: what every node fans out, and what a reconnecting reader resumes from.
create table chat_events (
  stream_id text not null references streams (id) on delete cascade,
  seq bigint not null,
  kind text not null check (kind in ('message', 'delete', 'settings')),
  payload jsonb not null,
  -- Shown to this viewer only (a shadowed post), or to everyone but this viewer (hiding a banned viewer's posts).
  only_viewer text,
  except_viewer text,
  created_at timestamptz not null,
  primary key (stream_id, seq)
);

-- Anonymous bans also follow the network the banned message came from.
alter table bans add column network text;
-- 'owner' or the moderator id (`mod_...`) that made it.
alter table bans add column created_by text not null default 'owner';
create index bans_stream_network on bans (stream_id, network) where network is not null;
