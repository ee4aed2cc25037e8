import type { BeatState } from '../viewers/counter.js';

/** Who a token session belongs to: the stream and the client's own viewer id (the token's `sub`). */
export interface AttendanceViewer {
  streamId: string;
  viewerId: string;
  name: string | null;
}

/** What a flush adds to a viewer's `attendance` row. */
export interface AttendanceRow {
  stream_id: string;
  viewer_id: string;
  /** The newest non-null name reported; null when none was. */
  name: string | null;
  /** Whole seconds to add. */
  watch_seconds: number;
  first_seen_at: Date;
  last_seen_at: Date;
}

export interface AttendanceRecorderOptions {
  /** How often a player with a session reports (`attendance_interval_seconds`). */
  intervalSeconds: number;
  /** Sessions and viewers not heard from this long are forgotten (default 5 minutes). */
  forgetAfterMs?: number;
  /** At most this many sessions, and as many viewers, are remembered; the least recently heard go first. */
  maxEntries?: number;
}

/** Sessions (and viewers) remembered at most: about 20 MB each when full. */
export const MAX_ENTRIES = 100_000;
const FORGET_AFTER_MS = 5 * 60_000;

interface Session {
  st: BeatState;
  atMs: number;
}

interface ViewerEntry {
  streamId: string;
  viewerId: string;
  name: string | null;
  /** Credited and not drained yet (the part below a second stays across drains). */
  creditMs: number;
  /** Since the last drain; null once drained. */
  firstMs: number | null;
  lastMs: number;
  /** Credit reaches this far: sessions of the viewer that overlap (two tabs) are credited once. */
  creditedUntilMs: number;
}

const viewerKey = (streamId: string, viewerId: string): string => `${streamId}\u0000${viewerId}`;

/**
 * Token viewers' watch time on this node, in memory until the next flush (docs/decisions.md,
 * "Attendance"). A session's report credits the time since its previous report when that one
 * said playing (`p`), at most two intervals: a player that went quiet is not credited for the
 * silence. Time a viewer's other session already credited is not credited again. Maps are kept
 * in the order entries were last heard, so forgetting starts at the front.
 */
export class AttendanceRecorder {
  private readonly sessions = new Map<string, Session>();
  private readonly viewers = new Map<string, ViewerEntry>();
  private readonly capMs: number;
  private readonly forgetAfterMs: number;
  private readonly maxEntries: number;
  /** The newest report's time: what "not heard from for 5 minutes" is measured against. */
  private latestMs = -Infinity;
  /** Viewers pushed out by `maxEntries` with credit not drained yet (lost): for the flush's warning. */
  evicted = 0;

  constructor(opts: AttendanceRecorderOptions) {
    this.capMs = 2 * opts.intervalSeconds * 1000;
    this.forgetAfterMs = opts.forgetAfterMs ?? FORGET_AFTER_MS;
    this.maxEntries = opts.maxEntries ?? MAX_ENTRIES;
  }

  /** A session was opened: the viewer is listed (with 0 s when new) and `last_seen_at` moves. */
  seen(v: AttendanceViewer, atMs: number): void {
    this.touch(v, atMs);
  }

  /** A report of session `sessionId` (a beat with a valid session token). */
  beat(v: AttendanceViewer, sessionId: string, st: BeatState, atMs: number): void {
    const entry = this.touch(v, atMs);
    const previous = this.sessions.get(sessionId);
    // A late report (out of order) moves nothing: its gap was credited by the one after it.
    if (previous && atMs < previous.atMs) return;
    if (previous?.st === 'p') {
      const from = Math.max(atMs - Math.min(atMs - previous.atMs, this.capMs), entry.creditedUntilMs);
      if (from < atMs) {
        entry.creditMs += atMs - from;
        entry.creditedUntilMs = atMs;
      }
    }
    this.sessions.delete(sessionId);
    this.sessions.set(sessionId, { st, atMs });
    this.forgetSessions();
  }

  /**
   * Rows for every viewer heard since the last drain, whole seconds only (the rest stays for
   * the next one). Viewers not heard from for 5 minutes before `nowMs` are forgotten, with
   * their remainder below a second.
   */
  drain(nowMs = this.latestMs): AttendanceRow[] {
    const rows: AttendanceRow[] = [];
    const oldest = nowMs - this.forgetAfterMs;
    for (const [key, e] of this.viewers) {
      if (e.firstMs !== null) {
        const seconds = Math.floor(e.creditMs / 1000);
        e.creditMs -= seconds * 1000;
        rows.push({
          stream_id: e.streamId,
          viewer_id: e.viewerId,
          name: e.name,
          watch_seconds: seconds,
          first_seen_at: new Date(e.firstMs),
          last_seen_at: new Date(e.lastMs),
        });
        e.firstMs = null;
      } else if (e.lastMs < oldest) {
        this.viewers.delete(key);
      }
    }
    for (const [id, s] of this.sessions) {
      if (s.atMs >= oldest) break;
      this.sessions.delete(id);
    }
    return rows;
  }

  /** Sessions and viewers remembered now. */
  get size(): { sessions: number; viewers: number } {
    return { sessions: this.sessions.size, viewers: this.viewers.size };
  }

  private touch(v: AttendanceViewer, atMs: number): ViewerEntry {
    this.latestMs = Math.max(this.latestMs, atMs);
    const key = viewerKey(v.streamId, v.viewerId);
    let entry = this.viewers.get(key);
    if (entry) {
      this.viewers.delete(key);
      entry.firstMs = entry.firstMs === null ? atMs : Math.min(entry.firstMs, atMs);
      entry.lastMs = Math.max(entry.lastMs, atMs);
      if (v.name !== null) entry.name = v.name;
    } else {
      entry = {
        streamId: v.streamId,
        viewerId: v.viewerId,
        name: v.name,
        creditMs: 0,
        firstMs: atMs,
        lastMs: atMs,
        creditedUntilMs: -Infinity,
      };
    }
    this.viewers.set(key, entry);
    while (this.viewers.size > this.maxEntries) {
      const [oldestKey, oldest] = this.viewers.entries().next().value as [string, ViewerEntry];
      if (oldest.firstMs !== null) this.evicted += 1;
      this.viewers.delete(oldestKey);
    }
    return entry;
  }

  private forgetSessions(): void {
    const oldest = this.latestMs - this.forgetAfterMs;
    for (const [id, s] of this.sessions) {
      if (s.atMs >= oldest && this.sessions.size <= this.maxEntries) break;
      this.sessions.delete(id);
    }
  }
}

/**
 * One row per (stream, viewer): seconds added, the earliest first and the latest last sighting,
 * the name of the newest row that has one. Sorted by stream and viewer, so that nodes writing
 * the same rows lock them in the same order.
 */
export function mergeAttendance(rows: Iterable<AttendanceRow>): AttendanceRow[] {
  const merged = new Map<string, AttendanceRow>();
  for (const row of rows) {
    const key = viewerKey(row.stream_id, row.viewer_id);
    const known = merged.get(key);
    if (!known) {
      merged.set(key, { ...row });
      continue;
    }
    const newer = row.last_seen_at >= known.last_seen_at;
    known.name = newer ? (row.name ?? known.name) : (known.name ?? row.name);
    known.watch_seconds += row.watch_seconds;
    if (row.first_seen_at < known.first_seen_at) known.first_seen_at = row.first_seen_at;
    if (newer) known.last_seen_at = row.last_seen_at;
  }
  return [...merged.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}
