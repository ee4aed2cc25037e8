-- The CDN log reader (docs/decisions.md, "CDN log"). Everything it counts from a batch of log
-- lines (these tables and delivery_minutes) is written in the transaction that moves its
-- position, so a killed reader neither loses a line nor counts one twice.

-- Where the reader is: one row. The file is named by its identity (device and inode), so that a
-- renamed file is still found and a new file at the same path is told apart.
create table cdn_log_position (
  id boolean primary key default true check (id),
  file_id text,
  byte_offset bigint not null default 0 check (byte_offset >= 0),
  -- Every line logged before this time has been read (the time of the read when the log is idle).
  counted_until timestamptz,
  updated_at timestamptz not null
);

-- Viewers of minutes not yet past: a viewer id (a keyed hash of address and user agent, made by
-- nginx) that fetched a segment of the stream in the minute, with its country. Once the minute is
-- safely past, its rows are compacted into the two tables below and deleted.
create table cdn_viewer_ids (
  stream_id text not null references streams (id) on delete cascade,
  minute timestamptz not null,
  viewer text not null,
  country text not null,
  primary key (stream_id, minute, viewer)
);
create index cdn_viewer_ids_minute on cdn_viewer_ids (minute);

-- Distinct viewers per stream and minute (compacted).
create table cdn_viewer_minutes (
  stream_id text not null references streams (id) on delete cascade,
  minute timestamptz not null,
  viewers integer not null check (viewers >= 0),
  primary key (stream_id, minute)
);

-- Watch time per stream and country, in viewer-minutes (compacted).
create table cdn_countries (
  stream_id text not null references streams (id) on delete cascade,
  country text not null,
  viewer_minutes bigint not null check (viewer_minutes >= 0),
  primary key (stream_id, country)
);

-- The usage endpoint sums viewer minutes of an account's streams per day.
create index cdn_viewer_minutes_minute on cdn_viewer_minutes (minute);
