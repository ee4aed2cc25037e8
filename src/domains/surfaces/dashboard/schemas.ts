/**
 * What the operator dashboard reads (`/dashboard/api/...`, operator token only). Not part of the
 * public API: hidden from the OpenAPI description (docs/decisions.md, Operator dashboard).
 */
import { Type, type Static } from '@sinclair/typebox';
import { CertificateHealth } from '../../../platform/tls/health.js';
import { Nullable, StringEnum, Timestamp } from '../../../platform/http/schema-helpers.js';
import { Ingest, StreamId } from '../../streams/model.js';
import { OUTPUT_STATUSES } from '../../engine/outputs/schemas.js';

const Recording = Type.Object({
  stream_id: Type.String(),
  stream_name: Nullable(Type.String()),
  account_id: Type.String(),
  status: Type.String(),
  bytes: Nullable(Type.Integer()),
  duration_seconds: Nullable(Type.Number()),
  ready_at: Nullable(Timestamp),
  delete_at: Nullable(Timestamp),
});

/**
 * A restreaming output of a live stream, as the pushing node last wrote it. Never its key, not even
 * masked: the operator needs none of it (docs/decisions.md, "Restreaming: the dashboard").
 */
const DashboardOutput = Type.Object({
  id: Type.String(),
  name: Nullable(Type.String()),
  /** The target's host (what the page shows when there is no name). */
  host: Type.String(),
  /** The target without the key (the key is never part of it). */
  url: Type.String(),
  enabled: Type.Boolean(),
  status: StringEnum(OUTPUT_STATUSES),
  last_error: Nullable(Type.String()),
  connected_at: Nullable(Timestamp),
  bytes_sent: Type.Integer(),
});

export const DashboardStream = Type.Object({
  id: Type.String(),
  name: Nullable(Type.String()),
  account_id: Type.String(),
  account_name: Type.String(),
  status: Type.String(),
  created_at: Timestamp,
  went_live_at: Nullable(Timestamp),
  ended_at: Nullable(Timestamp),
  end_reason: Nullable(Type.String()),
  ingest: Ingest,
  viewers_now: Nullable(Type.Integer()),
  thumbnail_url: Nullable(Type.String()),
  embed_url: Type.String(),
  /** Its restreaming outputs while live, in the order they were made; empty otherwise (nothing is pushed). */
  outputs: Type.Array(DashboardOutput),
});

const Account = Type.Object({
  id: Type.String(),
  name: Type.String(),
  state: Type.String(),
  billing_mode: Type.String(),
  balance_usd: Type.String(),
  available_usd: Type.String(),
  balance_warning: Nullable(Type.String()),
});

const WebhookEndpoint = Type.Object({
  id: Type.String(),
  account_id: Type.String(),
  url: Type.String(),
  enabled: Type.Boolean(),
  /** Deliveries of the last 24 hours. */
  succeeded: Type.Integer(),
  failed: Type.Integer(),
  /** Pending deliveries that were tried and will be tried again. */
  retrying: Type.Integer(),
  last_attempt_at: Nullable(Timestamp),
  last_status_code: Nullable(Type.Integer()),
  last_error: Nullable(Type.String()),
});

const Job = Type.Object({
  name: Type.String(),
  period_seconds: Type.Integer(),
  last_run_at: Nullable(Timestamp),
  last_success_at: Nullable(Timestamp),
  last_duration_ms: Nullable(Type.Integer()),
  lag_seconds: Type.Integer(),
  late: Type.Boolean(),
  running: Type.Boolean(),
  last_error: Nullable(Type.String()),
});

export const Health = Type.Object({
  /** Every part answers and no job is late (what `svc status` calls healthy, the API answering). */
  healthy: Type.Boolean(),
  /** What `/healthz` reports: `database`, and `ingest` (nginx) on a node that runs it. */
  parts: Type.Record(Type.String(), Type.Boolean()),
  /** Null while the database does not answer. */
  jobs: Nullable(Type.Array(Job)),
  /** The served certificate; null without TLS. */
  certificate: Nullable(CertificateHealth),
});

/** An edge or CDN in front of this origin (`presentEdge`). */
const Edge = Type.Object({
  id: Type.String(),
  object: Type.Literal('edge'),
  name: Type.String(),
  kind: StringEnum(['edge', 'cdn']),
  state: StringEnum(['joining', 'up', 'down', 'cdn']),
  address: Nullable(Type.String()),
  last_seen_at: Nullable(Timestamp),
  requests: Type.Integer(),
  cache_hit_ratio: Nullable(Type.Number()),
  bytes_served: Type.Integer(),
  counted_until: Nullable(Timestamp),
  log_lag_seconds: Nullable(Type.Integer()),
  created_at: Timestamp,
});

/** Each section is null when its read failed (the database is away): `unavailable` names them. */
export const Overview = Type.Object({
  object: Type.Literal('dashboard_overview'),
  generated_at: Timestamp,
  health: Health,
  streams: Nullable(Type.Array(DashboardStream)),
  recordings: Nullable(Type.Array(Recording)),
  accounts: Nullable(Type.Array(Account)),
  webhooks: Nullable(Type.Array(WebhookEndpoint)),
  edges: Nullable(Type.Array(Edge)),
  unavailable: Type.Array(Type.String()),
});
export type Overview = Static<typeof Overview>;
export type DashboardStream = Static<typeof DashboardStream>;
export type DashboardOutput = Static<typeof DashboardOutput>;
export type Health = Static<typeof Health>;

export const StreamSeries = Type.Object({
  object: Type.Literal('dashboard_stream_series'),
  stream_id: Type.String(),
  /** The stored ingest samples (every 10 s while live), oldest first. */
  ingest: Type.Array(
    Type.Object({
      at: Timestamp,
      kbps: Nullable(Type.Integer()),
      keyframe_interval_seconds: Nullable(Type.Number()),
      limit_warning: Nullable(Type.String()),
      keyframe_warning: Type.Boolean(),
    }),
  ),
  /** Watching on the hosted player per minute (`GET /v1/streams/{id}/viewers`' `player`). */
  player: Type.Array(Type.Object({ minute: Timestamp, watching: Type.Integer() })),
  /** Distinct viewers per minute from the CDN log. */
  cdn: Type.Array(Type.Object({ minute: Timestamp, viewers: Type.Integer() })),
  /** Watching now on this node's player; null when nobody is or the stream is over. */
  viewers_now: Nullable(Type.Integer()),
});
export type StreamSeries = Static<typeof StreamSeries>;

export const SeriesParams = Type.Object({ id: StreamId }, { additionalProperties: false });
