-- Viewer identity (docs/decisions.md, "Viewer identity"): sessions opened with viewer tokens,
-- bans that follow the client's viewer id, moderators made by moderator-role tokens, and the
-- attendance of token viewers. Viewer ids are the client's own (a token's `sub`): compared and
-- ordered byte by byte (collation "C"), so that attendance pages are stable on every server.

create table viewer_sessions (
  id text primary key,
  stream_id text not null references streams (id) on delete cascade,
  account_id text not null references accounts (id) on delete cascade,
  viewer_id text collate "C" not null,
  name text,
  role text not null check (role in ('viewer', 'moderator')),
  -- The viewer key that signed the token (kept when the key is deleted: the session goes on).
  key_id text not null,
  created_at timestamptz not null,
  -- The session token's own end (at most 24 hours).
  expires_at timestamptz not null,
  -- The viewer token's `exp`: personal playback addresses are renewed until then.
  access_until timestamptz not null
);
create index viewer_sessions_stream_viewer on viewer_sessions (stream_id, viewer_id);

create table bans (
  id text primary key,
  stream_id text not null references streams (id) on delete cascade,
  viewer_id text collate "C" not null,
  -- The message it was made from, when it was made by message (chat).
  message_id text,
  created_at timestamptz not null,
  unique (stream_id, viewer_id)
);
create index bans_stream_created on bans (stream_id, created_at, id);

create table moderators (
  id text primary key,
  stream_id text not null references streams (id) on delete cascade,
  viewer_id text collate "C" not null,
  name text,
  -- 'token': a moderator-role token signed in (one day after each sign-in).
  source text not null check (source in ('token', 'invitation')),
  active_until timestamptz not null,
  -- Removed by the owner: later tokens do not restore it.
  removed_at timestamptz,
  created_at timestamptz not null,
  unique (stream_id, viewer_id)
);

create table attendance (
  stream_id text not null references streams (id) on delete cascade,
  viewer_id text collate "C" not null,
  name text,
  watch_seconds integer not null default 0 check (watch_seconds >= 0),
  first_seen_at timestamptz not null,
  last_seen_at timestamptz not null,
  primary key (stream_id, viewer_id)
);
