import { Args } from '@oclif/core';
import { FINISHED } from '../domains/streams/model.js';
import type { Stream } from '../domains/streams/schemas.js';
import { CliError } from './errors.js';
import { renderRecord, type Column } from './table.js';

export const streamIdArg = Args.string({ description: 'Stream id (str_...).', required: true });

/** The API path of a stream or of one of its resources. */
export const streamPath = (id: string, ...rest: string[]): string =>
  ['v1/streams', encodeURIComponent(id), ...rest].join('/');

/**
 * A flag holding a JSON object (`--metadata`, `--player`, `--chat`); `null` only where the API
 * takes it. Refused before any request, with exit 2 like oclif's own usage errors.
 */
export function parseJsonObjectFlag(
  flag: string,
  text: string,
  example: string,
  opts: { nullable?: boolean } = {},
): Record<string, unknown> | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CliError(
      'invalid_usage',
      `--${flag} is not valid JSON (${(err as Error).message}): pass an object such as '${example}'`,
      {},
      2,
    );
  }
  if (value === null && opts.nullable) return null;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new CliError(
      'invalid_usage',
      `--${flag} must be a JSON object such as '${example}'${opts.nullable ? ' (or null)' : ''}`,
      {},
      2,
    );
  }
  return value as Record<string, unknown>;
}

/** The fields of the API's Stream the CLI shows; the rest is in --json. */
export interface StreamDoc {
  id: string;
  name: string | null;
  status: string;
  profile: string;
  record: boolean;
  max_ingest_resolution: number;
  rtmp_url: string | null;
  embed_url: string;
  reservation_expires_at: string | null;
  created_at: string;
  ended_at: string | null;
  end_reason: string | null;
  stream_key?: string;
  whip_url?: string;
  srt_url?: string | null;
  [key: string]: unknown;
}

export interface StreamListDoc {
  object: 'list';
  data: StreamDoc[];
  has_more: boolean;
}

export const STREAM_KEYS = [
  'id',
  'name',
  'channel_id',
  'status',
  'profile',
  'latency_mode',
  'record',
  'max_ingest_resolution',
  'rtmp_url',
  'embed_url',
  'playback_url',
  'reservation_expires_at',
  'created_at',
  'went_live_at',
  'ended_at',
  'end_reason',
  'metadata',
];

/** Shown once, after create and rotate-key. */
export const SECRET_KEYS = ['stream_key', 'rtmp_url', 'whip_url', 'srt_url', 'publish_url'];

/** Where `warnSecret` says what was just shown once. */
export const SECRET_WHAT = 'stream key (and the WHIP URL, SRT URL and publish page address, which contain it)';

/**
 * The publishing settings as encoders ask for them, after create and rotate-key: OBS's Server and
 * Stream Key fields (Settings → Stream, Service "Custom..."), the ffmpeg target joining the two,
 * then the WHIP URL, the SRT URL and the browser publish page.
 */
export function publishText(stream: StreamDoc): string {
  const lines =
    stream.rtmp_url && stream.stream_key
      ? [
          'OBS (Settings → Stream, Service: Custom...):',
          `  Server      ${stream.rtmp_url}`,
          `  Stream Key  ${stream.stream_key}`,
          `ffmpeg -re -i INPUT -c copy -f flv "${stream.rtmp_url}/${stream.stream_key}"`,
          // Pieces are cut on the publisher's keyframes: a 2 s interval would double them.
          ...(stream.latency_mode === 'low'
            ? [
                'Low latency: set a keyframe every 1 s (OBS: Output → Keyframe Interval 1; ffmpeg: -g <fps> -keyint_min <fps>).',
              ]
            : []),
          '',
        ]
      : [];
  return [...lines, renderRecord(stream, ['whip_url', 'srt_url', 'publish_url'])].join('\n');
}

export const METADATA_EXAMPLE = '{"event_id":"evt-42"}';

/**
 * Adds `publish_url`, the hosted publish page (`{player_url}/publish/<id>#key=<secret>`): a speaker
 * without OBS goes live from a browser. The secret rides in the fragment, which browsers never send.
 */
export function withPublishUrl(stream: StreamDoc): StreamDoc {
  const key = stream.whip_url && new URL(stream.whip_url).searchParams.get('key');
  if (!key) return stream;
  const page = stream.embed_url.replace(/\/([^/]+)$/, '/publish/$1');
  return { ...stream, publish_url: `${page}#key=${encodeURIComponent(key)}` };
}

export const STREAM_COLUMNS: Column<StreamDoc>[] = [
  { header: 'id', get: (s) => s.id },
  { header: 'status', get: (s) => s.status },
  { header: 'name', get: (s) => s.name },
  { header: 'profile', get: (s) => s.profile },
  { header: 'created_at', get: (s) => s.created_at },
];

/** The API's AttendanceItem. */
export interface AttendanceDoc {
  object: 'attendance';
  viewer_id: string;
  name: string | null;
  watch_seconds: number;
  first_seen_at: string;
  last_seen_at: string;
}

export interface AttendanceListDoc {
  object: 'list';
  data: AttendanceDoc[];
  has_more: boolean;
  next_after: string | null;
  total: number;
}

/** The CSV export's columns, in order; the table shows the same. */
export const ATTENDANCE_FIELDS = ['viewer_id', 'name', 'watch_seconds', 'first_seen_at', 'last_seen_at'] as const;

export const ATTENDANCE_COLUMNS: Column<AttendanceDoc>[] = ATTENDANCE_FIELDS.map((field) => ({
  header: field,
  get: (a) => a[field],
}));

/** What `svc streams watch` reads of a stream: the single-stream read's `ingest` and `viewers`. */
type WatchedStream = Pick<
  Stream,
  | 'id'
  | 'name'
  | 'status'
  | 'node_ready'
  | 'went_live_at'
  | 'ended_at'
  | 'end_reason'
  | 'reservation_expires_in_seconds'
  | 'ingest'
  | 'viewers'
>;

/** The warnings an operator acts on, each as a sentence that says what to do. */
export function streamWarnings(s: WatchedStream): string[] {
  const warnings: string[] = [];
  if (!s.node_ready && !FINISHED.includes(s.status))
    warnings.push('ingest server starting (about a minute): the encoder should wait and retry');
  if (s.ingest?.limit_warning === 'limit_bitrate')
    warnings.push('over the bitrate limit: lower the encoder bitrate within 20 s or the stream ends');
  if (s.ingest?.limit_warning === 'limit_resolution')
    warnings.push('over the resolution limit: lower the output resolution within 20 s or the stream ends');
  if (s.ingest?.keyframe_warning)
    warnings.push(
      `keyframes every ${s.ingest.keyframe_interval_seconds ?? '?'} s: set the encoder's keyframe interval to 2 s`,
    );
  return warnings;
}

/** One screen of `svc streams watch`: status, ingest, viewers now, warnings. */
export function watchFrame(s: WatchedStream): string {
  const i = s.ingest;
  const now = s.viewers?.now;
  const status =
    s.status === 'live'
      ? `live since ${s.went_live_at}`
      : s.status === 'pending'
        ? `pending: waiting for the encoder${s.reservation_expires_in_seconds === null ? '' : ` (reservation ends in ${s.reservation_expires_in_seconds} s)`}`
        : `${s.status} at ${s.ended_at} (${s.end_reason ?? 'no reason'})`;
  const ingest = i
    ? `${i.width ?? '?'}x${i.height ?? '?'}, ${i.kbps ?? '?'} kbps, keyframes every ${i.keyframe_interval_seconds ?? '?'} s (measured ${i.observed_at})`
    : 'no measurement yet';
  const viewers = now
    ? `${now.watching} watching, ${now.waiting} waiting, ${now.buffering_pct}% buffering${now.exact ? '' : ' (estimate)'}; peak ${s.viewers?.peak ?? '-'}`
    : `none reported; peak ${s.viewers?.peak ?? '-'}`;
  const warnings = streamWarnings(s);
  return renderRecord({
    stream: `${s.id}${s.name ? ` (${s.name})` : ''}`,
    status,
    ingest,
    viewers,
    warnings: warnings.length ? warnings.join(`\n${' '.repeat('warnings  '.length)}`) : 'none',
  });
}
