import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../../../config/config.js';
import type { Clock } from '../../../core/clock.js';
import { ApiError } from '../../../core/errors.js';
import type { Logger } from '../../../core/logger.js';
import { addSeconds } from '../../../core/time.js';
import type { Sql } from '../../../platform/db/connect.js';
import { recordingStillArgs } from '../../../platform/media/thumbnail.js';
import { run } from '../../../platform/process/run.js';
import type { ObjectStore } from '../../../platform/storage/store.js';
import type { Account } from '../../ledger/accounts/model.js';
import type { CdnAddresses } from '../../ledger/cdn/addresses.js';
import { ownStream } from '../../streams/model.js';
import { recordingFiles } from './files.js';
import { assertRecordingReady, recordingInput } from './service.js';
import type { Thumbnail } from './thumbnails.schemas.js';

/** Stills kept per recording; the least recently made goes first (each costs one short ffmpeg to make again). */
export const MAX_STILLS_PER_RECORDING = 100;
/** One still decodes at most a GOP; a bucket that does not answer in time is a 503, not a hung request. */
const FFMPEG_TIMEOUT_MS = 20_000;
const RETRY_AFTER_SECONDS = 5;

export interface ThumbnailsDeps {
  sql: Sql;
  config: Config;
  clock: Clock;
  logger: Logger;
  cdn: CdnAddresses;
  /** Object storage, where a recording's MP4 is once uploaded (docs/decisions.md, "Object storage"). */
  store?: ObjectStore;
}

/** Where a recording's stills are kept: beside its MP4, so that deleting the recording deletes them. */
export const stillsDir = (dataDir: string, streamId: string): string =>
  join(recordingFiles(dataDir, streamId).dir, 'stills');

/**
 * The thumbnail endpoints (docs/decisions.md, "Thumbnail endpoints"): the current still's signed
 * address, and a still of the recording at a chosen second, made by one short ffmpeg on its first
 * ask and kept on disk, where nginx serves it under a signed address.
 */
export class ThumbnailsService {
  /** Stills being made in this process, by file: concurrent asks for one still wait for one ffmpeg. */
  private readonly making = new Map<string, Promise<void>>();

  constructor(private readonly deps: ThumbnailsDeps) {}

  async current(account: Account, id: string, expiresIn: number): Promise<Thumbnail> {
    const row = await ownStream(this.deps.sql, account.id, id);
    if (!row.thumbnail_at)
      throw new ApiError(
        'thumbnail_not_ready',
        'The stream has no still yet; the first one is taken from its first segment once it is live.',
        { status: row.status },
      );
    const expiresAt = addSeconds(this.deps.clock.now(), expiresIn);
    return {
      object: 'thumbnail',
      stream_id: row.id,
      url: this.deps.cdn.signedThumbnail(row.id, expiresAt),
      captured_at: row.thumbnail_at.toISOString(),
      time_seconds: null,
      expires_at: expiresAt.toISOString(),
    };
  }

  async recordingStill(account: Account, id: string, time: number, expiresIn: number): Promise<Thumbnail> {
    const row = await ownStream(this.deps.sql, account.id, id);
    assertRecordingReady(row);
    const duration = row.recording_duration_seconds ?? 0;
    if (time > duration)
      throw new ApiError('invalid_request', `\`time\` must be at most the recording's duration (${duration} s).`, {
        field: 'time',
      });
    // A tenth of a second is finer than a person picks a frame, and bounds the stills one recording can have.
    const tenths = Math.round(time * 10);
    const name = (tenths / 10).toFixed(1);
    await this.ensure(row.id, name, tenths / 10);
    const expiresAt = addSeconds(this.deps.clock.now(), expiresIn);
    return {
      object: 'thumbnail',
      stream_id: row.id,
      url: this.deps.cdn.recordingStill(row.id, name, expiresAt),
      captured_at: null,
      time_seconds: tenths / 10,
      expires_at: expiresAt.toISOString(),
    };
  }

  private async ensure(streamId: string, name: string, seconds: number): Promise<void> {
    const dir = stillsDir(this.deps.config.dataDir, streamId);
    const file = join(dir, `${name}.jpg`);
    if (existsSync(file)) return;
    let making = this.making.get(file);
    if (!making) {
      making = this.make(streamId, dir, file, seconds).finally(() => this.making.delete(file));
      this.making.set(file, making);
    }
    await making;
  }

  private async make(streamId: string, dir: string, file: string, seconds: number): Promise<void> {
    const { config, logger } = this.deps;
    // Unique per process and still: two API workers asked at once each write their own, and the
    // rename leaves one whole file.
    const tmp = `${file}.${process.pid}.tmp.jpg`;
    try {
      mkdirSync(dir, { recursive: true });
      this.makeRoom(dir);
      const source = await recordingInput(this.deps.config.dataDir, this.deps.store, streamId);
      await run(config.live.ffmpeg_path, recordingStillArgs(source, seconds, tmp), { timeoutMs: FFMPEG_TIMEOUT_MS });
      if (!existsSync(tmp))
        await run(config.live.ffmpeg_path, recordingStillArgs(source, seconds, tmp, true), {
          timeoutMs: FFMPEG_TIMEOUT_MS,
        });
      renameSync(tmp, file);
    } catch (err) {
      logger.warn({ err, stream_id: streamId, time_seconds: seconds }, 'recording still not made');
      throw new ApiError('service_unavailable', 'The still could not be made just now; try again shortly.', {
        retry_after_seconds: RETRY_AFTER_SECONDS,
      });
    } finally {
      rmSync(tmp, { force: true });
    }
  }

  /** At most MAX_STILLS_PER_RECORDING stills: the oldest go to make room for a new one. */
  private makeRoom(dir: string): void {
    const stills = readdirSync(dir).filter((f) => /^[0-9]+\.[0-9]\.jpg$/.test(f));
    if (stills.length < MAX_STILLS_PER_RECORDING) return;
    const byAge = stills
      .map((f) => ({ path: join(dir, f), at: statSync(join(dir, f), { throwIfNoEntry: false })?.mtimeMs ?? 0 }))
      .sort((a, b) => a.at - b.at);
    for (const old of byAge.slice(0, stills.length - MAX_STILLS_PER_RECORDING + 1)) rmSync(old.path, { force: true });
  }
}
