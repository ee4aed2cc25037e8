/**
 * What a remote origin adds to each published segment (docs/decisions.md, "Ingest nodes: media to
 * the origin"): the uploader's put of a segment and of its playlist through the origin's nginx
 * (`/_ingest/`, loopback, keep-alive) against the one-box store (a second name for the file).
 * Loopback has no network delay: on a LAN add its round trip and the segment's transfer time.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsStore } from '../src/platform/storage/fs-store.js';
import type { ObjectStore } from '../src/platform/storage/store.js';
import { startIngestOrigin } from '../test/helpers/ingest-origin.js';

const ROUNDS = 40;
/** A 4-second segment at 2 Mbps (480p) and at 6 Mbps (1080p). */
const SIZES = [1_000_000, 3_000_000];
const NODE = 'nod_benchbenchbenchbench';

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] as number;

async function timePuts(
  store: ObjectStore,
  file: string,
  prefix: string,
): Promise<{ segment: number[]; playlist: number[] }> {
  const segment: number[] = [];
  const playlist: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    let t = performance.now();
    await store.putFile(`${prefix}source_${String(i).padStart(5, '0')}.ts`, file);
    segment.push(performance.now() - t);
    t = performance.now();
    await store.put(`${prefix}source.m3u8`, '#EXTM3U\n'.padEnd(600, '#'));
    playlist.push(performance.now() - t);
  }
  return { segment: segment.sort((a, b) => a - b), playlist: playlist.sort((a, b) => a - b) };
}

export async function benchOriginStore(): Promise<string> {
  const origin = await startIngestOrigin();
  const scratch = mkdtempSync(join(tmpdir(), 'svc-bench-origin-store-'));
  const lines = [`origin store: put of a segment, then of its playlist (${ROUNDS} rounds, loopback; median / p95 ms)`];
  try {
    origin.access.allow([NODE]);
    const remote = origin.store(NODE);
    const local = new FsStore(join(origin.dataDir, 'media'));
    for (const bytes of SIZES) {
      const file = join(scratch, `segment-${bytes}.ts`);
      writeFileSync(file, Buffer.alloc(bytes, 0x47));
      for (const [name, store] of [
        ['one box (FsStore)', local],
        ['ingest node (OriginStore)', remote],
      ] as const) {
        const { segment, playlist } = await timePuts(store, file, `origin/str_bench${name.length}${bytes}aaaaaaaaaa/`);
        lines.push(
          `  ${(bytes / 1e6).toFixed(0)} MB segment, ${name.padEnd(26)} segment ${percentile(segment, 0.5).toFixed(2)} / ${percentile(segment, 0.95).toFixed(2)}` +
            `   playlist ${percentile(playlist, 0.5).toFixed(2)} / ${percentile(playlist, 0.95).toFixed(2)}`,
        );
      }
    }
    remote.close();
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await origin.stop();
  }
  return lines.join('\n');
}
