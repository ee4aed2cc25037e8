-- The live pipeline: publisher sessions, ingest measurements, renditions and recordings.

alter table streams
  -- Fixed when the first source is seen; null until then (the planned ladder is shown).
  add column renditions text[],
  -- nginx-rtmp's client id of the admitted publisher; null while none is connected.
  add column publisher_client_id text,
  add column publisher_left_at timestamptz,
  add column ingest jsonb,
  add column limit_warning_since timestamptz,
  add column recording_bytes bigint,
  add column recording_duration_seconds double precision,
  add column recording_ready_at timestamptz,
  add column recording_delete_at timestamptz,
  add column recording_delete_reason text check (recording_delete_reason in ('retention', 'zero_balance')),
  add column recording_deleted_at timestamptz,
  add column recording_attempts integer not null default 0,
  add column recording_next_attempt_at timestamptz,
  add column recording_error text;

create index streams_live on streams (went_live_at) where status = 'live';
create index streams_recording_due on streams (recording_next_attempt_at) where recording_status in ('processing', 'deleting');
create index streams_recording_expiry on streams (recording_delete_at) where recording_status = 'ready';
