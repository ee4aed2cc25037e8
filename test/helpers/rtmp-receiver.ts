import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect as connectTcp, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { Transform } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import type { Sql } from '../../src/platform/db/connect.js';
import { newId } from '../../src/core/ids.js';
import { testCertificate } from './certificates.js';
import { freePort } from './ports.js';
import { waitFor } from './publisher.js';

/**
 * Restreaming targets on loopback (the outside internet's stand-ins): a second nginx-rtmp that
 * takes publishers into `rtmp://127.0.0.1:<port>/in/<key>`, records each session
 * (`<dir>/rec/<key>-<time>.flv`) and lets ffprobe play it; with `tls`, the same behind nginx's
 * `stream` module with a throwaway certificate (rtmps://localhost:<tlsPort>/in); with
 * `refuseKeys`, an `on_publish` hook answering 403 (and counting the attempts).
 */
export interface RtmpReceiver {
  url: string;
  port: number;
  rtmpsUrl: string | null;
  /** With `tls`: the CA its certificate (for `localhost`) chains to, PEM. */
  caPem: string | null;
  /** Publish attempts the hook saw (refusing receivers only). */
  hookCalls: number;
  /** Session recordings for `key`, oldest first. */
  recordings(key: string): string[];
  /** Whether a publisher is on `key` now (nginx-rtmp's statistics). */
  publishing(key: string): Promise<boolean>;
  kill(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startRtmpReceiver(opts: { tls?: boolean; refuseKeys?: boolean } = {}): Promise<RtmpReceiver> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-receiver-'));
  mkdirSync(join(dir, 'rec'));
  mkdirSync(join(dir, 'temp'));
  const [port, statPort] = [await freePort(), await freePort()];
  const tlsPort = opts.tls ? await freePort() : null;
  let hook: Server | null = null;
  let hookCalls = 0;
  let caPem: string | null = null;
  if (opts.refuseKeys) {
    hook = createServer((req, res) => {
      hookCalls++;
      req.resume();
      res.writeHead(403).end('wrong key');
    });
    await new Promise<void>((r) => hook?.listen(0, '127.0.0.1', r));
  }
  if (tlsPort) {
    const cert = await testCertificate(['localhost']);
    writeFileSync(join(dir, 'cert.pem'), cert.chainPem);
    writeFileSync(join(dir, 'key.pem'), cert.keyPem);
    caPem = cert.caPem;
  }
  const onPublish = hook ? `on_publish http://127.0.0.1:${(hook.address() as AddressInfo).port}/publish;` : '';
  const conf = `daemon off;
${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
pid ${dir}/nginx.pid;
error_log stderr error;
load_module /usr/lib/nginx/modules/ngx_rtmp_module.so;
${tlsPort ? 'load_module /usr/lib/nginx/modules/ngx_stream_module.so;' : ''}
events { worker_connections 256; }
rtmp {
  server {
    listen 127.0.0.1:${port};
    chunk_size 4096;
    application in {
      live on;
      record all;
      record_path ${dir}/rec;
      record_unique on;
      ${onPublish}
    }
  }
}
http {
  access_log off;
  client_body_temp_path ${dir}/temp/body;
  proxy_temp_path ${dir}/temp/proxy;
  fastcgi_temp_path ${dir}/temp/fastcgi;
  uwsgi_temp_path ${dir}/temp/uwsgi;
  scgi_temp_path ${dir}/temp/scgi;
  server {
    listen 127.0.0.1:${statPort};
    location /stat { rtmp_stat all; }
  }
}
${
  tlsPort
    ? `stream {
  server {
    listen 127.0.0.1:${tlsPort} ssl;
    ssl_certificate ${dir}/cert.pem;
    ssl_certificate_key ${dir}/key.pem;
    proxy_pass 127.0.0.1:${port};
  }
}`
    : ''
}
`;
  const confFile = join(dir, 'nginx.conf');
  writeFileSync(confFile, conf);
  let child: ResultPromise | null = null;
  const stat = async () => (await fetch(`http://127.0.0.1:${statPort}/stat`)).text();
  const receiver: RtmpReceiver = {
    url: `rtmp://127.0.0.1:${port}/in`,
    port,
    // By name: the certificate is for `localhost`, and pushes verify it.
    rtmpsUrl: tlsPort ? `rtmps://localhost:${tlsPort}/in` : null,
    caPem,
    get hookCalls() {
      return hookCalls;
    },
    recordings(key) {
      return readdirSync(join(dir, 'rec'))
        .filter((f) => f.startsWith(`${key}-`) && f.endsWith('.flv'))
        .map((f) => join(dir, 'rec', f))
        .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
    },
    async publishing(key) {
      const xml = await stat();
      const streams = xml.split('<stream>').slice(1);
      return streams.some((s) => s.includes(`<name>${key}</name>`) && s.includes('<publishing/>'));
    },
    async start() {
      const proc = execa('nginx', ['-e', 'stderr', '-p', dir, '-c', confFile], {
        reject: false,
        stdin: 'ignore',
        stdout: 'ignore',
        stderr: 'inherit',
        // Its own process group: kill() takes the worker with the master.
        detached: true,
      });
      child = proc;
      await waitFor(
        'the receiver answers',
        async () => {
          if (proc.exitCode !== null) throw new Error('the receiver nginx exited');
          return (await stat().catch(() => null)) !== null;
        },
        10_000,
        100,
      );
    },
    async kill() {
      const proc = child;
      child = null;
      if (!proc) return;
      // nginx's whole group: master and worker, as a crash of the machine would.
      process.kill(-(proc.pid as number), 'SIGKILL');
      await proc;
      rmSync(join(dir, 'nginx.pid'), { force: true });
    },
    async close() {
      const proc = child;
      child = null;
      if (proc) {
        process.kill(-(proc.pid as number), 'SIGKILL');
        await proc;
      }
      hook?.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await receiver.start();
  return receiver;
}

/**
 * An SRT listener on loopback (ffmpeg in listener mode) writing what it gets to an MPEG-TS file;
 * it takes one caller, then exits when the caller leaves.
 */
export async function startSrtListener(): Promise<{ url: string; file: string; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-srt-out-'));
  const port = await freePort();
  const file = join(dir, 'out.ts');
  const proc = execa(
    'ffmpeg',
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-i',
      `srt://127.0.0.1:${port}?mode=listener`,
      '-c',
      'copy',
      '-f',
      'mpegts',
      file,
    ],
    { reject: false, stdin: 'ignore', buffer: false },
  );
  return {
    url: `srt://127.0.0.1:${port}`,
    file,
    async stop() {
      proc.kill('SIGINT');
      await proc;
    },
  };
}

/** An output row as the API would write it (the API's own tests cover how). */
export async function insertOutput(
  sql: Sql,
  row: { streamId: string; accountId: string; url: string; key: string; name?: string; enabled?: boolean },
): Promise<string> {
  const id = newId('out_');
  await sql`
    insert into stream_outputs (id, stream_id, account_id, name, url, stream_key, enabled, created_at, updated_at)
    values (${id}, ${row.streamId}, ${row.accountId}, ${row.name ?? null}, ${row.url}, ${row.key}, ${row.enabled ?? true}, now(), now())`;
  return id;
}

/**
 * A slow network in front of a receiver: a TCP relay on loopback that passes what the sender
 * writes at most `bytesPerSecond` (backpressure reaches the sender's socket), answers at full speed.
 */
export async function startThrottle(
  toPort: number,
  bytesPerSecond: number,
): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((client) => {
    const upstream = connectTcp(toPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => {
        client.destroy();
        upstream.destroy();
        sockets.delete(s);
      });
    }
    upstream.pipe(client);
    client
      .pipe(
        new Transform({
          highWaterMark: 4096,
          transform(chunk: Buffer, _enc, done) {
            setTimeout(() => done(null, chunk), (chunk.length / bytesPerSecond) * 1000);
          },
        }),
      )
      .pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
