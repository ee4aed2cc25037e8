/**
 * The reference for the first picture: nginx-rtmp and the same ffmpeg ladder put together by hand,
 * as in shared/research/pipeline_feasibility.md: an `on_publish` hook that answers 200 and then
 * starts the ladder pulling the stream over RTMP, ffmpeg writing its own master playlist, and
 * nginx serving the folder unsigned. What the appliance adds (admission, metadata, the uploader,
 * CODECS, signatures) is absent; what it gains by reading the session's recording is too.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { DEFAULT_LIVE } from '../src/config/config.js';
import { ladderArgs, planLadder } from '../src/platform/media/ladder.js';
import { nginxArgs, RTMP_MODULE } from '../src/platform/nginx/config.js';
import { freePort } from '../test/helpers/ports.js';

export interface ByHand {
  rtmpUrl: string;
  /** The master playlist of stream `name` once its ladder writes one. */
  masterUrl(name: string): string;
  stop(): Promise<void>;
}

/** nginx-rtmp with a hook that starts a 1080p `abr_basic` ladder for every publisher. */
export async function startByHand(): Promise<ByHand> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-byhand-'));
  const hls = join(dir, 'hls');
  mkdirSync(join(dir, 'temp'), { recursive: true });
  mkdirSync(hls);
  // nginx's workers (nobody, when root) read what the ladder writes.
  chmodSync(dir, 0o755);
  const [rtmpPort, httpPort, hookPort] = [await freePort(), await freePort(), await freePort()];
  const ladders: ResultPromise[] = [];

  const hook = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const name = new URLSearchParams(body).get('name') ?? '';
      // The publish is accepted once nginx has this answer; the ladder can only play after that.
      res.once('finish', () => {
        if (!/^[A-Za-z0-9_]+$/.test(name)) return;
        const out = join(hls, name);
        mkdirSync(out, { recursive: true });
        const args = ladderArgs({
          input: `rtmp://127.0.0.1:${rtmpPort}/live/${name}`,
          outDir: out,
          renditions: planLadder('abr_basic', { width: 1920, height: 1080 }),
          hasAudio: true,
          preset: DEFAULT_LIVE.x264_preset,
          segmentSeconds: DEFAULT_LIVE.segment_seconds,
        });
        args.splice(args.length - 1, 0, '-master_pl_name', 'master.m3u8');
        ladders.push(execa('ffmpeg', args, { reject: false, stdin: 'ignore', stdout: 'ignore', stderr: 'ignore' }));
      });
      res.end();
    });
  });
  await new Promise<void>((resolve) => hook.listen(hookPort, '127.0.0.1', resolve));

  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    `load_module ${RTMP_MODULE};
daemon off; worker_processes 1; pid ${dir}/nginx.pid; error_log stderr warn;
events { worker_connections 256; }
rtmp { server { listen 127.0.0.1:${rtmpPort}; chunk_size 4096; notify_method post;
  application live { live on; idle_streams off; wait_key on; wait_video on; record off;
    on_publish http://127.0.0.1:${hookPort}/publish; allow play 127.0.0.1; deny play all; } } }
http { access_log off; client_body_temp_path ${dir}/temp; proxy_temp_path ${dir}/temp; fastcgi_temp_path ${dir}/temp;
  uwsgi_temp_path ${dir}/temp; scgi_temp_path ${dir}/temp;
  server { listen 127.0.0.1:${httpPort}; root ${hls}; log_not_found off; add_header Cache-Control no-cache; } }
`,
  );
  const nginx = execa('nginx', nginxArgs(dir, conf), {
    reject: false,
    stdin: 'ignore',
    stdout: 'ignore',
    stderr: 'inherit',
  });
  // Ready once it answers (a 404).
  for (let i = 0; ; i++) {
    if ((await fetch(`http://127.0.0.1:${httpPort}/ready`).catch(() => null)) !== null) break;
    if (i > 50) throw new Error('the by-hand nginx did not start');
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    rtmpUrl: `rtmp://127.0.0.1:${rtmpPort}/live`,
    masterUrl: (name) => `http://127.0.0.1:${httpPort}/${name}/master.m3u8`,
    async stop() {
      for (const ladder of ladders) ladder.kill('SIGKILL');
      await Promise.all(ladders);
      nginx.kill('SIGTERM');
      await nginx;
      await new Promise((r) => hook.close(r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
