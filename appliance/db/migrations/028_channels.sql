-- Channels (issue 33; docs/decisions.md, "Channels"): a recurring show. Streams created in a
-- channel take its player and chat settings; its page shows its live stream, else its next
-- pending one, else its latest replay. Viewer tokens, moderators, bans and attendance may be
-- scoped to a channel (its streams are the spec's "moderation group").
create table channels (
  seq bigserial not null unique,
  id text primary key,
  account_id text not null references accounts (id) on delete cascade,
  name text,
  metadata jsonb,
  -- What streams created in the channel start with (the stream create's own fields win).
  player jsonb not null,
  chat jsonb not null,
  created_at timestamptz not null,
  updated_at timestamptz not null
);
create index channels_account_seq on channels (account_id, seq desc);

-- Deleting a channel is refused while it has a pending or live stream; its ended streams keep
-- their history and lose the link.
alter table streams add column channel_id text references channels (id) on delete set null;
create index streams_channel_seq on streams (channel_id, seq desc) where channel_id is not null;
