/**
 * What knowing one segment costs: an ffprobe start (what the uploader ran before 0.10.0) against the
 * in-process reader, on the 4-second segments that the passthrough ladder cuts from the pipeline
 * bench's 1080p30 5 Mbps source. CPU from /proc (ffprobe: the reaped children's time).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { DEFAULT_LIVE } from '../src/config/config.js';
import { ladderArgs, planLadder } from '../src/platform/media/ladder.js';
import { readSegment } from '../src/platform/media/segment-reader.js';
import { ffprobeSegmentArgs } from '../test/helpers/ffprobe.js';
import { makeClip } from '../test/helpers/publisher.js';
import { cpuOf } from './pipeline.bench.js';

const ROUNDS = 5;

export async function benchSegment(): Promise<string> {
  const clip = await makeClip({ width: 1920, height: 1080, seconds: 60, gopSeconds: 2, videoKbps: 5000 });
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-segments-'));
  try {
    await execa(
      'ffmpeg',
      ladderArgs({
        input: clip,
        outDir: dir,
        renditions: planLadder('passthrough', { width: 1920, height: 1080 }),
        hasAudio: true,
        preset: DEFAULT_LIVE.x264_preset,
        segmentSeconds: DEFAULT_LIVE.segment_seconds,
      }),
    );
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join(dir, f));
    const bytes = files.reduce((sum, f) => sum + readFileSync(f).length, 0) / files.length;

    const children = () => cpuOf(process.pid, true) - cpuOf(process.pid, false);
    const probeBefore = children();
    for (let r = 0; r < ROUNDS; r++) for (const f of files) await execa('ffprobe', ffprobeSegmentArgs(f));
    const probeCpu = (children() - probeBefore) / (ROUNDS * files.length);

    // Reading the file is part of the reader's cost, as in the uploader.
    const readerBefore = process.cpuUsage();
    for (let r = 0; r < ROUNDS * 10; r++) for (const f of files) readSegment(readFileSync(f));
    const used = process.cpuUsage(readerBefore);
    const readerCpu = (used.user + used.system) / 1e6 / (ROUNDS * 10 * files.length);

    return [
      `One ${DEFAULT_LIVE.segment_seconds}-second passthrough segment of a 1080p30 5 Mbps source (${(bytes / 1e6).toFixed(2)} MB on average, ${files.length} segments)`,
      '',
      '| Way | CPU-s per segment | CPU-s per media-s |',
      '|---|---|---|',
      `| ffprobe start (before 0.10.0) | ${probeCpu.toFixed(4)} | ${(probeCpu / DEFAULT_LIVE.segment_seconds).toFixed(5)} |`,
      `| in-process reader | ${readerCpu.toFixed(4)} | ${(readerCpu / DEFAULT_LIVE.segment_seconds).toFixed(5)} |`,
    ].join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
