import type { Logger } from '../../../core/logger.js';
import { iso } from '../../../core/time.js';
import type { Sql } from '../../../platform/db/connect.js';
import { oneRowJsonSql, rowFromJson, runComposed } from '../../../platform/db/embed.js';
import { cdnCountries, cdnMinutes, countedUntil, COUNTED_UNTIL_SQL } from '../../ledger/cdnlog/queries.js';
import type { CdnSeriesPoint, CountryShare, PlayerSeriesPoint, Viewers } from '../../streams/service.js';
import { mergeMinutes, type MinuteRow, type NowEstimate, type ViewerCounter } from './counter.js';
import type { CountedFigures } from './mirror.js';
import { addNow, type NodeFigures } from './nodes.js';
import * as q from './queries.js';

/** Minutes kept for the next flush while the database refuses them (about 2 hours of 1000 streams). */
const MAX_UNWRITTEN = 100_000;

/** The counter carries the clock: every time here is the counter's. */
export interface ViewersDeps {
  sql: Sql;
  logger: Logger;
  counter: ViewerCounter;
  /**
   * The other API nodes' figures (absent in an API worker process, whose counter mirrors its
   * appliance's figures with the other nodes' already added).
   */
  others?: NodeFigures;
}

/** How often a node writes its figures for the others and reads theirs. */
const EXCHANGE_MS = 1000;

/** Countries listed in a viewer series (the spec's "up to 30"). */
const MAX_COUNTRIES = 30;
/**
 * The CDN count covers a stream once the log was read this far past its end: players fetch the
 * last segments until the stream's folder leaves the origin, a minute after the end.
 */
const CDN_SETTLE_MS = 2 * 60_000;

const perMinute = (seconds: number): number => Math.round(seconds / 60);
const share = (part: number, total: number): number => (total > 0 ? Math.round((10_000 * part) / total) / 10_000 : 0);

/** The CDN log has counted the whole stream: it ended and the log was read past its end. */
const cdnCovers = (a: q.Audience, endedAt: Date | null, countedUntil: Date | null): boolean =>
  a.cdn_has_data &&
  endedAt !== null &&
  countedUntil !== null &&
  countedUntil.getTime() >= endedAt.getTime() + CDN_SETTLE_MS;
const bufferingPct = (buffering: number, watching: number): number =>
  watching > 0 ? Math.round((1000 * buffering) / watching) / 10 : 0;

/** Viewer figures of a stream: this node's live estimate and every node's minutes in PostgreSQL. */
/**
 * What the spec's Viewers are made of, as one json value (text to compose a statement with,
 * `runComposed`): a stream's read places it in its own statement (one round trip, issue 16) and
 * hands what it read to `viewersFrom`. `streamId` is an expression: the read's own row's id. The
 * figures are kept by PostgreSQL (`stream_audience`): one row by its key.
 */
const figuresSql = (streamId: string): string =>
  `json_build_object('audience', ${oneRowJsonSql(q.audienceSql(streamId))}, 'counted_until', (${COUNTED_UNTIL_SQL}))`;

const VIEWERS_SQL = `select s.ended_at, ${figuresSql('s.id')} as figures from streams s where s.id = $1`;

export class ViewersService {
  private readonly log: Logger;
  /** Drained but not written (the database failed): written with the next flush. */
  private unwritten: MinuteRow[] = [];

  constructor(private readonly deps: ViewersDeps) {
    this.log = deps.logger.child({ domain: 'viewers' });
  }

  /**
   * Writes the finished minutes (with `partial`, the open ones too: on shutdown); returns the
   * rows written. Every node flushes its own counts: never run it under a cluster-wide lock.
   */
  async flush(opts: { partial?: boolean } = {}): Promise<number> {
    const rows = mergeMinutes([...this.unwritten, ...this.deps.counter.drainMinutes(opts)]);
    this.unwritten = [];
    try {
      return await this.deps.sql.begin((tx) => q.addMinutes(tx, rows));
    } catch (err) {
      const kept = mergeMinutes([...rows, ...this.unwritten]);
      this.unwritten = kept.slice(-MAX_UNWRITTEN);
      if (kept.length > MAX_UNWRITTEN)
        this.log.warn(
          { dropped: kept.length - MAX_UNWRITTEN },
          'viewer minutes dropped: the database refused them too long',
        );
      throw err;
    }
  }

  /**
   * Samples the counter on its period and flushes every minute, on this node. Returns its stop,
   * which writes the open minutes too.
   */
  start(): () => Promise<void> {
    let flushing: Promise<unknown> | null = null;
    const flush = (opts: { partial?: boolean } = {}) =>
      (flushing ??= this.flush(opts)
        .catch((err: unknown) => this.log.error({ err }, 'viewer minutes not written; kept for the next flush'))
        .finally(() => (flushing = null)));
    const sampler = setInterval(() => this.deps.counter.sample(), this.deps.counter.sampleSeconds * 1000);
    const flusher = setInterval(() => void flush(), 60_000);
    const { others } = this.deps;
    let exchanging = false;
    const exchanger = setInterval(() => {
      if (!others || exchanging) return;
      exchanging = true;
      others
        .exchange(this.localFigures())
        .catch((err: unknown) => this.log.debug({ err }, 'viewer figures not exchanged with the other nodes'))
        .finally(() => (exchanging = false));
    }, EXCHANGE_MS);
    return async () => {
      clearInterval(sampler);
      clearInterval(flusher);
      clearInterval(exchanger);
      await flushing;
      await flush({ partial: true });
    };
  }

  /** See `figuresSql`: a stream's read composes its statement with it. */
  figuresSql(streamId: string): string {
    return figuresSql(streamId);
  }

  /** The spec's Viewers of one stream, read alone. */
  async viewers(streamId: string): Promise<Viewers> {
    const [row] = await runComposed<{ ended_at: Date | null; figures: unknown }>(this.deps.sql, VIEWERS_SQL, [
      streamId,
    ]);
    return this.viewersFrom(
      { id: streamId, ended_at: row?.ended_at ?? null },
      row?.figures ?? { audience: null, counted_until: null },
    );
  }

  /**
   * The spec's Viewers from `figuresSql`'s value (no audience row: nothing counted) and the
   * stream's own row: `now` from this node's counter; `peak` from the minutes written (they trail
   * by up to a minute); `watch_minutes` adds this node's minutes not written yet.
   */
  viewersFrom(stream: { id: string; ended_at: Date | null }, figures: unknown): Viewers {
    const read = rowFromJson<{ audience: unknown; counted_until: Date | null }>(figures, ['counted_until']);
    const a = read.audience === null ? q.NOTHING_COUNTED : rowFromJson<q.Audience>(read.audience, q.AUDIENCE_DATES);
    const now = this.nowOf(stream.id);
    const cdn_counted_until = a.cdn_has_data ? iso(read.counted_until) : null;
    if (cdnCovers(a, stream.ended_at, read.counted_until)) {
      return {
        now,
        peak: a.cdn_peak,
        peak_at: iso(a.cdn_peak_minute),
        watch_minutes: a.cdn_watch_minutes,
        source: 'cdn',
        cdn_counted_until,
      };
    }
    const pending = this.pendingWatchedSeconds(stream.id);
    const counted = a.player_minutes > 0 || pending > 0;
    return {
      now,
      peak: a.peak_watching_seconds === null ? null : perMinute(a.peak_watching_seconds),
      peak_at: iso(a.peak_minute),
      watch_minutes: counted ? perMinute(a.watched_seconds + pending) : null,
      source: counted ? 'player' : null,
      cdn_counted_until,
    };
  }

  /** `viewers_now`: watching on the player now (every node's); null when nobody is on the player. */
  viewersNow(streamId: string): number | null {
    return this.nowOf(streamId)?.watching ?? null;
  }

  /** `viewers.now`: this node's count and the other nodes'. */
  private nowOf(streamId: string): NowEstimate | null {
    return addNow(this.deps.counter.now(streamId), this.deps.others?.now(streamId) ?? null);
  }

  /** The ViewerSeries' `player`: one point per minute with someone on the player, oldest first. */
  async series(streamId: string): Promise<PlayerSeriesPoint[]> {
    const minutes = await q.listMinutes(this.deps.sql, streamId);
    return minutes.map((m) => ({
      minute: m.minute.toISOString(),
      watching: perMinute(m.watching_seconds),
      waiting: perMinute(m.waiting_seconds),
      buffering_pct: bufferingPct(m.buffering_seconds, m.watching_seconds),
      exact: m.exact,
    }));
  }

  /**
   * The ViewerSeries' `cdn` (distinct viewers per minute, each minute once the log was read past
   * its end, oldest first) and `countries` (share of CDN watch time, largest first, up to 30).
   */
  async cdnSeries(streamId: string): Promise<{ cdn: CdnSeriesPoint[]; countries: CountryShare[] }> {
    const { sql } = this.deps;
    const until = await countedUntil(sql);
    const [minutes, countries] = await Promise.all([
      until ? cdnMinutes(sql, streamId, until) : [],
      cdnCountries(sql, streamId, MAX_COUNTRIES),
    ]);
    return {
      cdn: minutes.map((m) => ({ minute: m.minute.toISOString(), viewers: m.viewers })),
      countries: countries.map((c) => ({
        country: c.country,
        share: share(c.watch_minutes, c.total),
        watch_minutes: c.watch_minutes,
      })),
    };
  }

  /** Minutes watched so far (for `player.watch_minutes_limit`), this node's unwritten ones included. */
  async watchMinutes(streamId: string): Promise<number> {
    return perMinute((await q.watchedSeconds(this.deps.sql, streamId)) + this.pendingWatchedSeconds(streamId));
  }

  /**
   * Minutes that count towards `player.watch_minutes_limit`: `watchMinutes` without the address
   * that watched most on this node, so one address (forged beats, or one household) never closes a
   * player for everyone else.
   */
  async limitMinutes(streamId: string): Promise<number> {
    return this.limitMinutesFrom(streamId, await q.watchedSeconds(this.deps.sql, streamId));
  }

  /** `limitMinutes` of several streams in one query (the refusals nginx keeps, every few seconds). */
  async limitMinutesOf(streamIds: string[]): Promise<Map<string, number>> {
    if (streamIds.length === 0) return new Map();
    const written = await q.watchedSecondsOf(this.deps.sql, streamIds);
    return new Map(streamIds.map((id) => [id, this.limitMinutesFrom(id, written.get(id) ?? 0)]));
  }

  private limitMinutesFrom(streamId: string, writtenSeconds: number): number {
    const seconds = writtenSeconds + this.pendingWatchedSeconds(streamId);
    return perMinute(Math.max(0, seconds - this.largestAddressSeconds(streamId)));
  }

  /** Every stream's watched seconds not written yet (every node's), for a mirror elsewhere. */
  pendingWatched(): Record<string, number> {
    return this.pendingOf((id) => this.pendingWatchedSeconds(id));
  }

  /** What this node's readers show, every node's figures added: for a mirror in a worker process. */
  figures(): CountedFigures {
    const ids = new Set([...this.deps.counter.streamIds(), ...(this.deps.others?.streamIds() ?? [])]);
    const now: Record<string, NowEstimate> = {};
    const largestAddress: Record<string, number> = {};
    for (const id of ids) {
      const estimate = this.nowOf(id);
      if (estimate) now[id] = estimate;
      const largest = this.largestAddressSeconds(id);
      if (largest > 0) largestAddress[id] = largest;
    }
    return { now, pendingWatched: this.pendingWatched(), largestAddress };
  }

  /** What this node counted itself, for the other nodes (never what it read of theirs). */
  private localFigures(): CountedFigures {
    const { counter } = this.deps;
    const now: Record<string, NowEstimate> = {};
    const largestAddress: Record<string, number> = {};
    for (const id of counter.streamIds()) {
      const estimate = counter.now(id);
      if (estimate) now[id] = estimate;
      const largest = counter.largestAddressWatchedSeconds(id);
      if (largest > 0) largestAddress[id] = largest;
    }
    return { now, pendingWatched: this.pendingOf((id) => this.localPendingSeconds(id)), largestAddress };
  }

  private pendingOf(seconds: (streamId: string) => number): Record<string, number> {
    const pending: Record<string, number> = {};
    for (const id of new Set([
      ...this.deps.counter.undrainedStreamIds(),
      ...this.unwritten.map((row) => row.stream_id),
      ...(this.deps.others?.streamIds() ?? []),
    ])) {
      const s = seconds(id);
      if (s > 0) pending[id] = s;
    }
    return pending;
  }

  /** Watched seconds not written yet: this node's and the other nodes'. */
  private pendingWatchedSeconds(streamId: string): number {
    return this.localPendingSeconds(streamId) + (this.deps.others?.pendingWatched(streamId) ?? 0);
  }

  private localPendingSeconds(streamId: string): number {
    let seconds = this.deps.counter.undrainedWatchedSeconds(streamId);
    for (const row of this.unwritten) if (row.stream_id === streamId) seconds += row.watched_seconds;
    return seconds;
  }

  /** The address that watched most on any one node (the limit leaves it out). */
  private largestAddressSeconds(streamId: string): number {
    return Math.max(
      this.deps.counter.largestAddressWatchedSeconds(streamId),
      this.deps.others?.largestAddress(streamId) ?? 0,
    );
  }
}
