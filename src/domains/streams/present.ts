import type { PublicUrls } from '../../config/config.js';
import { iso, secondsUntil } from '../../core/time.js';
import type { CdnAddresses } from '../ledger/cdn/addresses.js';
import type { NodeView } from '../ledger/nodes/directory.js';
import { srtPassphrase, srtPublishUrl } from '../../platform/media/srt.js';
import { defaultPlaybackExpiry, FINISHED, type Profile, type StreamRow } from './model.js';
import type { PresentedRow } from './queries.js';
import type { CreatedStream, Stream, StreamEventData } from './schemas.js';

export interface PresentContext {
  urls: PublicUrls;
  /** What `srt_url`'s passphrase is derived with, and the latency it asks for. */
  srt: { key: Buffer; latencyMs: number };
  now: Date;
  nodeReady: boolean;
  /** This process's own node: its streams' `node_ready` is `nodeReady`, known here without a heartbeat. */
  selfNodeId: string | null;
  /** The stream's node, when it has one (a cluster): its readiness and ingest addresses. */
  node: (nodeId: string) => NodeView | null;
  cdn: CdnAddresses;
  /** Watching on the hosted player now (this node's count); null when nobody is. */
  viewersNow: (streamId: string) => number | null;
}

/** What viewers get before the source is seen: the ladder for the declared resolution. */
export function plannedRenditions(profile: Profile, maxResolution: number): string[] {
  if (profile === 'passthrough') return ['source'];
  if (maxResolution >= 1080) return ['source', '720p', '480p'];
  if (maxResolution >= 720) return ['source', '480p'];
  return ['source'];
}

function recordingOf(row: PresentedRow): Stream['recording'] {
  if (row.status === 'pending' || !row.recording_status) return null;
  return {
    status: row.recording_status,
    bytes: row.recording_bytes,
    duration_seconds: row.recording_duration_seconds,
    retention_days: row.recording_retention_days,
    ready_at: iso(row.recording_ready_at),
    delete_at: iso(row.recording_delete_at),
    delete_reason: row.recording_delete_reason,
    deleted_at: iso(row.recording_deleted_at),
  };
}

/** The spec's Stream; `cost` and `viewers` (single-stream read only) are added by the caller. */
export function presentStream(row: PresentedRow, ctx: PresentContext): Stream {
  const pending = row.status === 'pending';
  const node = row.node_id === null ? null : ctx.node(row.node_id);
  const finished = FINISHED.includes(row.status);
  // Re-signed on every read; the expiry is fixed per stream, so the URL is too (caches keep working).
  const expiresAt = finished ? null : defaultPlaybackExpiry(row);
  const stream: Stream = {
    id: row.id,
    object: 'stream',
    name: row.name,
    channel_id: row.channel_id,
    status: row.status,
    profile: row.profile,
    latency_mode: row.latency_mode,
    record: row.record,
    replay: row.replay,
    recording: recordingOf(row),
    node_ready: row.node_id === null || row.node_id === ctx.selfNodeId ? ctx.nodeReady : (node?.ready ?? false),
    rtmp_url: finished ? null : (node?.rtmp_url ?? ctx.urls.rtmp_url),
    playback_url: expiresAt && ctx.cdn.playback(row.id, expiresAt),
    playback_url_expires_at: iso(expiresAt),
    embed_url: `${ctx.urls.player_url}/${row.id}`,
    renditions: row.renditions ?? plannedRenditions(row.profile, row.max_resolution),
    max_ingest_resolution: row.max_resolution,
    max_duration_seconds: row.max_duration_seconds,
    metadata: row.metadata,
    player: row.player,
    chat: row.chat,
    reservation_expires_at: pending ? iso(row.reservation_expires_at) : null,
    reservation_expires_in_seconds: pending ? secondsUntil(row.reservation_expires_at, ctx.now) : null,
    created_at: row.created_at.toISOString(),
    went_live_at: iso(row.went_live_at),
    ended_at: iso(row.ended_at),
    end_reason: row.end_reason,
    ingest: row.ingest,
    viewers_now: finished && !row.replay ? null : ctx.viewersNow(row.id),
    thumbnail: row.thumbnail_at && { url: ctx.cdn.thumbnail(row.id), captured_at: row.thumbnail_at.toISOString() },
  };
  return stream;
}

/** Creation and key replacement add the secrets, once. */
export function presentCreated(row: StreamRow, secret: string, ctx: PresentContext): CreatedStream {
  const node = row.node_id === null ? null : ctx.node(row.node_id);
  return {
    ...presentStream(row, ctx),
    stream_key: `${row.id}?key=${secret}`,
    whip_url: `${node?.whip_url ?? ctx.urls.whip_url}/${row.id}?direction=whip&key=${secret}`,
    srt_url:
      row.srt_port === null
        ? null
        : srtPublishUrl({
            host: node?.srt_host ?? ctx.urls.srt_host,
            port: row.srt_port,
            passphrase: srtPassphrase(ctx.srt.key, row.id, row.key_hash),
            latencyMs: ctx.srt.latencyMs,
          }),
  };
}

/** `data` of stream and recording events: the stream at that moment, the fields the spec names. */
export function eventData(row: StreamRow): StreamEventData {
  const recording = recordingOf(row);
  return {
    object: 'stream',
    id: row.id,
    name: row.name,
    channel_id: row.channel_id,
    status: row.status,
    metadata: row.metadata,
    created_at: row.created_at.toISOString(),
    went_live_at: iso(row.went_live_at),
    ended_at: iso(row.ended_at),
    end_reason: row.end_reason,
    recording: recording && {
      status: recording.status,
      bytes: recording.bytes,
      duration_seconds: recording.duration_seconds,
      ready_at: recording.ready_at,
      deleted_at: recording.deleted_at,
    },
  };
}
