-- One row per scheduled job: its lease (one node runs it at a time) and its record, read by
-- `svc status` (last run, last success, lag against its period).
create table job_runs (
  name text primary key,
  period_seconds integer not null check (period_seconds > 0),
  -- When the appliance that runs it last started: lateness counts from here when the last
  -- success is older (a job is not late for the time the appliance was down).
  registered_at timestamptz not null,
  -- The lease: the node running it holds it until then; a run that outlives it is abandoned.
  running_until timestamptz,
  -- Which scheduler holds the lease: it may take it again at once (it never runs a job twice at
  -- a time), so a lease it could not give back during a database outage does not block it.
  running_by text,
  last_run_at timestamptz,
  last_finished_at timestamptz,
  last_success_at timestamptz,
  last_error text,
  last_duration_ms integer
);
