import { DEFAULT_VIEWERS } from '../../../config/config.js';
import type { Clock } from '../../../core/clock.js';

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
/** What one address (IPv4, or IPv6 /64) may add to a stream's estimate on a node (docs/decisions.md, "Hardening: beats per address"). */
export interface AddressBudget {
  /** New viewers (page loads) at once: an office arriving together. */
  burst: number;
  /** New viewers per minute once the burst is spent. */
  perMinute: number;
  /** Viewers counted at once. */
  max: number;
}
const ADDRESS_BUDGET: AddressBudget = {
  burst: DEFAULT_VIEWERS.address_new_viewers_burst,
  perMinute: DEFAULT_VIEWERS.address_new_viewers_per_minute,
  max: DEFAULT_VIEWERS.address_max_viewers,
};
/** Addresses whose watched time is remembered per stream (the largest ones are kept). */
const MAX_WATCHING_ADDRESSES = 20_000;
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

/** Keeps the `keep` largest entries of `map` (the small ones cannot be the largest). */
function keepLargest(map: Map<string, number>, keep: number): void {
  const sorted = [...map].sort((a, b) => b[1] - a[1]);
  map.clear();
  for (const [k, v] of sorted.slice(0, keep)) map.set(k, v);
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
  perAddress?: AddressBudget;
}

interface Reporter {
  st: BeatState;
  u: number;
  at: number;
  /** The network it beats from (`networkOf`): memory only, like `s`. */
  address: string;
}

/** One address's share of a stream: a token bucket of new viewers (in estimated viewers) and its live players. */
interface AddressShare {
  tokens: number;
  refilledAt: number;
  live: number;
}

/** Live reporters counted by state: those with `u` below `rate` (the lowest rate players may still use). */
interface Measure {
  rate: number;
  p: number;
  z: number;
  b: number;
  w: number;
  /** Counted watched players (`p`, `b`) per address. */
  watchedBy: Map<string, number>;
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
  addresses: Map<string, AddressShare>;
  /** Watched viewer-seconds per address on this node (what `watch_minutes_limit` leaves out of the largest). */
  watchedBy: Map<string, number>;
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
  private readonly perAddress: AddressBudget;
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
    this.perAddress = opts.perAddress ?? ADDRESS_BUDGET;
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

  /**
   * Only for streams that are pending or live: a beat after `forget` starts counting again.
   * `address` is the beat's network (`networkOf`). Returns null when taken (counted, or dropped as
   * a player that is not to report), or the seconds after which an address over its budget of new
   * viewers may try again: its excess is refused, never counted.
   */
  beat(streamId: string, beat: BeatInput, address = ''): number | null {
    if (!(beat.u >= 0 && beat.u < 1)) return null;
    let state = this.streams.get(streamId);
    if (!state) {
      state = {
        reporters: new Map(),
        rate: 1,
        ceiling: 1,
        measuredAt: -Infinity,
        published: new Map(),
        minute: null,
        addresses: new Map(),
        watchedBy: new Map(),
      };
      this.streams.set(streamId, state);
    }
    // At or above every rate in use a player is not counted before it beats again under a newly
    // published higher rate (the lowest rate in use stays lower until then): dropping it now
    // bounds memory.
    if (beat.u >= state.ceiling) {
      this.drop(state, beat.s);
      return null;
    }
    const at = this.clock.now().getTime();
    const known = state.reporters.get(beat.s);
    if (known) {
      // One page load is one viewer however often it beats: its latest state wins.
      known.st = beat.st;
      known.u = beat.u;
      known.at = at;
      if (known.address !== address) {
        this.share(state, known.address, at).live -= 1;
        this.share(state, address, at).live += 1;
        known.address = address;
      }
      return null;
    }
    if (state.reporters.size >= this.maxReporters) return null;
    // A new page load costs its address what it adds to the estimate (1 / the rate it is counted at),
    // so a forged `u` below the rate buys no more than an honest sample of the same crowd.
    const weight = 1 / Math.min(state.rate, ...state.published.keys());
    const share = this.share(state, address, at);
    if ((share.live + 1) * weight > this.perAddress.max) return Math.ceil(this.liveMs / 1000);
    if (share.tokens < weight)
      return Math.max(1, Math.ceil(((weight - share.tokens) * 60) / this.perAddress.perMinute));
    share.tokens -= weight;
    share.live += 1;
    state.reporters.set(beat.s, { st: beat.st, u: beat.u, at, address });
    return null;
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
    const seconds =
      this.lastSampleAt === null
        ? this.sampleSeconds
        : Math.min(Math.max(0, (now - this.lastSampleAt) / 1000), 2 * this.sampleSeconds);
    this.lastSampleAt = now;
    const start = now - (now % MINUTE_MS);
    for (const [id, state] of this.streams) {
      const m = this.measure(state, now);
      if (state.minute && state.minute.start !== start) this.close(id, state);
      const open = (state.minute ??= {
        start,
        watching: 0,
        waiting: 0,
        buffering: 0,
        watched: 0,
        exact: true,
        someone: false,
      });
      const weight = seconds / m.rate;
      open.watching += (m.p + m.z + m.b) * weight;
      open.waiting += m.w * weight;
      open.buffering += m.b * weight;
      open.watched += (m.p + m.b) * weight;
      open.exact &&= m.rate === 1;
      open.someone ||= m.p + m.z + m.b + m.w > 0;
      for (const [address, n] of m.watchedBy)
        state.watchedBy.set(address, (state.watchedBy.get(address) ?? 0) + n * weight);
      if (state.watchedBy.size > MAX_WATCHING_ADDRESSES) keepLargest(state.watchedBy, MAX_WATCHING_ADDRESSES / 2);
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
    const rows = [...this.finished.values()].sort(
      (a, b) => a.minute.getTime() - b.minute.getTime() || a.stream_id.localeCompare(b.stream_id),
    );
    this.finished.clear();
    return rows;
  }

  /** The streams with watched seconds not drained yet (counted now, or closed minutes waiting). */
  undrainedStreamIds(): string[] {
    return [...new Set([...this.streams.keys(), ...[...this.finished.values()].map((row) => row.stream_id)])];
  }

  /**
   * The watched viewer-seconds of the address that watched most on this node: `watch_minutes_limit`
   * leaves them out, so no single address closes a player.
   */
  largestAddressWatchedSeconds(streamId: string): number {
    const watchedBy = this.streams.get(streamId)?.watchedBy;
    return watchedBy ? Math.max(0, ...watchedBy.values()) : 0;
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

  /**
   * Counts live reporters (dropping expired ones) and sets the rate to publish from the estimate.
   * An address counts at most `perAddress.max` viewers at the rate in use (at least one player):
   * players admitted while the rate was higher do not count more when it falls.
   */
  private measure(state: StreamCount, now: number): Measure {
    for (const [rate, at] of state.published) if (now - at > this.rateMemoryMs) state.published.delete(rate);
    const rate = Math.min(state.rate, ...state.published.keys());
    const m: Measure = { rate, p: 0, z: 0, b: 0, w: 0, watchedBy: new Map() };
    const oldest = now - this.liveMs;
    const perAddress = Math.max(1, Math.floor(this.perAddress.max * rate));
    const counted = new Map<string, number>();
    for (const [s, r] of state.reporters) {
      if (r.at < oldest) this.drop(state, s);
      else if (r.u < rate) {
        const n = counted.get(r.address) ?? 0;
        if (n >= perAddress) continue;
        counted.set(r.address, n + 1);
        m[r.st] += 1;
        if (r.st === 'p' || r.st === 'b') m.watchedBy.set(r.address, (m.watchedBy.get(r.address) ?? 0) + 1);
      }
    }
    for (const [address, share] of state.addresses)
      if (share.live === 0 && this.refill(share, now) >= this.perAddress.burst) state.addresses.delete(address);
    state.rate = beaconRate(Math.round((m.p + m.z + m.b + m.w) / rate), this.exactUpTo, this.sampleTarget);
    state.ceiling = Math.max(state.rate, ...state.published.keys());
    state.measuredAt = now;
    return m;
  }

  /** The address's share of the stream, its bucket refilled up to now. */
  private share(state: StreamCount, address: string, now: number): AddressShare {
    let share = state.addresses.get(address);
    if (!share) state.addresses.set(address, (share = { tokens: this.perAddress.burst, refilledAt: now, live: 0 }));
    this.refill(share, now);
    return share;
  }

  private refill(share: AddressShare, now: number): number {
    share.tokens = Math.min(
      this.perAddress.burst,
      share.tokens + ((now - share.refilledAt) / 60_000) * this.perAddress.perMinute,
    );
    share.refilledAt = now;
    return share.tokens;
  }

  private drop(state: StreamCount, s: string): void {
    const r = state.reporters.get(s);
    if (!r) return;
    state.reporters.delete(s);
    const share = state.addresses.get(r.address);
    if (share) share.live -= 1;
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
