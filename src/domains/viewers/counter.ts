import type { Clock } from '../../core/clock.js';

/** What a player reports: `w` waiting, `p` playing, `z` paused, `b` buffering. */
export const BEAT_STATES = ['w', 'p', 'z', 'b'] as const;
export type BeatState = (typeof BEAT_STATES)[number];

/** One beat of the hosted player; `s` (random per page load) lives in memory only. */
export interface BeatInput {
  s: string;
  st: BeatState;
  u: number;
}

/** The spec's `viewers.now`. */
export interface NowEstimate {
  watching: number;
  waiting: number;
  buffering_pct: number;
  measured_at: string;
  exact: boolean;
}

/** The embed read's `beacon`. */
export interface Beacon {
  rate: number;
  interval_seconds: number;
}

/**
 * One node's share of one minute of one stream, in viewer-seconds (estimate × seconds it held):
 * rows of several nodes, or of one node before and after a restart, add up; the average number
 * of viewers in the minute is a column divided by 60.
 */
export interface MinuteRow {
  stream_id: string;
  /** Start of the minute (UTC). */
  minute: Date;
  watching_seconds: number;
  waiting_seconds: number;
  buffering_seconds: number;
  watched_seconds: number;
  exact: boolean;
}

/** Up to this estimated audience every player reports (the spec's "up to about 400"). */
export const EXACT_UP_TO = 400;
/** Above it, about this many players report: the estimate's relative standard error is 1/sqrt(K) = 2%. */
export const SAMPLE_TARGET = 2500;
/** Tracked reporters per stream, so that beats with made-up ids cannot grow memory without bound. */
export const MAX_REPORTERS_PER_STREAM = 20_000;
/** Players read the embed (and so learn the rate) about this often. */
const EMBED_REFRESH_SECONDS = 60;
/** The audience behind the published rate is re-measured at most this often (a measure scans the reporters). */
const RATE_REFRESH_MS = 1000;
const RATE_DECIMALS = 10_000;
const MIN_RATE = 1 / RATE_DECIMALS;
const MINUTE_MS = 60_000;

/** The share of players that report for an estimated audience of `n`, rounded down to 4 decimals. */
export function beaconRate(n: number, exactUpTo = EXACT_UP_TO, sampleTarget = SAMPLE_TARGET): number {
  if (n <= exactUpTo) return 1;
  return Math.max(MIN_RATE, Math.floor((sampleTarget * RATE_DECIMALS) / (n + sampleTarget)) / RATE_DECIMALS);
}

/** Adds `row` into the row of the same stream and minute (they are additive by construction). */
function addMinute(into: Map<string, MinuteRow>, row: MinuteRow): void {
  const key = `${row.stream_id} ${row.minute.getTime()}`;
  const known = into.get(key);
  if (!known) {
    into.set(key, { ...row });
    return;
  }
  known.watching_seconds += row.watching_seconds;
  known.waiting_seconds += row.waiting_seconds;
  known.buffering_seconds += row.buffering_seconds;
  known.watched_seconds += row.watched_seconds;
  known.exact &&= row.exact;
}

/** One row per stream and minute, the others added into it. */
export function mergeMinutes(rows: Iterable<MinuteRow>): MinuteRow[] {
  const merged = new Map<string, MinuteRow>();
  for (const row of rows) addMinute(merged, row);
  return [...merged.values()];
}

export interface ViewerCounterOptions {
  clock: Clock;
  intervalSeconds: number;
  /** How often `sample()` is called; a sample holds for the time since the previous one, at most twice this. */
  sampleSeconds?: number;
  exactUpTo?: number;
  sampleTarget?: number;
  maxReportersPerStream?: number;
}

interface Reporter {
  st: BeatState;
  u: number;
  at: number;
}

/** Live reporters counted by state: those with `u` below `rate` (the lowest rate players may still use). */
interface Measure {
  rate: number;
  p: number;
  z: number;
  b: number;
  w: number;
}

interface OpenMinute {
  start: number;
  watching: number;
  waiting: number;
  buffering: number;
  watched: number;
  exact: boolean;
  /** Any sample counted someone: minutes with nobody on the player make no row. */
  someone: boolean;
}

interface StreamCount {
  reporters: Map<string, Reporter>;
  /** The rate to publish now, from the last measure. */
  rate: number;
  /** The highest rate players may be using: beats with `u` at or above it are never counted. */
  ceiling: number;
  measuredAt: number;
  /** Rates published recently → when last published (players may still be using them). */
  published: Map<number, number>;
  minute: OpenMinute | null;
}

/**
 * Counts the hosted player's beats of this node in memory (docs/decisions.md, Viewer counting):
 * the live estimate per stream, the rate players report at, and per-minute rows to flush.
 */
export class ViewerCounter {
  private readonly streams = new Map<string, StreamCount>();
  private readonly finished = new Map<string, MinuteRow>();
  private readonly clock: Clock;
  private readonly intervalSeconds: number;
  /** How often `sample()` is meant to be called. */
  readonly sampleSeconds: number;
  private readonly exactUpTo: number;
  private readonly sampleTarget: number;
  private readonly maxReporters: number;
  /** A reporter counts while its last beat is at most this old. */
  private readonly liveMs: number;
  /** A published rate may be in use this long: until every player read the embed again and beat. */
  private readonly rateMemoryMs: number;
  private lastSampleAt: number | null = null;

  constructor(opts: ViewerCounterOptions) {
    this.clock = opts.clock;
    this.intervalSeconds = opts.intervalSeconds;
    this.sampleSeconds = opts.sampleSeconds ?? 5;
    this.exactUpTo = opts.exactUpTo ?? EXACT_UP_TO;
    this.sampleTarget = opts.sampleTarget ?? SAMPLE_TARGET;
    this.maxReporters = opts.maxReportersPerStream ?? MAX_REPORTERS_PER_STREAM;
    this.liveMs = (1.5 * opts.intervalSeconds + 2) * 1000;
    this.rateMemoryMs = (EMBED_REFRESH_SECONDS + 2 * opts.intervalSeconds) * 1000;
  }

  /** The beacon to publish now; its rate is remembered as published. */
  beacon(streamId: string): Beacon {
    const state = this.streams.get(streamId);
    let rate = 1;
    if (state) {
      const now = this.clock.now().getTime();
      if (now - state.measuredAt >= RATE_REFRESH_MS) this.measure(state, now);
      rate = state.rate;
      state.published.set(rate, now);
    }
    return { rate, interval_seconds: this.intervalSeconds };
  }

  /** Only for streams that are pending or live: a beat after `forget` starts counting again. */
  beat(streamId: string, beat: BeatInput): void {
    if (!(beat.u >= 0 && beat.u < 1)) return;
    let state = this.streams.get(streamId);
    if (!state) {
      state = { reporters: new Map(), rate: 1, ceiling: 1, measuredAt: -Infinity, published: new Map(), minute: null };
      this.streams.set(streamId, state);
    }
    // At or above every rate in use a player is not counted before it beats again under a newly
    // published higher rate (the lowest rate in use stays lower until then): dropping it now
    // bounds memory.
    if (beat.u >= state.ceiling) {
      state.reporters.delete(beat.s);
      return;
    }
    const at = this.clock.now().getTime();
    const known = state.reporters.get(beat.s);
    if (known) {
      known.st = beat.st;
      known.u = beat.u;
      known.at = at;
    } else if (state.reporters.size < this.maxReporters) {
      state.reporters.set(beat.s, { st: beat.st, u: beat.u, at });
    }
  }

  /** The streams with players counted on this node. */
  streamIds(): string[] {
    return [...this.streams.keys()];
  }

  /** The live estimate; null when nobody is counted on the player. */
  now(streamId: string): NowEstimate | null {
    const state = this.streams.get(streamId);
    if (!state) return null;
    const now = this.clock.now();
    const m = this.measure(state, now.getTime());
    const watching = m.p + m.z + m.b;
    if (watching + m.w === 0) return null;
    return {
      watching: Math.round(watching / m.rate),
      waiting: Math.round(m.w / m.rate),
      buffering_pct: watching === 0 ? 0 : Math.round((1000 * m.b) / watching) / 10,
      measured_at: now.toISOString(),
      exact: m.rate === 1,
    };
  }

  /**
   * One sample of every stream into its open minute, weighted by the time since the previous
   * sample; a minute is closed by the first sample after it. Streams with nobody left and no
   * rate in use are dropped.
   */
  sample(): void {
    const now = this.clock.now().getTime();
    const seconds = this.lastSampleAt === null ? this.sampleSeconds : Math.min(Math.max(0, (now - this.lastSampleAt) / 1000), 2 * this.sampleSeconds);
    this.lastSampleAt = now;
    const start = now - (now % MINUTE_MS);
    for (const [id, state] of this.streams) {
      const m = this.measure(state, now);
      if (state.minute && state.minute.start !== start) this.close(id, state);
      const open = (state.minute ??= { start, watching: 0, waiting: 0, buffering: 0, watched: 0, exact: true, someone: false });
      const weight = seconds / m.rate;
      open.watching += (m.p + m.z + m.b) * weight;
      open.waiting += m.w * weight;
      open.buffering += m.b * weight;
      open.watched += (m.p + m.b) * weight;
      open.exact &&= m.rate === 1;
      open.someone ||= m.p + m.z + m.b + m.w > 0;
      if (state.reporters.size === 0 && state.published.size === 0) this.forget(id);
    }
  }

  /** Minutes finished since the last drain, oldest first; `partial` also closes the open ones (on shutdown). */
  drainMinutes(opts: { partial?: boolean } = {}): MinuteRow[] {
    const now = this.clock.now().getTime();
    const start = now - (now % MINUTE_MS);
    for (const [id, state] of this.streams) {
      if (state.minute && (opts.partial || state.minute.start < start)) this.close(id, state);
    }
    const rows = [...this.finished.values()].sort((a, b) => a.minute.getTime() - b.minute.getTime() || a.stream_id.localeCompare(b.stream_id));
    this.finished.clear();
    return rows;
  }

  /** The streams with watched seconds not drained yet (counted now, or closed minutes waiting). */
  undrainedStreamIds(): string[] {
    return [...new Set([...this.streams.keys(), ...[...this.finished.values()].map((row) => row.stream_id)])];
  }

  /** Watched viewer-seconds of a stream not drained yet (the open minute included). */
  undrainedWatchedSeconds(streamId: string): number {
    let seconds = this.streams.get(streamId)?.minute?.watched ?? 0;
    for (const row of this.finished.values()) if (row.stream_id === streamId) seconds += row.watched_seconds;
    return seconds;
  }

  /** The stream is over: its open minute is closed (drained with the others) and its reporters dropped. */
  forget(streamId: string): void {
    const state = this.streams.get(streamId);
    if (!state) return;
    this.close(streamId, state);
    this.streams.delete(streamId);
  }

  /** Counts live reporters (dropping expired ones) and sets the rate to publish from the estimate. */
  private measure(state: StreamCount, now: number): Measure {
    for (const [rate, at] of state.published) if (now - at > this.rateMemoryMs) state.published.delete(rate);
    const rate = Math.min(state.rate, ...state.published.keys());
    const m: Measure = { rate, p: 0, z: 0, b: 0, w: 0 };
    const oldest = now - this.liveMs;
    for (const [s, r] of state.reporters) {
      if (r.at < oldest) state.reporters.delete(s);
      else if (r.u < rate) m[r.st] += 1;
    }
    state.rate = beaconRate(Math.round((m.p + m.z + m.b + m.w) / rate), this.exactUpTo, this.sampleTarget);
    state.ceiling = Math.max(state.rate, ...state.published.keys());
    state.measuredAt = now;
    return m;
  }

  private close(streamId: string, state: StreamCount): void {
    const open = state.minute;
    state.minute = null;
    if (!open?.someone) return;
    addMinute(this.finished, {
      stream_id: streamId,
      minute: new Date(open.start),
      watching_seconds: open.watching,
      waiting_seconds: open.waiting,
      buffering_seconds: open.buffering,
      watched_seconds: open.watched,
      exact: open.exact,
    });
  }
}
