import type { Column } from './table.js';

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
  'status',
  'profile',
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
export const SECRET_KEYS = ['stream_key', 'rtmp_url', 'whip_url', 'publish_url'];

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

export const ATTENDANCE_COLUMNS: Column<AttendanceDoc>[] = ATTENDANCE_FIELDS.map((field) => ({ header: field, get: (a) => a[field] }));
