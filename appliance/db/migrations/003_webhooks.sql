-- Webhook endpoints, their deliveries (one per event and endpoint) and every attempt.
-- The events table stays the outbox: the dispatcher fans each event out once, marking it.

create table webhook_endpoints (
  seq bigserial not null unique,
  id text primary key,
  account_id text not null references accounts (id) on delete cascade,
  url text not null,
  description text,
  -- null: every type, including types added later.
  events text[],
  enabled boolean not null default true,
  -- Kept in the clear: it is the HMAC key of the signatures (`whsec_` + base64).
  secret text not null,
  previous_secret text,
  previous_secret_expires_at timestamptz,
  created_at timestamptz not null
);
create index webhook_endpoints_account on webhook_endpoints (account_id, seq);

create table webhook_deliveries (
  seq bigserial not null unique,
  id text primary key,
  endpoint_id text not null references webhook_endpoints (id) on delete cascade,
  account_id text not null references accounts (id) on delete cascade,
  event_id text not null,
  event_type text not null,
  stream_id text,
  payload jsonb not null,
  status text not null check (status in ('pending', 'succeeded', 'failed')),
  attempts integer not null default 0,
  max_attempts integer not null,
  next_attempt_at timestamptz,
  -- Set while a dispatcher is sending: others skip the row until then (a crashed sender's lease runs out).
  leased_until timestamptz,
  last_attempt_at timestamptz,
  last_status_code integer,
  last_error text,
  last_duration_ms integer,
  delivered_at timestamptz,
  created_at timestamptz not null,
  unique (endpoint_id, event_id)
);
create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending';
create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, seq desc);
create index webhook_deliveries_endpoint_status on webhook_deliveries (endpoint_id, status, seq desc);
create index webhook_deliveries_created on webhook_deliveries (created_at);

create table webhook_attempts (
  id bigserial primary key,
  delivery_id text not null references webhook_deliveries (id) on delete cascade,
  attempt integer not null,
  started_at timestamptz not null,
  status_code integer,
  error text,
  duration_ms integer not null
);
create index webhook_attempts_delivery on webhook_attempts (delivery_id, id);

-- Fan-out marks each event once; older events had no endpoint to go to.
alter table events add column fanned_out_at timestamptz;
update events set fanned_out_at = created_at;
create index events_not_fanned_out on events (seq) where fanned_out_at is null;

-- Wakes the dispatchers (LISTEN svc_webhooks) when an event commits: new events go out at once.
create function notify_webhook_dispatch() returns trigger language plpgsql as $$
begin
  perform pg_notify('svc_webhooks', 'event');
  return null;
end $$;
create trigger events_notify_webhook_dispatch after insert on events
  for each statement execute function notify_webhook_dispatch();
