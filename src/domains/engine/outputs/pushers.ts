import { GrowingFile } from '../../../platform/process/growing-file.js';
import { isDatabaseUnavailable } from '../../../platform/db/errors.js';
import type { PushInput } from './push-args.js';
import { outputsOf, type PushRow } from './push-queries.js';
import { OutputPush, type PushDeps } from './pusher.js';

/**
 * A push that starts this soon after its publisher reads nginx's recording of the session from
 * its first byte (the publisher's first frame; pulling the live stream waits for its next
 * keyframe); later ones, and every retry, pull the live stream (the target wants now, not a replay).
 */
const FROM_RECORDING_MS = 5000;
/** Bytes are added to the rows this often while pushing (and at every status change and stop). */
const BYTES_EVERY_MS = 5000;

export interface OutputPushersDeps extends PushDeps {
  /** This node's nginx-rtmp address of a stream (`rtmp://<local>:<port>/live/<id>`), as the ladder pulls it. */
  liveUrl: (streamId: string) => string;
}

interface LiveHere {
  publishing: boolean;
  /** performance.now() when the current publish session began. */
  sessionAt: number;
  /** nginx's recording of the current session (null: none, as for a publisher adopted after a restart). */
  recording: () => string | null;
  pushes: Map<string, OutputPush>;
  /** Recordings being read by pushes: they end when the session does. */
  feeds: Set<GrowingFile>;
}

/** What decides a push: another URL or key is another push. */
const identity = (row: PushRow) => `${row.url}\n${row.stream_key}`;

/**
 * The restreaming pushes of this node's live streams (docs/decisions.md, "Restreaming: pushing"):
 * told by the live workers when a publisher comes, goes and when a stream ends, and following
 * `stream_outputs` every live tick with one query for all of them.
 */
export class OutputPushers {
  private readonly streams = new Map<string, LiveHere>();
  /** Pushes stopped whose last status is not written yet (PostgreSQL away). */
  private readonly draining = new Set<OutputPush>();
  private readonly identities = new WeakMap<OutputPush, string>();
  private bytesAt = 0;
  private writesFailing = false;

  constructor(private readonly deps: OutputPushersDeps) {}

  /** A publisher of `streamId` was admitted on this node: its outputs start (again). */
  publisherStarted(streamId: string, recording: () => string | null = () => null): void {
    let here = this.streams.get(streamId);
    if (!here) {
      here = { publishing: true, sessionAt: performance.now(), recording, pushes: new Map(), feeds: new Set() };
      this.streams.set(streamId, here);
    }
    // nginx takes one publisher per stream: the last session's recording is complete.
    this.finishFeeds(here);
    Object.assign(here, { publishing: true, sessionAt: performance.now(), recording });
    // A push still running reads the last session; it ends by itself and starts again on the new one.
    for (const push of here.pushes.values()) if (!push.running) push.start();
    // The outputs of a stream that just went live are not known yet: ask now, not at the next tick.
    void this.follow([streamId], false).catch((err: unknown) => this.writeFailed(err));
  }

  publisherLeft(streamId: string): void {
    const here = this.streams.get(streamId);
    if (!here) return;
    here.publishing = false;
    // nginx closed the recording before it said so: the pushes reading it get its end.
    this.finishFeeds(here);
  }

  private finishFeeds(here: LiveHere): void {
    for (const feed of here.feeds) feed.finish();
    here.feeds.clear();
  }

  /** The stream ended (or left this node): every push stops, each output's row goes `idle`. */
  async ended(streamId: string): Promise<void> {
    const here = this.streams.get(streamId);
    if (!here) return;
    this.streams.delete(streamId);
    await Promise.all([...here.pushes.values()].map((p) => this.retire(p)));
  }

  /**
   * Every live tick: `liveHere` are the live streams of this node. Outputs added, enabled,
   * disabled, deleted or changed take effect; streams no longer live here stop theirs.
   */
  async tick(liveHere: string[]): Promise<void> {
    const live = new Set(liveHere);
    for (const id of [...this.streams.keys()]) if (!live.has(id)) await this.ended(id);
    await this.follow([...this.streams.keys()], true);
  }

  /** The appliance stops, the broadcasts go on: pushes stop without a status (the next start resumes them). */
  async stopAll(): Promise<void> {
    const pushes = [...this.streams.values()].flatMap((s) => [...s.pushes.values()]);
    this.streams.clear();
    await Promise.all(pushes.map((p) => p.halt()));
    await Promise.all(pushes.map((p) => p.flush(true).catch(() => undefined)));
  }

  /** The pushes of a stream (tests, metrics). */
  pushesOf(streamId: string): OutputPush[] {
    return [...(this.streams.get(streamId)?.pushes.values() ?? [])];
  }

  /** One follow at a time: a publisher's arrival and a tick never reconcile the same stream side by side. */
  private following: Promise<void> = Promise.resolve();

  private follow(streamIds: string[], tick: boolean): Promise<void> {
    const next = this.following.then(() => this.followNow(streamIds, tick));
    this.following = next.catch(() => undefined);
    return next;
  }

  private async followNow(streamIds: string[], tick: boolean): Promise<void> {
    let rows: PushRow[];
    try {
      rows = await outputsOf(this.deps.sql, streamIds);
    } catch (err) {
      // Pushes go on as they are; the rows are read again at the next tick.
      this.writeFailed(err);
      return;
    }
    const byStream = new Map<string, PushRow[]>();
    for (const row of rows) byStream.set(row.stream_id, [...(byStream.get(row.stream_id) ?? []), row]);
    for (const id of streamIds) {
      const here = this.streams.get(id);
      if (here) await this.reconcile(id, here, byStream.get(id) ?? []);
    }
    if (tick) await this.writeAll();
  }

  private async reconcile(streamId: string, here: LiveHere, rows: PushRow[]): Promise<void> {
    const wanted = new Map(rows.filter((r) => r.enabled).map((r) => [r.id, r]));
    for (const [id, push] of here.pushes) {
      const row = wanted.get(id);
      if (row && identity(row) === this.identities.get(push)) {
        // A new name is carried by the next event; nothing restarts for it.
        push.row = { ...row, status: push.row.status };
        continue;
      }
      here.pushes.delete(id);
      await this.retire(push);
    }
    for (const row of wanted.values()) {
      if (here.pushes.has(row.id)) continue;
      const push = new OutputPush(row, { ...this.deps, logger: this.deps.logger.child({ stream_id: streamId }) }, () =>
        this.inputOf(streamId),
      );
      this.identities.set(push, identity(row));
      here.pushes.set(row.id, push);
      push.start();
    }
    // Disabled outputs a push left non-idle (a node killed while pushing): idle again.
    for (const row of rows)
      if (!row.enabled && row.status !== 'idle' && !here.pushes.has(row.id)) {
        const stale = new OutputPush(row, this.deps, () => null);
        await this.retire(stale);
      }
  }

  /** Where a push of `streamId` reads, now; null while its publisher is away. */
  private inputOf(streamId: string): { input: PushInput; stdin?: GrowingFile } | null {
    const here = this.streams.get(streamId);
    if (!here?.publishing) return null;
    const recording = performance.now() - here.sessionAt < FROM_RECORDING_MS ? here.recording() : null;
    if (recording) {
      const feed = new GrowingFile(recording);
      here.feeds.add(feed);
      feed.once('close', () => here.feeds.delete(feed));
      return { input: { kind: 'recording' }, stdin: feed };
    }
    return { input: { kind: 'live', url: this.deps.liveUrl(streamId) } };
  }

  private async retire(push: OutputPush): Promise<void> {
    await push.stop();
    // Written before the next tick reads the rows (which would see the output still pushing).
    await push.flush().catch((err: unknown) => this.writeFailed(err));
    if (push.dirty) this.draining.add(push);
  }

  /** Bytes every BYTES_EVERY_MS, and whatever a database outage held back. */
  private async writeAll(): Promise<void> {
    const bytes = performance.now() - this.bytesAt >= BYTES_EVERY_MS;
    if (bytes) this.bytesAt = performance.now();
    const pushes = [...this.draining, ...[...this.streams.values()].flatMap((s) => [...s.pushes.values()])];
    let failed: unknown = null;
    for (const push of pushes) {
      if (!push.dirty) continue;
      try {
        await push.flush(bytes);
        this.draining.delete(push);
      } catch (err) {
        failed = err;
      }
    }
    if (failed) this.writeFailed(failed);
    else if (this.writesFailing) {
      this.writesFailing = false;
      this.deps.logger.info('output statuses written again');
    }
  }

  /** Said once per outage: the pushes go on, their statuses are written when the database is back. */
  private writeFailed(err: unknown): void {
    if (this.writesFailing) return;
    this.writesFailing = true;
    const level = isDatabaseUnavailable(err) ? 'warn' : 'error';
    this.deps.logger[level]({ err }, 'output statuses not written; pushes go on, writes retried');
  }
}
