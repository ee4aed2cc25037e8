import { chmodSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import { thumbnailArgs } from '../../../platform/media/thumbnail.js';
import { run } from '../../../platform/process/run.js';
import type { ObjectStore } from '../../../platform/storage/store.js';
import type { Profile } from '../../streams/model.js';
import { stillKey } from './shelf.js';

export interface ThumbnailerOptions {
  ffmpegPath: string;
  /** Where `thumbs/<stream_id>.jpg` goes (the origin serves it). */
  store: ObjectStore;
  /** A local folder for the still while ffmpeg writes it. */
  scratchDir: string;
  /**
   * Seconds between a stream's stills, by profile. A passthrough ladder only copies, so its still
   * (an ffmpeg start, about 0.09 CPU-s) is most of its cost: it gets fewer (docs/decisions.md, Thumbnails).
   */
  everySeconds: Record<Profile, number>;
  clock: Clock;
  logger: Logger;
  /** A new still is in place (the stream's `thumbnail` records when). */
  onCaptured: (streamId: string, at: Date) => Promise<void>;
}

/**
 * Keeps a still of each live stream, taken from a published segment at most every `everySeconds`
 * of its profile; the first one from its first segment. One short ffmpeg per still instead of a
 * filter in every ladder: a passthrough stream does not decode at all, and would otherwise pay
 * for decoding every keyframe.
 */
export class Thumbnailer {
  private readonly last = new Map<string, number>();
  private readonly busy = new Set<string>();

  constructor(private readonly o: ThumbnailerOptions) {}

  /** A segment was published; a still is taken from it when the stream's last one is old enough. */
  offer(streamId: string, profile: Profile, segment: string): void {
    const now = this.o.clock.now().getTime();
    if (this.busy.has(streamId) || now - (this.last.get(streamId) ?? 0) < this.o.everySeconds[profile] * 1000) return;
    this.busy.add(streamId);
    this.last.set(streamId, now);
    void this.capture(streamId, segment).finally(() => this.busy.delete(streamId));
  }

  forget(streamId: string): void {
    this.last.delete(streamId);
  }

  private async capture(streamId: string, segment: string): Promise<void> {
    const tmp = join(this.o.scratchDir, `${streamId}.still-${this.o.clock.now().getTime()}.jpg`);
    try {
      await run(this.o.ffmpegPath, thumbnailArgs(segment, tmp), { timeoutMs: 15_000 });
      // nginx's workers run as another user; the store replaces the object whole, so the CDN never serves half a picture.
      chmodSync(tmp, 0o644);
      await this.o.store.putFile(stillKey(streamId), tmp, {
        contentType: 'image/jpeg',
        cacheControl: 'public, max-age=10',
      });
      await this.o.onCaptured(streamId, this.o.clock.now());
    } catch (err) {
      this.o.logger.warn({ err, stream_id: streamId }, 'thumbnail not taken');
    } finally {
      rmSync(tmp, { force: true });
    }
  }
}
