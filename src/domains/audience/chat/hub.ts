import type { ServerResponse } from 'node:http';
import type { Clock } from '../../../core/clock.js';
import { newId } from '../../../core/ids.js';
import type { Logger } from '../../../core/logger.js';
import { Repeater } from '../../../core/repeater.js';
import type { Sql } from '../../../platform/db/connect.js';
import { CHAT_CHANNEL, presentMessage, type Announcement } from './log.js';
import * as q from './queries.js';

/** Events a node keeps per stream for readers that reconnect (`Last-Event-ID`). */
const RING = 500;
/** Messages a fresh reader starts with. */
const BACKLOG = 50;
/** A reader this far behind (its socket not draining) is cut; it reconnects and resumes. */
const MAX_BUFFERED_BYTES = 1 << 20;
const HEARTBEAT_MS = 15_000;
const RECONCILE_MS = 2000;
/** Our own ping not heard back within this: the LISTEN connection is gone, listen again. */
const LISTEN_SILENCE_MS = 6000;
const IDLE_FEED_MS = 60_000;
/** Reader writes per turn of the event loop while fanning out (requests run between turns). */
const WRITES_PER_TURN = 500;

/** One feed's share of a tick: who gets what. */
interface Batch {
  readers: Reader[];
  events: StoredEvent[];
  first: number;
  shared: Buffer | null;
  reactions: string;
}

interface StoredEvent {
  seq: number;
  kind: q.EventKind;
  /** The message id of a `message` event. */
  messageId: string | null;
  only: string | null;
  except: string | null;
  /** The SSE text of the event, built once for every reader. */
  frame: string;
  payload: Record<string, unknown>;
}

interface Reader {
  res: ServerResponse;
  /** The reader's viewer id (shadowed posts reach their author only). */
  viewerId: string | null;
  /** The feed position the reader has everything up to. */
  position: number;
}

/** Public like every answer under /v1/embed/ (the reply is written by hand: Fastify's hooks do not run). */
const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store',
  'x-accel-buffering': 'no',
  'access-control-allow-origin': '*',
};

const frameOf = (seq: number, kind: string, payload: unknown): string =>
  `id: ${seq}\nevent: ${kind}\ndata: ${JSON.stringify(payload)}\n\n`;

const stored = (
  seq: number,
  kind: q.EventKind,
  payload: Record<string, unknown>,
  only: string | null,
  except: string | null,
): StoredEvent => ({
  seq,
  kind,
  messageId: kind === 'message' ? (payload.id as string) : null,
  only,
  except,
  frame: frameOf(seq, kind, payload),
  payload,
});

const visibleTo = (reader: Reader, e: StoredEvent): boolean =>
  e.seq > reader.position && (e.only ? reader.viewerId === e.only : e.except ? reader.viewerId !== e.except : true);

/** One stream's feed on this node: readers, the recent past, and what the next tick sends. */
class Feed {
  readonly readers = new Set<Reader>();
  lastSeq = 0;
  ring: StoredEvent[] = [];
  /** The newest public messages (a fresh reader's backlog), by id, oldest first. */
  readonly recent = new Map<string, StoredEvent>();
  pending: StoredEvent[] = [];
  reactions = new Map<string, number>();
  reactionRate = 1;
  idleSince: number | null = null;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(readonly streamId: string) {}

  /** Changes to the feed run one at a time: the order of events is the order of positions. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn);
    this.chain = next.catch(() => undefined);
    return next;
  }

  apply(e: StoredEvent): void {
    this.lastSeq = e.seq;
    this.ring.push(e);
    if (this.ring.length > RING) this.ring.splice(0, this.ring.length - RING);
    this.pending.push(e);
    if (e.kind === 'message' && !e.only && e.messageId) {
      this.recent.set(e.messageId, e);
      if (this.recent.size > BACKLOG) this.recent.delete(this.recent.keys().next().value as string);
    }
    if (e.kind === 'delete') for (const id of e.payload.message_ids as string[]) this.recent.delete(id);
  }
}

export interface ChatHubOptions {
  sql: Sql;
  clock: Clock;
  logger: Logger;
  /** How often queued events go out to readers (batching bounds the writes per reader). */
  tickMs: number;
  /** Feed connections this node holds at most; more are refused with `chat_busy`. */
  maxReaders: number;
}

/**
 * A node's share of chat: it holds the feed connections of its readers and fans out every event
 * of their streams. Events reach every node through PostgreSQL (LISTEN/NOTIFY, delivered at
 * commit); a position per stream lets a node notice a gap and read what it missed from the
 * table, and a check every two seconds catches up whatever a lost connection dropped. So no
 * event is lost or sent twice, whichever node a viewer posts to or reads from.
 */
export class ChatHub {
  private readonly feeds = new Map<string, Feed>();
  private readonly loading = new Map<string, Promise<Feed>>();
  /** Reactions received by this node, per stream, waiting for the next announcement (weights, not yet rounded). */
  private readonly outgoing = new Map<string, { counts: Map<string, number>; rate: number }>();
  private readonly nodeId = newId('node_', 12);
  private readonly seenReactions = new Set<string>();
  private readerCount = 0;
  private lastPingAt = 0;
  private unlisten: (() => Promise<void>) | null = null;
  private relistening = false;
  private flushing = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly reconciler = new Repeater(() => this.reconcile(), RECONCILE_MS);

  constructor(private readonly opts: ChatHubOptions) {}

  get readers(): number {
    return this.readerCount;
  }

  /** Starts listening and the timers; returns the stop. */
  start(): () => Promise<void> {
    this.lastPingAt = this.nowMs();
    void this.listen();
    this.timers.push(setInterval(() => this.tick(), this.opts.tickMs));
    this.timers.push(setInterval(() => this.heartbeat(), HEARTBEAT_MS));
    this.timers.push(setInterval(() => void this.flushReactions(), 1000));
    this.reconciler.start();
    return () => this.stop();
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearInterval(t);
    this.timers.length = 0;
    await this.reconciler.stop();
    // A dead connection may never answer UNLISTEN: wait a second at most.
    await Promise.race([this.unlisten?.().catch(() => undefined), new Promise((r) => setTimeout(r, 1000).unref())]);
    for (const feed of this.feeds.values()) for (const r of feed.readers) r.res.end();
    this.feeds.clear();
  }

  full(): boolean {
    return this.readerCount >= this.opts.maxReaders;
  }

  /** Loads the stream's feed on this node (a first reader of the stream reads the database). */
  async prepare(streamId: string): Promise<void> {
    await this.feed(streamId);
  }

  /**
   * Adds a reader: from `after` when its events are still known (a reconnect), else a fresh start
   * (`reset`, the newest messages, the settings). `settings` is the stream's chat as a player sees it.
   */
  async connect(
    streamId: string,
    res: ServerResponse,
    reader: { viewerId: string | null; after: number | null; settings: unknown },
  ): Promise<void> {
    const feed = await this.feed(streamId);
    await feed.run(async () => {
      if (reader.after !== null && reader.after > feed.lastSeq) await this.catchUp(feed);
      const r: Reader = { res, viewerId: reader.viewerId, position: feed.lastSeq };
      let chunk = 'retry: 2000\n\n';
      const after = reader.after;
      const resumable =
        after !== null &&
        (after >= feed.lastSeq || (feed.ring.length > 0 && (feed.ring[0] as StoredEvent).seq <= after + 1));
      if (resumable) {
        const from: Reader = { ...r, position: after };
        chunk += feed.ring
          .filter((e) => visibleTo(from, e))
          .map((e) => e.frame)
          .join('');
      } else {
        const own = reader.viewerId ? feed.ring.filter((e) => e.kind === 'message' && e.only === reader.viewerId) : [];
        const backlog = [...feed.recent.values(), ...own].sort((a, b) => a.seq - b.seq);
        chunk +=
          'event: reset\ndata: {}\n\n' +
          backlog.map((e) => e.frame).join('') +
          frameOf(feed.lastSeq, 'settings', reader.settings);
      }
      if (!res.headersSent) res.writeHead(200, SSE_HEADERS);
      res.write(chunk);
      feed.readers.add(r);
      feed.idleSince = null;
      this.readerCount++;
      res.on('close', () => {
        if (!feed.readers.delete(r)) return;
        this.readerCount--;
        if (feed.readers.size === 0) feed.idleSince = this.nowMs();
      });
    });
  }

  /** Counts a reaction (already weighted by its sampling rate) towards the next announcement. */
  react(streamId: string, emoji: string, weight: number, rate: number): void {
    let entry = this.outgoing.get(streamId);
    if (!entry) this.outgoing.set(streamId, (entry = { counts: new Map(), rate }));
    entry.rate = rate;
    entry.counts.set(emoji, (entry.counts.get(emoji) ?? 0) + weight);
  }

  private nowMs(): number {
    return this.opts.clock.now().getTime();
  }

  private async feed(streamId: string): Promise<Feed> {
    const known = this.feeds.get(streamId);
    if (known) return known;
    let loading = this.loading.get(streamId);
    if (!loading) {
      loading = this.load(streamId).finally(() => this.loading.delete(streamId));
      this.loading.set(streamId, loading);
    }
    return loading;
  }

  private async load(streamId: string): Promise<Feed> {
    const { sql } = this.opts;
    const feed = new Feed(streamId);
    const lastSeq = (await q.lastSeqs(sql, [streamId])).get(streamId) ?? 0;
    const [events, messages] = await Promise.all([
      q.eventsAfter(sql, streamId, Math.max(0, lastSeq - RING), RING),
      q.visibleMessages(sql, streamId, { limit: BACKLOG, atOrBeforeSeq: lastSeq }),
    ]);
    feed.lastSeq = lastSeq;
    feed.ring = events
      .filter((e) => e.seq <= lastSeq)
      .map((e) => stored(e.seq, e.kind, e.payload, e.only_viewer, e.except_viewer));
    for (const m of messages.reverse()) feed.recent.set(m.id, stored(m.seq, 'message', presentMessage(m), null, null));
    this.feeds.set(streamId, feed);
    // Events committed while this was read were announced before the feed existed here.
    void feed
      .run(() => this.catchUp(feed))
      .catch((err) => this.opts.logger.debug({ err }, 'chat: catch-up after load failed'));
    return feed;
  }

  private async listen(): Promise<void> {
    try {
      const { unlisten } = await this.opts.sql.listen(
        CHAT_CHANNEL,
        (text) => this.onNotify(text),
        () => this.onListen(),
      );
      this.unlisten = unlisten;
    } catch (err) {
      this.opts.logger.debug({ err }, 'chat: listen failed; trying again');
    }
  }

  private onListen(): void {
    this.lastPingAt = this.nowMs();
    // Whatever was announced while the connection was away is read from the table now.
    for (const feed of this.feeds.values()) void feed.run(() => this.catchUp(feed)).catch(() => undefined);
  }

  private onNotify(text: string): void {
    let a: Announcement & { n?: string };
    try {
      a = JSON.parse(text) as Announcement & { n?: string };
    } catch {
      return;
    }
    if (a.k === 'ping') {
      if (a.n === this.nodeId) this.lastPingAt = this.nowMs();
      return;
    }
    const feed = this.feeds.get(a.s);
    if (!feed) return;
    if (a.k === 'reactions') {
      // Two listeners on one connection (a re-listen racing postgres.js's own) would count a second twice.
      const rid = (a as { r?: string }).r ?? '';
      if (this.seenReactions.has(rid)) return;
      this.seenReactions.add(rid);
      if (this.seenReactions.size > 10_000) this.seenReactions.clear();
      const p = a.p as { counts: Record<string, number>; rate: number };
      for (const [emoji, n] of Object.entries(p.counts))
        feed.reactions.set(emoji, (feed.reactions.get(emoji) ?? 0) + n);
      feed.reactionRate = p.rate;
      return;
    }
    const seq = a.q as number;
    void feed
      .run(async () => {
        if (seq <= feed.lastSeq) return;
        if (seq === feed.lastSeq + 1 && a.p) feed.apply(stored(seq, a.k as q.EventKind, a.p, a.o ?? null, a.x ?? null));
        else await this.catchUp(feed);
      })
      .catch((err) => this.opts.logger.debug({ err }, 'chat: catch-up failed; the next check tries again'));
  }

  /** Reads the events after the feed's position from the table (a gap, a lost connection). */
  private async catchUp(feed: Feed): Promise<void> {
    for (;;) {
      const rows = await q.eventsAfter(this.opts.sql, feed.streamId, feed.lastSeq, RING);
      for (const e of rows)
        if (e.seq === feed.lastSeq + 1) feed.apply(stored(e.seq, e.kind, e.payload, e.only_viewer, e.except_viewer));
      if (rows.length < RING) return;
    }
  }

  /** Every two seconds: feeds behind the table catch up, idle feeds go, and the LISTEN connection is checked. */
  private async reconcile(): Promise<void> {
    const now = this.nowMs();
    for (const [id, feed] of this.feeds)
      if (feed.idleSince !== null && now - feed.idleSince > IDLE_FEED_MS) this.feeds.delete(id);
    try {
      if (this.feeds.size > 0) {
        const seqs = await q.lastSeqs(this.opts.sql, [...this.feeds.keys()]);
        for (const [id, seq] of seqs) {
          const feed = this.feeds.get(id);
          if (feed && seq > feed.lastSeq) void feed.run(() => this.catchUp(feed)).catch(() => undefined);
        }
      }
      await q.notify(this.opts.sql, CHAT_CHANNEL, JSON.stringify({ s: '', k: 'ping', n: this.nodeId }));
    } catch (err) {
      this.opts.logger.debug({ err }, 'chat: check failed (database away?)');
    }
    if (now - this.lastPingAt > LISTEN_SILENCE_MS && !this.relistening) {
      this.relistening = true;
      this.opts.logger.info('chat: notifications stopped; listening again');
      const stale = this.unlisten;
      this.unlisten = null;
      // A dead connection may never answer UNLISTEN: do not wait for it.
      void stale?.().catch(() => undefined);
      await this.listen();
      this.lastPingAt = this.nowMs();
      this.relistening = false;
    }
  }

  /** Sends what each feed gathered since the last tick: one write per reader per tick. */
  private tick(): void {
    if (this.flushing) return;
    const batches: Batch[] = [];
    for (const feed of this.feeds.values()) {
      if (feed.pending.length === 0 && feed.reactions.size === 0) continue;
      const events = feed.pending;
      feed.pending = [];
      let reactions = '';
      if (feed.reactions.size > 0) {
        reactions = `event: reactions\ndata: ${JSON.stringify({ object: 'reactions', counts: Object.fromEntries(feed.reactions), rate: feed.reactionRate })}\n\n`;
        feed.reactions = new Map();
      }
      if (feed.readers.size === 0) continue;
      const first = events[0]?.seq ?? Infinity;
      const plain = events.every((e) => !e.only && !e.except);
      // Encoded once for every reader that takes it whole.
      const shared = plain ? Buffer.from(events.map((e) => e.frame).join('') + reactions) : null;
      batches.push({ readers: [...feed.readers], events, first, shared, reactions });
    }
    if (batches.length > 0) this.flush(batches, 0, 0);
  }

  /**
   * Writes a tick's batches, a slice of readers per turn of the event loop: thousands of writes in
   * one turn would hold back every request (posts among them) for as long as they take. The next
   * tick waits for this one, so each reader still gets its events in order.
   */
  private flush(batches: Batch[], batch: number, from: number): void {
    this.flushing = true;
    let b = batch;
    let i = from;
    let budget = WRITES_PER_TURN;
    while (b < batches.length && budget > 0) {
      const { readers, events, first, shared, reactions } = batches[b] as Batch;
      for (; i < readers.length && budget > 0; i++, budget--) {
        const r = readers[i] as Reader;
        if (r.res.destroyed) continue;
        const chunk =
          shared !== null && r.position < first
            ? shared
            : events
                .filter((e) => visibleTo(r, e))
                .map((e) => e.frame)
                .join('') + reactions;
        if (events.length) r.position = Math.max(r.position, (events[events.length - 1] as StoredEvent).seq);
        if (chunk) this.send(r, chunk);
      }
      if (i >= readers.length) {
        b++;
        i = 0;
      }
    }
    if (b < batches.length) setImmediate(() => this.flush(batches, b, i));
    else this.flushing = false;
  }

  private heartbeat(): void {
    for (const feed of this.feeds.values()) for (const r of feed.readers) this.send(r, ': ping\n\n');
  }

  private send(r: Reader, chunk: string | Buffer): void {
    if (r.res.writableLength > MAX_BUFFERED_BYTES) {
      r.res.destroy();
      return;
    }
    try {
      r.res.write(chunk);
    } catch {
      // A socket torn down under us: that reader is gone; the others go on.
      r.res.destroy();
    }
  }

  /** Announces this node's reactions of the last second, per stream, rounded (sampled reactions are weighted). */
  private async flushReactions(): Promise<void> {
    if (this.outgoing.size === 0) return;
    const batch = [...this.outgoing];
    this.outgoing.clear();
    for (const [streamId, { counts, rate }] of batch) {
      const rounded = Object.fromEntries(
        [...counts].map(([e, w]) => [e, Math.round(w)]).filter(([, n]) => (n as number) > 0),
      );
      if (Object.keys(rounded).length === 0) continue;
      try {
        await q.notify(
          this.opts.sql,
          CHAT_CHANNEL,
          JSON.stringify({
            s: streamId,
            k: 'reactions',
            r: newId('', 16),
            p: { object: 'reactions', counts: rounded, rate },
          }),
        );
      } catch (err) {
        // Reactions are of the moment: a second's worth lost with the database is not sent later.
        this.opts.logger.debug({ err }, 'chat: reactions not announced');
      }
    }
  }
}
