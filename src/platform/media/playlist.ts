/**
 * HLS playlists (RFC 8216): read the media playlists ffmpeg writes (every segment of every
 * session, joined by EXT-X-DISCONTINUITY), and write what players get: a sliding window per
 * rendition and the master playlist.
 */

export interface MediaSegment {
  uri: string;
  duration: number;
  /** An EXT-X-DISCONTINUITY tag precedes this segment (a new publish session starts here). */
  discontinuity: boolean;
  /** ISO 8601 with a colon in the offset (`2024-05-01T10:00:00.000+00:00`), or null. */
  programDateTime: string | null;
}

export interface ParsedMediaPlaylist {
  segments: MediaSegment[];
  ended: boolean;
  mediaSequence: number;
  /** EXT-X-DISCONTINUITY-SEQUENCE (0 when absent). */
  discontinuitySequence: number;
  /** EXT-X-TARGETDURATION, null when absent. */
  targetDuration: number | null;
}

/** ffmpeg writes `+0000`; RFC 3339 and strict Date parsers (Safari) want `+00:00`. */
function normalizeDateTime(value: string): string {
  return value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
}

/** A non-negative integer tag value, or null. */
function counter(value: string): number | null {
  const n = Number(value);
  return value.trim() !== '' && Number.isInteger(n) && n >= 0 ? n : null;
}

/**
 * Tolerant of a file caught mid-write: a last line without its newline may be cut short, so
 * it only counts when it is a complete ENDLIST; a URI with no EXTINF before it, an EXTINF
 * whose duration does not parse and unknown tags are skipped. Tags between EXTINF and the
 * URI are fine in any order (ffmpeg 5.1 writes PROGRAM-DATE-TIME after EXTINF).
 */
export function parseMediaPlaylist(text: string): ParsedMediaPlaylist {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const endsWithNewline = text.endsWith('\n');
  const segments: MediaSegment[] = [];
  let ended = false;
  let mediaSequence = 0;
  let discontinuitySequence = 0;
  let targetDuration: number | null = null;
  let duration: number | null = null;
  let discontinuity = false;
  let programDateTime: string | null = null;

  lines.forEach((raw, i) => {
    const line = raw.trim();
    const complete = endsWithNewline || i < lines.length - 1;
    if (line === '') return;
    if (line === '#EXT-X-ENDLIST') {
      ended = true;
      return;
    }
    if (!complete) return;
    if (!line.startsWith('#')) {
      if (duration !== null) segments.push({ uri: line, duration, discontinuity, programDateTime });
      duration = null;
      discontinuity = false;
      programDateTime = null;
      return;
    }
    const colon = line.indexOf(':');
    const tag = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.slice(colon + 1);
    switch (tag) {
      case '#EXTINF': {
        const field = (value.split(',')[0] ?? '').trim();
        const seconds = Number(field);
        duration = field !== '' && Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
        break;
      }
      case '#EXT-X-DISCONTINUITY':
        discontinuity = true;
        break;
      case '#EXT-X-PROGRAM-DATE-TIME':
        programDateTime = value.trim() === '' ? null : normalizeDateTime(value.trim());
        break;
      case '#EXT-X-MEDIA-SEQUENCE':
        mediaSequence = counter(value) ?? mediaSequence;
        break;
      case '#EXT-X-DISCONTINUITY-SEQUENCE':
        discontinuitySequence = counter(value) ?? discontinuitySequence;
        break;
      case '#EXT-X-TARGETDURATION':
        targetDuration = counter(value) ?? targetDuration;
        break;
    }
  });
  return { segments, ended, mediaSequence, discontinuitySequence, targetDuration };
}

export interface WindowPlaylist {
  /** The window, oldest first. */
  segments: MediaSegment[];
  /** Sequence number of the first segment in the window. */
  mediaSequence: number;
  /** Discontinuity tags on segments before the window. */
  discontinuitySequence: number;
  targetDuration: number;
  ended: boolean;
}

/** An EXTINF value as written: 3 decimals (what players read, and what RFC 8216 rounds). */
function extinf(duration: number): string {
  return duration.toFixed(3);
}

/**
 * The least EXT-X-TARGETDURATION a segment allows: RFC 8216 4.3.3.1 wants every EXTINF, rounded to
 * the nearest integer, at most the target. Rounded as written (4.4996 is written 4.500, which
 * rounds to 5), half up. Not the ceiling: a 29.97 fps publisher's 4.004-second pieces would
 * announce 5 (1.001 s ones 2 in low-latency mode), and players stay a target or more behind the edge.
 */
export function targetDurationFor(duration: number): number {
  return Math.round(Number(extinf(duration)));
}

function nonNegativeInteger(value: number, what: string): void {
  if (!Number.isInteger(value) || value < 0)
    throw new RangeError(`${what} must be a non-negative integer, got ${value}`);
}

export function renderWindowPlaylist(o: WindowPlaylist): string {
  nonNegativeInteger(o.mediaSequence, 'mediaSequence');
  nonNegativeInteger(o.discontinuitySequence, 'discontinuitySequence');
  if (!Number.isInteger(o.targetDuration) || o.targetDuration <= 0)
    throw new RangeError(`targetDuration must be a positive integer, got ${o.targetDuration}`);
  const out = [
    '#EXTM3U',
    '#EXT-X-VERSION:6',
    `#EXT-X-TARGETDURATION:${o.targetDuration}`,
    `#EXT-X-MEDIA-SEQUENCE:${o.mediaSequence}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${o.discontinuitySequence}`,
    '#EXT-X-INDEPENDENT-SEGMENTS',
  ];
  for (const s of o.segments) {
    if (/[\r\n]/.test(s.uri) || s.uri === '' || s.uri.startsWith('#'))
      throw new RangeError(`invalid segment URI ${JSON.stringify(s.uri)}`);
    if (targetDurationFor(s.duration) > o.targetDuration)
      throw new RangeError(
        `segment ${s.uri} (${extinf(s.duration)} s) is longer than targetDuration ${o.targetDuration} (RFC 8216 4.3.3.1)`,
      );
    if (s.discontinuity) out.push('#EXT-X-DISCONTINUITY');
    if (s.programDateTime !== null) out.push(`#EXT-X-PROGRAM-DATE-TIME:${s.programDateTime}`);
    out.push(`#EXTINF:${extinf(s.duration)},`, s.uri);
  }
  if (o.ended) out.push('#EXT-X-ENDLIST');
  return `${out.join('\n')}\n`;
}

/** Where a list of segments starts in the whole broadcast (a list continued after a restart). */
export interface SequenceStart {
  /** Sequence number of the list's first segment. */
  mediaSequence: number;
  /** Discontinuity tags on segments before the list. */
  discontinuitySequence: number;
}

/**
 * The last `size` segments. MEDIA-SEQUENCE is the number of the window's first segment: its
 * index in `all` plus `from.mediaSequence`; DISCONTINUITY-SEQUENCE counts the discontinuity
 * tags that slid out (RFC 8216 4.3.3.3), plus `from.discontinuitySequence`: a tag on the
 * window's first segment is still in the window and not counted.
 */
export function slideWindow(
  all: MediaSegment[],
  size: number,
  from: SequenceStart = { mediaSequence: 0, discontinuitySequence: 0 },
): { window: MediaSegment[]; mediaSequence: number; discontinuitySequence: number } {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`window size must be a positive integer, got ${size}`);
  const start = Math.max(0, all.length - size);
  const discontinuitySequence = from.discontinuitySequence + all.slice(0, start).filter((s) => s.discontinuity).length;
  return { window: all.slice(start), mediaSequence: from.mediaSequence + start, discontinuitySequence };
}

export interface Variant {
  uri: string;
  /** Peak bits per second, audio and container included. */
  bandwidth: number;
  averageBandwidth?: number;
  width: number;
  height: number;
  /** RFC 6381 list, e.g. `avc1.64001f,mp4a.40.2`; left out of the playlist when empty. */
  codecs: string;
  frameRate?: number;
  name: string;
}

function quoted(value: string, what: string): string {
  if (/["\r\n]/.test(value))
    throw new RangeError(`${what} cannot hold quotes or line breaks: ${JSON.stringify(value)}`);
  return `"${value}"`;
}

/** Highest bandwidth first: players that do not measure start on the first variant. */
export function renderMasterPlaylist(variants: Variant[]): string {
  const out = ['#EXTM3U', '#EXT-X-VERSION:6', '#EXT-X-INDEPENDENT-SEGMENTS'];
  const sorted = [...variants].sort((a, b) => b.bandwidth - a.bandwidth);
  for (const v of sorted) {
    if (!Number.isFinite(v.bandwidth) || v.bandwidth <= 0)
      throw new RangeError(`variant ${v.name}: bandwidth must be positive`);
    if (/[\r\n]/.test(v.uri) || v.uri === '') throw new RangeError(`variant ${v.name}: invalid URI`);
    const attrs = [`BANDWIDTH=${Math.round(v.bandwidth)}`];
    if (v.averageBandwidth !== undefined) attrs.push(`AVERAGE-BANDWIDTH=${Math.round(v.averageBandwidth)}`);
    attrs.push(`RESOLUTION=${v.width}x${v.height}`);
    if (v.codecs !== '') attrs.push(`CODECS=${quoted(v.codecs, 'CODECS')}`);
    if (v.frameRate !== undefined) attrs.push(`FRAME-RATE=${v.frameRate.toFixed(3)}`);
    attrs.push(`NAME=${quoted(v.name, 'NAME')}`);
    out.push(`#EXT-X-STREAM-INF:${attrs.join(',')}`, v.uri);
  }
  return `${out.join('\n')}\n`;
}
