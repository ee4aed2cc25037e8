-- A stream's audience figures, kept by PostgreSQL (docs/decisions.md, "The read path", issue 16):
-- a stream's read looks one row up instead of aggregating its minutes on every read. Triggers on
-- every table the figures come from recompute the figures of the streams a statement touched.

create table stream_audience (
  stream_id text primary key references streams (id) on delete cascade,
  -- The hosted player's minutes (viewer_minutes): how many, the watched seconds, and the minute
  -- with the most watching seconds (the earliest of equals; null without minutes).
  player_minutes integer not null default 0,
  watched_seconds double precision not null default 0,
  peak_minute timestamptz,
  peak_watching_seconds double precision,
  -- The CDN log: anything of the stream counted (viewers or bytes); viewer-minutes (the sum of
  -- each minute's viewers, compacted and not yet); the minute with the most viewers (the earliest
  -- of equals; null without viewers).
  cdn_has_data boolean not null default false,
  cdn_watch_minutes bigint not null default 0,
  cdn_peak_minute timestamptz,
  cdn_peak integer
);

-- Creates the streams' rows and locks them in stream-id order, so that concurrent writers of the
-- same streams (two nodes flushing minutes, the CDN reader) wait for each other instead of
-- deadlocking. A writer whose transaction fires several of the triggers below (an upsert fires
-- the insert and the update trigger) calls it first with every stream it will write: the
-- triggers then find the locks held. Streams deleted meanwhile are skipped (their rows go with them).
create function lock_stream_audience(ids text[]) returns void language plpgsql as $$
begin
  insert into stream_audience (stream_id)
  select u.id from unnest(ids) u (id) where exists (select 1 from streams s where s.id = u.id) order by u.id
  on conflict (stream_id) do nothing;
  perform 1 from stream_audience where stream_id = any (ids) order by stream_id for update;
end $$;

-- Under READ COMMITTED each statement here sees what committed before it started: the recompute
-- runs after the lock is held, so it sees the rows of a transaction that held it before (another
-- node's minutes of the same stream) and none is lost.
create function refresh_stream_audience(ids text[]) returns void language plpgsql as $$
begin
  if cardinality(ids) = 0 then
    return;
  end if;
  perform lock_stream_audience(ids);
  update stream_audience a set
    player_minutes = p.minutes,
    watched_seconds = p.watched_seconds,
    peak_minute = p.peak_minute,
    peak_watching_seconds = p.peak_watching_seconds,
    cdn_has_data = c.minutes > 0 or exists (select 1 from delivery_minutes d where d.stream_id = u.id),
    cdn_watch_minutes = c.watch_minutes,
    cdn_peak_minute = c.peak_minute,
    cdn_peak = c.peak
  from unnest(ids) u (id)
  cross join lateral (
    select count(*)::int as minutes, coalesce(sum(v.watched_seconds), 0)::float8 as watched_seconds,
      (array_agg(v.minute order by v.watching_seconds desc, v.minute))[1] as peak_minute,
      max(v.watching_seconds) as peak_watching_seconds
    from viewer_minutes v where v.stream_id = u.id
  ) p
  cross join lateral (
    select count(*) as minutes, coalesce(sum(m.viewers), 0)::bigint as watch_minutes,
      (array_agg(m.minute order by m.viewers desc, m.minute))[1] as peak_minute,
      max(m.viewers) as peak
    from (
      select x.minute, sum(x.viewers)::int as viewers from (
        select minute, viewers from cdn_viewer_minutes where stream_id = u.id
        union all
        select minute, count(*)::int from cdn_viewer_ids where stream_id = u.id group by minute
      ) x group by x.minute
    ) m
  ) c
  where a.stream_id = u.id;
end $$;

-- The streams of the rows a statement inserted, updated (before and after) or deleted. Triggers
-- with transition tables have one event each.
create function stream_audience_inserted() returns trigger language plpgsql as $$
begin
  perform refresh_stream_audience(array(select distinct stream_id from new_rows));
  return null;
end $$;

create function stream_audience_updated() returns trigger language plpgsql as $$
begin
  perform refresh_stream_audience(array(select stream_id from old_rows union select stream_id from new_rows));
  return null;
end $$;

create function stream_audience_deleted() returns trigger language plpgsql as $$
begin
  perform refresh_stream_audience(array(select distinct stream_id from old_rows));
  return null;
end $$;

-- An update of delivery_minutes (billing marks bytes charged; the reader adds bytes) changes a
-- stream's figures only when it moves rows between streams: only `cdn_has_data` reads the table,
-- and only whether rows exist.
create function stream_audience_delivery_updated() returns trigger language plpgsql as $$
begin
  perform refresh_stream_audience(array(
    select stream_id from (
      select stream_id, 1 as n from old_rows union all select stream_id, -1 from new_rows
    ) r group by stream_id having sum(n) <> 0));
  return null;
end $$;

-- What happens to them: the player's minutes are inserted and updated (flush, on conflict); the
-- CDN log's viewer ids inserted and deleted (compaction), its compacted minutes and its bytes
-- inserted and updated (on conflict; billing marks bytes charged); all deleted with their stream.
-- Every event is kept, whether or not the product makes it today (tests truncate).
create trigger viewer_minutes_audience_insert after insert on viewer_minutes
  referencing new table as new_rows for each statement execute function stream_audience_inserted();
create trigger viewer_minutes_audience_update after update on viewer_minutes
  referencing old table as old_rows new table as new_rows for each statement execute function stream_audience_updated();
create trigger viewer_minutes_audience_delete after delete on viewer_minutes
  referencing old table as old_rows for each statement execute function stream_audience_deleted();
create trigger cdn_viewer_ids_audience_insert after insert on cdn_viewer_ids
  referencing new table as new_rows for each statement execute function stream_audience_inserted();
create trigger cdn_viewer_ids_audience_update after update on cdn_viewer_ids
  referencing old table as old_rows new table as new_rows for each statement execute function stream_audience_updated();
create trigger cdn_viewer_ids_audience_delete after delete on cdn_viewer_ids
  referencing old table as old_rows for each statement execute function stream_audience_deleted();
create trigger cdn_viewer_minutes_audience_insert after insert on cdn_viewer_minutes
  referencing new table as new_rows for each statement execute function stream_audience_inserted();
create trigger cdn_viewer_minutes_audience_update after update on cdn_viewer_minutes
  referencing old table as old_rows new table as new_rows for each statement execute function stream_audience_updated();
create trigger cdn_viewer_minutes_audience_delete after delete on cdn_viewer_minutes
  referencing old table as old_rows for each statement execute function stream_audience_deleted();
create trigger delivery_minutes_audience_insert after insert on delivery_minutes
  referencing new table as new_rows for each statement execute function stream_audience_inserted();
create trigger delivery_minutes_audience_update after update on delivery_minutes
  referencing old table as old_rows new table as new_rows for each statement execute function stream_audience_delivery_updated();
create trigger delivery_minutes_audience_delete after delete on delivery_minutes
  referencing old table as old_rows for each statement execute function stream_audience_deleted();

-- A truncate (no transition tables) recomputes every stream that has figures.
create function stream_audience_truncated() returns trigger language plpgsql as $$
begin
  perform refresh_stream_audience(array(select stream_id from stream_audience));
  return null;
end $$;

create trigger viewer_minutes_audience_truncate after truncate on viewer_minutes for each statement execute function stream_audience_truncated();
create trigger cdn_viewer_ids_audience_truncate after truncate on cdn_viewer_ids for each statement execute function stream_audience_truncated();
create trigger cdn_viewer_minutes_audience_truncate after truncate on cdn_viewer_minutes for each statement execute function stream_audience_truncated();
create trigger delivery_minutes_audience_truncate after truncate on delivery_minutes for each statement execute function stream_audience_truncated();

-- The triggers exist (and hold their tables against writers) before the backfill reads.
select refresh_stream_audience(array(
  select stream_id from viewer_minutes
  union select stream_id from cdn_viewer_minutes
  union select stream_id from cdn_viewer_ids
  union select stream_id from delivery_minutes));
