-- Low-latency mode, opt-in per stream (docs/decisions.md, "Low-latency mode").

alter table streams add column latency_mode text not null default 'standard'
  check (latency_mode in ('standard', 'low'));
