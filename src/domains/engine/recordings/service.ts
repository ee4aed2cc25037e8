import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { Config } from '../../../config/config.js';
import type { Clock } from '../../../core/clock.js';
import { ApiError, notFound } from '../../../core/errors.js';
import type { Logger } from '../../../core/logger.js';
import { addSeconds } from '../../../core/time.js';
import type { Sql } from '../../../platform/db/connect.js';
import type { Account } from '../../ledger/accounts/model.js';
import type { CdnAddresses } from '../../ledger/cdn/addresses.js';
import { ffprobeDurationArgs } from '../../../platform/media/probe.js';
import { concatList, remuxArgs } from '../../../platform/media/remux.js';
import { run } from '../../../platform/process/run.js';
import { lockStream, lockStreamById, ownStream, type StreamRow } from '../../streams/model.js';
import * as transitions from '../../streams/transitions.js';
import { recordingFiles, removeSessions } from './files.js';
import * as q from './queries.js';

const MAX_ATTEMPTS = 3;
/** nginx closes a session's file when its publisher is dropped; give it a moment. */
const SETTLE_SECONDS = 2;

export interface RecordingsDeps {
  sql: Sql;
  config: Config;
  clock: Clock;
  logger: Logger;
  cdn: CdnAddresses;
}

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
    return due.length;
  }

  /** Deletes recordings past their date. */
  async expire(batch = 100): Promise<number> {
    const { sql, clock, config } = this.deps;
    return sql.begin(async (tx) => {
      const rows = await q.lockExpired(tx, clock.now(), batch);
      for (const row of rows) {
        rmSync(recordingFiles(config.dataDir, row.id).dir, { recursive: true, force: true });
        await transitions.recordingDeleted(tx, row, clock.now(), row.recording_delete_reason);
      }
      return rows.length;
    });
  }

  async remove(account: Account, id: string): Promise<StreamRow> {
    const { sql, clock, config } = this.deps;
    return sql.begin(async (tx) => {
      const row = await lockStream(tx, account.id, id);
      if (!row) throw notFound('stream');
      switch (row.recording_status) {
        case 'ready':
        case 'failed':
          rmSync(recordingFiles(config.dataDir, row.id).dir, { recursive: true, force: true });
          removeSessions(config.dataDir, row.id);
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

  async download(
    account: Account,
    id: string,
    expiresIn: number,
  ): Promise<{ object: 'recording_download'; stream_id: string; url: string; bytes: number; expires_at: string }> {
    const row = await ownStream(this.deps.sql, account.id, id);
    if (row.recording_status !== 'ready') {
      const status = row.recording_status ?? 'none';
      throw new ApiError('recording_not_ready', `The recording is ${status}; it can be downloaded once ready.`, {
        status,
      });
    }
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
        removeSessions(config.dataDir, row.id);
        await transitions.recordingDeleted(tx, row, clock.now(), null);
        return null;
      }
      await q.claim(tx, id, addSeconds(now, 600));
      return row;
    });
    if (!claimed) return;
    let result: { bytes: number; durationSeconds: number } | null = null;
    let error = '';
    try {
      result = await this.remux(claimed);
    } catch (err) {
      error = (err as Error).message.slice(0, 500);
      log.warn({ err, attempt: claimed.recording_attempts + 1 }, 'recording could not be made');
    }
    await sql.begin(async (tx) => {
      const row = await lockStreamById(tx, id);
      if (!row) return;
      const now = clock.now();
      if (row.recording_status === 'deleting') {
        rmSync(recordingFiles(config.dataDir, id).dir, { recursive: true, force: true });
        removeSessions(config.dataDir, id);
        await transitions.recordingDeleted(tx, row, now, null);
      } else if (result) {
        await transitions.recordingReady(tx, row, now, result);
        removeSessions(config.dataDir, id);
        log.info({ bytes: result.bytes, duration_seconds: result.durationSeconds }, 'recording ready');
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
    const sessions = files.sessions();
    if (!sessions.length) throw new Error('nothing was recorded from the publisher');
    mkdirSync(files.dir, { recursive: true });
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
      return { bytes: statSync(files.mp4).size, durationSeconds };
    } finally {
      rmSync(list, { force: true });
      rmSync(tmp, { force: true });
    }
  }
}
