/**
 * One line of the CDN log as nginx writes it (templates/nginx/nginx.conf.njk, `log_format cdn`): a JSON
 * object with the time ($msec), the status, the body bytes sent, the path without its signature
 * segment, the viewer's country and viewer id. Pure: no clock, no I/O.
 */
export interface LogLine {
  /** When nginx logged the request (its end), in ms since the epoch. */
  timeMs: number;
  status: number;
  /** Body bytes sent ($body_bytes_sent). */
  bytes: number;
  path: string;
  country: string;
  viewer: string;
  /** An edge's cache status for the request (`$upstream_cache_status`); '' in the origin's log. */
  cache: string;
}

export type ObjectKind = 'playlist' | 'segment' | 'recording' | 'thumbnail';

export interface CdnObject {
  streamId: string;
  kind: ObjectKind;
}

/** The country code nginx logs when none is known. */
export const UNKNOWN_COUNTRY = 'XX';

/** The line, or null when it is not one of ours (a line of another format, a torn line). */
export function parseLine(text: string): LogLine | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const o = v as Record<string, unknown>;
  const { time, status, bytes, path, country, viewer, cache } = o;
  if (typeof time !== 'number' || typeof status !== 'number' || typeof bytes !== 'number' || typeof path !== 'string')
    return null;
  if (!Number.isFinite(time) || !Number.isInteger(bytes) || bytes < 0) return null;
  return {
    timeMs: Math.round(time * 1000),
    status,
    bytes,
    path,
    country: typeof country === 'string' && country !== '' ? country : UNKNOWN_COUNTRY,
    viewer: typeof viewer === 'string' ? viewer : '',
    cache: typeof cache === 'string' ? cache : '',
  };
}

// The CDN's paths without their signature (templates/nginx/nginx.conf.njk): playlists and segments
// under the stream's folder, the recording under _rec/, the public still under _thumb/; a replay's
// playlist and media under _replay/ count as the stream's playlists and segments (delivery, billed
// like live: docs/decisions.md, "Replays (issue 33)").
const OBJECT =
  /^\/(?:(str_[a-z0-9]{20})\/[A-Za-z0-9_]+\.(m3u8|ts)|_rec\/(str_[a-z0-9]{20})\/recording\.mp4|_thumb\/(str_[a-z0-9]{20})\.jpg|_replay\/(str_[a-z0-9]{20})\/(?:index\.(m3u8)|media\.mp4))$/;

/** Which stream and kind of object a logged path names; null for anything else. */
export function classifyPath(path: string): CdnObject | null {
  const m = OBJECT.exec(path);
  if (!m) return null;
  if (m[1]) return { streamId: m[1], kind: m[2] === 'ts' ? 'segment' : 'playlist' };
  if (m[3]) return { streamId: m[3], kind: 'recording' };
  if (m[5]) return { streamId: m[5], kind: m[6] ? 'playlist' : 'segment' };
  return { streamId: m[4] as string, kind: 'thumbnail' };
}
