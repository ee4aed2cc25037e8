import { appendFile } from 'node:fs/promises';
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Config } from '../../../config/config.js';
import type { Clock } from '../../../core/clock.js';
import { ApiError, notFound } from '../../../core/errors.js';
import type { Logger } from '../../../core/logger.js';
import { addSeconds } from '../../../core/time.js';
import type { Db, Sql } from '../../../platform/db/connect.js';
import type { Account } from '../../ledger/accounts/model.js';
import type { CdnAddresses } from '../../ledger/cdn/addresses.js';
import { ffprobeDurationArgs } from '../../../platform/media/probe.js';
import { concatList, remuxArgs, REPLAY_MEDIA, REPLAY_PLAYLIST, replayArgs } from '../../../platform/media/remux.js';
import { run } from '../../../platform/process/run.js';
import { joinPieces, sessionsPrefix, storedSessions } from '../../../platform/storage/session-pieces.js';
import { SpoolFullError, type Spool } from '../../../platform/storage/spool.js';
import { presignedPath, type ObjectStore } from '../../../platform/storage/store.js';
import { lockStream, lockStreamById, ownStream, REPLAY_MAX_ATTEMPTS, type StreamRow } from '../../streams/model.js';
import * as transitions from '../../streams/transitions.js';
import { stillKey } from '../thumbnails/shelf.js';
import { recordingFiles, removeSessions } from './files.js';
import * as q from './queries.js';

const MAX_ATTEMPTS = 3;
/** A session file's name up to its unix time (`<stream>-<unix time>`): the same session here and in the store. */
const stem = (file: string) => file.replace(/\..*$/, '');
/** nginx closes a session's file when its publisher is dropped; give it a moment. */
const SETTLE_SECONDS = 2;

export interface RecordingsDeps {
  sql: Sql;
  config: Config;
  clock: Clock;
  logger: Logger;
  cdn: CdnAddresses;
  /**
   * Object storage (docs/decisions.md, "Object storage"); absent: the data dir. The spool is the
   * appliance process's (it makes recordings); an API worker only queues deletions.
   */
  storage?: { store: ObjectStore; spool: Spool | null };
  /**
   * Where ingest nodes without object storage ship their publish sessions (the origin's media
   * folder, `sessions/`): read besides the bucket, so that nodes may take a new bucket after the
   * primary (docs/decisions.md, "Ingest nodes: the primary's object storage"); removed once the
   * recording is made.
   */
  shipped?: ObjectStore;
}

/** `409 recording_not_ready` with the status, for what needs the MP4 (download, stills). */
export function assertRecordingReady(row: StreamRow): void {
  if (row.recording_status === 'ready') return;
  const status = row.recording_status ?? 'none';
  throw new ApiError('recording_not_ready', `The recording is ${status}; it can be used once ready.`, { status });
}

/** Where a stream's recording is kept in object storage. */
export const recordingKey = (streamId: string): string => `recordings/${streamId}/recording.mp4`;
const recordingPrefix = (streamId: string): string => `recordings/${streamId}/`;
/** A replay's files in object storage: under the recording's prefix, so that they go with it. */
const replayKey = (streamId: string, file: string): string => `${recordingPrefix(streamId)}replay/${file}`;

/** Replay files nginx may ask the bucket for (`@rpl_bucket`). */
const REPLAY_FILES: readonly string[] = [REPLAY_PLAYLIST, REPLAY_MEDIA];

/**
 * A recording's MP4 for ffmpeg: on this disk, else the bucket's through a presigned address
 * (ffmpeg reads it with ranges), valid long enough for the slowest remux.
 */
export async function recordingInput(
  dataDir: string,
  store: ObjectStore | undefined,
  streamId: string,
): Promise<string> {
  const mp4 = recordingFiles(dataDir, streamId).mp4;
  if (existsSync(mp4) || !store?.presign) return mp4;
  return store.presign(recordingKey(streamId), 3600);
}

/** Whether the store answers now (a store without a check always does). */
async function answers(store: ObjectStore | undefined): Promise<boolean> {
  try {
    await store?.check?.();
    return true;
  } catch {
    return false;
  }
}

/** Not made yet, through no fault of its own (pieces still arriving, a full spool): tried again, not counted. */
class NotYet extends Error {}

/** Session pieces from another node are awaited this long after the end before what is there is used. */

/**
 * One MP4 per broadcast, remuxed (never re-encoded) from what the publisher sent, which
 * nginx-rtmp recorded per publish session; reconnects are joined without the gap.
 */
export class RecordingsService {
  constructor(private readonly deps: RecordingsDeps) {}

  /** The job: make due recordings (three tries), delete those asked for before they existed. */
  async processDue(batch = 5): Promise<number> {
    const { sql, clock } = this.deps;
    const now = clock.now();
    const due = await q.dueRecordings(sql, now, addSeconds(now, -SETTLE_SECONDS), batch);
    for (const id of due) await this.processOne(id);
    return due.length + (await this.makeReplays(batch));
  }

  /**
   * Replays (docs/decisions.md, "Replays (issue 33)"): the ready recording of a stream with
   * `replay` true, copied into HLS VOD beside it; with object storage read from the bucket when it
   * has left this disk, and sent there too ("Replays with object storage"). Three tries, like the
   * recording; a bucket that does not answer costs none.
   */
  private async makeReplays(batch: number): Promise<number> {
    const { sql, config, logger } = this.deps;
    const store = this.deps.storage?.store;
    const due = await q.dueReplays(sql, REPLAY_MAX_ATTEMPTS, batch);
    for (const id of due) {
      const files = recordingFiles(config.dataDir, id);
      const tmp = `${files.replay}.tmp`;
      const input = await recordingInput(config.dataDir, store, id);
      let made = false;
      try {
        rmSync(tmp, { recursive: true, force: true });
        mkdirSync(tmp, { recursive: true });
        await run(config.live.ffmpeg_path, replayArgs(input, tmp), { timeoutMs: 30 * 60_000 });
        rmSync(files.replay, { recursive: true, force: true });
        renameSync(tmp, files.replay);
        made = true;
      } catch (err) {
        if (input !== files.mp4 && !(await answers(store))) {
          logger.warn({ err, stream_id: id }, 'replay waits for object storage, which does not answer');
          continue;
        }
        logger.warn({ err, stream_id: id }, 'replay could not be made');
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
      if (made) await this.uploadReplay(id, files.replay);
      // A recording deleted meanwhile took the folder: the row says the recording is gone, which ends the replay.
      await q.replayOutcome(sql, id, made ? this.deps.clock.now() : null);
    }
    return due.length;
  }

  /**
   * With object storage a replay's two files follow the recording to the bucket; nginx serves
   * each from this disk while it is here, else from the bucket. The media leaves the disk once
   * uploaded; the playlist (a few KB) stays, as the query token form rewrites it from the disk.
   * A full spool keeps them here, served as they are.
   */
  private async uploadReplay(streamId: string, dir: string): Promise<void> {
    const spool = this.deps.storage?.spool;
    if (!spool) return;
    const files = [
      [REPLAY_MEDIA, 'video/mp4', true],
      [REPLAY_PLAYLIST, 'application/vnd.apple.mpegurl', false],
    ] as const;
    try {
      for (const [file, contentType, leaves] of files) {
        const path = join(dir, file);
        await spool.enqueue(replayKey(streamId, file), path, { contentType, ...(leaves ? { removeAfter: path } : {}) });
      }
    } catch (err) {
      if (!(err instanceof SpoolFullError)) throw err;
      this.deps.logger.warn({ stream_id: streamId }, 'the spool is full: the replay stays on this disk only');
    }
  }

  /** Deletes recordings past their date. */
  async expire(batch = 100): Promise<number> {
    const { sql, clock } = this.deps;
    return sql.begin(async (tx) => {
      const rows = await q.lockExpired(tx, clock.now(), batch);
      for (const row of rows) {
        await this.removeFiles(tx, row.id);
        await transitions.recordingDeleted(tx, row, clock.now(), row.recording_delete_reason);
      }
      return rows.length;
    });
  }

  async remove(account: Account, id: string): Promise<StreamRow> {
    const { sql, clock } = this.deps;
    return sql.begin(async (tx) => {
      const row = await lockStream(tx, account.id, id);
      if (!row) throw notFound('stream');
      switch (row.recording_status) {
        // `legacy` is never set by the appliance: a row brought in by hand (docs/decisions.md, "Recordings: legacy").
        case 'ready':
        case 'failed':
        case 'legacy':
          await this.removeFiles(tx, row.id);
          return transitions.recordingDeleted(tx, row, clock.now(), null);
        case 'recording':
        case 'processing':
          return transitions.recordingDeleting(tx, row);
        default:
          // Pending, not recorded, never live, already deleted or deleting: nothing to delete.
          return row;
      }
    });
  }

  /** A failed recording is made again (three new tries); any other status is refused with what it is. */
  async retry(account: Account, id: string): Promise<StreamRow> {
    return this.deps.sql.begin(async (tx) => {
      const row = await lockStream(tx, account.id, id);
      if (!row) throw notFound('stream');
      if (row.recording_status !== 'failed') {
        const status = row.recording_status ?? 'none';
        throw new ApiError('recording_not_failed', `The recording is ${status}; only a failed one can be made again.`, {
          status,
        });
      }
      return transitions.recordingRetried(tx, row);
    });
  }

  async download(
    account: Account,
    id: string,
    expiresIn: number,
  ): Promise<{ object: 'recording_download'; stream_id: string; url: string; bytes: number; expires_at: string }> {
    const row = await ownStream(this.deps.sql, account.id, id);
    assertRecordingReady(row);
    const expiresAt = addSeconds(this.deps.clock.now(), expiresIn);
    return {
      object: 'recording_download',
      stream_id: row.id,
      url: this.deps.cdn.recording(row.id, expiresAt),
      bytes: row.recording_bytes ?? 0,
      expires_at: expiresAt.toISOString(),
    };
  }

  private async processOne(id: string): Promise<void> {
    const { sql, clock, config, logger } = this.deps;
    const log = logger.child({ stream_id: id });
    // Claim it: another node skips a row this one holds.
    const claimed = await sql.begin(async (tx) => {
      const row = await lockStreamById(tx, id);
      const now = clock.now();
      const due =
        row &&
        (row.recording_status === 'processing' || row.recording_status === 'deleting') &&
        !(row.recording_next_attempt_at && row.recording_next_attempt_at > now);
      if (!row || !due) return null;
      if (row.recording_status === 'deleting') {
        await this.removeFiles(tx, row.id);
        await transitions.recordingDeleted(tx, row, clock.now(), null);
        return null;
      }
      await q.claim(tx, id, addSeconds(now, 600));
      return row;
    });
    if (!claimed) return;
    let result: { bytes: number; durationSeconds: number } | null = null;
    let error = '';
    let notYet = false;
    try {
      result = await this.remux(claimed);
    } catch (err) {
      error = (err as Error).message.slice(0, 500);
      notYet = err instanceof NotYet;
      if (notYet) log.info({ reason: error }, 'recording waits');
      else log.warn({ err, attempt: claimed.recording_attempts + 1 }, 'recording could not be made');
    }
    await sql.begin(async (tx) => {
      const row = await lockStreamById(tx, id);
      if (!row) return;
      const now = clock.now();
      if (row.recording_status === 'deleting') {
        await this.removeFiles(tx, id);
        await transitions.recordingDeleted(tx, row, now, null);
      } else if (result) {
        await transitions.recordingReady(tx, row, now, result);
        removeSessions(config.dataDir, id);
        if (this.deps.storage) await q.queueDeletions(tx, [sessionsPrefix(id)], now);
        await this.deps.shipped?.deletePrefix(sessionsPrefix(id));
        log.info({ bytes: result.bytes, duration_seconds: result.durationSeconds }, 'recording ready');
      } else if (notYet) {
        await q.scheduleRetry(tx, id, row.recording_attempts, addSeconds(now, config.recordings.retry_seconds), error);
      } else if (row.recording_attempts + 1 >= MAX_ATTEMPTS) {
        // What was streamed is kept, so the recording can be made again.
        await transitions.recordingFailed(tx, row, now, error);
      } else {
        await q.scheduleRetry(
          tx,
          id,
          row.recording_attempts + 1,
          addSeconds(now, config.recordings.retry_seconds),
          error,
        );
      }
    });
  }

  private async remux(row: StreamRow): Promise<{ bytes: number; durationSeconds: number }> {
    const { config } = this.deps;
    const files = recordingFiles(config.dataDir, row.id);
    mkdirSync(files.dir, { recursive: true });
    const sessions = [...files.sessions(), ...(await this.storedSessionFiles(row, files.dir))].sort((a, b) =>
      basename(a) < basename(b) ? -1 : 1,
    );
    if (!sessions.length) throw new Error('nothing was recorded from the publisher');
    const list = `${files.mp4}.txt`;
    writeFileSync(list, concatList(sessions));
    const tmp = `${files.mp4}.tmp.mp4`;
    try {
      await run(config.live.ffmpeg_path, remuxArgs(list, tmp), { timeoutMs: 30 * 60_000 });
      const out = await run(config.live.ffprobe_path, ffprobeDurationArgs(tmp));
      const durationSeconds = Math.round(Number(out.trim()) * 1000) / 1000;
      if (!Number.isFinite(durationSeconds) || durationSeconds <= 0)
        throw new Error(`the MP4 has no duration (${out.trim()})`);
      renameSync(tmp, files.mp4);
      const bytes = statSync(files.mp4).size;
      await this.upload(row.id, files.mp4);
      return { bytes, durationSeconds };
    } finally {
      rmSync(list, { force: true });
      rmSync(tmp, { force: true });
      rmSync(join(files.dir, 'sessions'), { recursive: true, force: true });
    }
  }

  /**
   * With object storage the MP4 goes to the bucket through the spool; the origin serves the local
   * copy until it is there, then the bucket's (ready does not wait for the upload).
   */
  private async upload(streamId: string, mp4: string): Promise<void> {
    const spool = this.deps.storage?.spool;
    if (!spool) return;
    try {
      await spool.enqueue(recordingKey(streamId), mp4, { contentType: 'video/mp4', removeAfter: mp4 });
    } catch (err) {
      if (err instanceof SpoolFullError) throw new NotYet(err.message);
      throw err;
    }
  }

  /**
   * The sessions other nodes shipped to the bucket or the origin (or this one, whose own file is
   * gone), joined from their pieces into `dir/sessions/`; a session this node still has on disk is
   * not fetched.
   */
  private async storedSessionFiles(row: StreamRow, dir: string): Promise<string[]> {
    const { storage, shipped } = this.deps;
    const stores = [storage?.store, shipped].filter((s): s is ObjectStore => s !== undefined);
    if (!stores.length) return [];
    const local = new Set(
      recordingFiles(this.deps.config.dataDir, row.id)
        .sessions()
        .map((f) => stem(basename(f))),
    );
    const waited = row.ended_at ? (this.deps.clock.now().getTime() - row.ended_at.getTime()) / 1000 : 0;
    let listed: Awaited<ReturnType<typeof storedSessions>>;
    try {
      listed = await storedSessions(stores, row.id);
    } catch (err) {
      // The bucket does not answer: no attempt is counted. Other nodes' sessions are awaited as
      // long as their pieces would be; then what this node has is used (one box: everything).
      if (waited < this.deps.config.recordings.pieces_wait_seconds || !local.size)
        throw new NotYet(`object storage does not answer: ${(err as Error).message}`);
      this.deps.logger.warn(
        { stream_id: row.id, err: (err as Error).message },
        'object storage does not answer: the recording is made from the sessions on this node',
      );
      return [];
    }
    const stored = listed.filter((s) => !local.has(stem(s.file)));
    const open = stored.filter((s) => !s.closed);
    if (
      open.length &&
      (waited < this.deps.config.recordings.pieces_wait_seconds || storage?.spool?.holds(sessionsPrefix(row.id)))
    )
      throw new NotYet(`session pieces still arriving (${open.map((s) => s.file).join(', ')})`);
    const out: string[] = [];
    mkdirSync(join(dir, 'sessions'), { recursive: true });
    for (const session of stored) {
      const path = join(dir, 'sessions', session.file);
      rmSync(path, { force: true });
      await joinPieces(session, (bytes) => appendFile(path, bytes));
      out.push(path);
    }
    return out;
  }

  /** The recording and what it was made from, here and (through the storage-deletions job) in the bucket. */
  private async removeFiles(tx: Db, streamId: string): Promise<void> {
    rmSync(recordingFiles(this.deps.config.dataDir, streamId).dir, { recursive: true, force: true });
    removeSessions(this.deps.config.dataDir, streamId);
    if (this.deps.storage)
      await q.queueDeletions(tx, [recordingPrefix(streamId), sessionsPrefix(streamId)], this.deps.clock.now());
    await this.deps.shipped?.deletePrefix(sessionsPrefix(streamId));
  }

  /** The job: deletions queued for the bucket, retried with backoff until it answers. */
  async processDeletions(batch = 50): Promise<number> {
    const { sql, clock, logger } = this.deps;
    const storage = this.deps.storage;
    if (!storage) return 0;
    const started = clock.now();
    const due = await q.dueDeletions(sql, started, batch);
    for (const d of due) {
      try {
        // A waiting upload under the prefix would bring the object back after the deletion.
        await storage.spool?.discard(d.prefix);
        const deleted = await storage.store.deletePrefix(d.prefix);
        await q.deletionDone(sql, d.prefix, started);
        logger.info({ prefix: d.prefix, objects: deleted }, 'deleted from object storage');
      } catch (err) {
        const wait = Math.min(600, 5 * 2 ** d.attempts);
        await q.deletionFailed(
          sql,
          d.prefix,
          d.attempts + 1,
          addSeconds(clock.now(), wait),
          (err as Error).message.slice(0, 500),
        );
        logger.warn({ err, prefix: d.prefix, retry_in_seconds: wait }, 'object storage deletion failed; retried');
      }
    }
    return due.length;
  }

  /** Where the origin's nginx fetches a recording that is not on its disk (`@rec_bucket`). */
  bucketSource(streamId: string): Promise<string | null> {
    return presignedPath(this.deps.storage?.store, recordingKey(streamId), 3600);
  }

  /** Where it fetches a replay's file that is not on its disk (`@rpl_bucket`). */
  replaySource(streamId: string, file: string): Promise<string | null> {
    if (!REPLAY_FILES.includes(file)) return Promise.resolve(null);
    return presignedPath(this.deps.storage?.store, replayKey(streamId, file), 3600);
  }

  /** Where it fetches an ended stream's still that is not on its disk (`@thumb_bucket`). */
  stillSource(streamId: string): Promise<string | null> {
    return presignedPath(this.deps.storage?.store, stillKey(streamId), 600);
  }
}
