import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { execa, type ResultPromise } from 'execa';

export interface ClipSpec {
  width: number;
  height: number;
  seconds: number;
  fps?: number;
  /** Seconds between keyframes. */
  gopSeconds?: number;
  audio?: boolean;
  /** Video bitrate; default: what ultrafast gives. */
  videoKbps?: number;
}

const CLIPS = join(tmpdir(), 'svc-test-clips');

/** An H.264 (+ AAC) FLV test clip, made once per spec and reused by later runs. */
export async function makeClip(spec: ClipSpec): Promise<string> {
  const fps = spec.fps ?? 30;
  const gop = Math.round((spec.gopSeconds ?? 2) * fps);
  const audio = spec.audio ?? true;
  const name = `${spec.width}x${spec.height}-${spec.seconds}s-${fps}fps-g${gop}-${audio ? 'a' : 'na'}-${spec.videoKbps ?? 'q'}.flv`;
  const file = join(CLIPS, name);
  if (existsSync(file)) return file;
  mkdirSync(CLIPS, { recursive: true });
  const tmp = `${file}.${process.pid}.tmp.flv`;
  const rate = spec.videoKbps
    ? ['-b:v', `${spec.videoKbps}k`, '-maxrate', `${spec.videoKbps}k`, '-bufsize', `${spec.videoKbps}k`]
    : ['-crf', '30'];
  await execa('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${spec.width}x${spec.height}:rate=${fps}:duration=${spec.seconds}`,
    ...(audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${spec.seconds}`] : []),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-tune',
    'zerolatency',
    '-pix_fmt',
    'yuv420p',
    ...rate,
    '-g',
    String(gop),
    '-keyint_min',
    String(gop),
    '-sc_threshold',
    '0',
    ...(audio ? ['-c:a', 'aac', '-b:a', '96k', '-ar', '48000'] : []),
    '-f',
    'flv',
    tmp,
  ]);
  renameSync(tmp, file);
  return file;
}

export interface Publisher {
  proc: ResultPromise;
  /** Media seconds written so far (ffmpeg's progress `out_time`). */
  sentSeconds(): number;
  /** Resolves with ffmpeg's exit code. */
  exited: Promise<number | undefined>;
  kill(signal?: NodeJS.Signals): Promise<number | undefined>;
}

/** ffmpeg publishing a clip in real time (`-re`), looped when asked, as OBS would. */
export function publish(url: string, clip: string, opts: { loop?: boolean; seconds?: number } = {}): Publisher {
  return runPublisher([
    '-re',
    ...(opts.loop ? ['-stream_loop', '-1'] : []),
    '-i',
    clip,
    ...(opts.seconds ? ['-t', String(opts.seconds)] : []),
    '-c',
    'copy',
    '-f',
    'flv',
    url,
  ]);
}

/**
 * ffmpeg with `args` (inputs, encoding, output) reporting its progress every 0.1 s;
 * `onProgress` gets each `out_time` (media seconds written) with the wall time it was read.
 */
export function runPublisher(args: string[], onProgress?: (outSeconds: number, atMs: number) => void): Publisher {
  const proc = execa(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', '-nostats', '-progress', 'pipe:1', '-stats_period', '0.1', ...args],
    { reject: false, buffer: false, stdin: 'ignore' },
  );
  let sent = 0;
  if (proc.stdout) {
    createInterface({ input: proc.stdout }).on('line', (line) => {
      const m = /^out_time_us=(\d+)$/.exec(line);
      if (!m) return;
      const seconds = Number(m[1]) / 1e6;
      sent = Math.max(sent, seconds);
      onProgress?.(seconds, Date.now());
    });
  }
  const exited = proc.then((r) => r.exitCode);
  return {
    proc,
    sentSeconds: () => sent,
    exited,
    async kill(signal = 'SIGKILL') {
      proc.kill(signal);
      return exited;
    },
  };
}

/** Polls until `check` returns a value (not undefined/false) or the timeout passes. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined | false | null>,
  timeoutMs = 20_000,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false && value !== null) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
