import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { destination } from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { stopAppliance } from '../../src/operator/down.js';
import { resolveConfig, type Config } from '../../src/config/config.js';
import { dataPaths } from '../../src/config/paths.js';
import { createLogger } from '../../src/core/logger.js';
import { nginxArgs } from '../../src/platform/nginx/config.js';
import { NginxIngest, nginxWorkerUser } from '../../src/platform/nginx/nginx.js';
import { nginxReason, nginxStartFailure } from '../../src/platform/nginx/start-failure.js';
import { isAlive, processesInGroup } from '../../src/platform/process/proc.js';
import { Supervisor } from '../../src/platform/process/supervisor.js';
import { protectDataDir } from '../../src/platform/system/data-dir.js';
import { openForTraversal } from '../../src/platform/system/users.js';
import { freePort } from '../helpers/ports.js';
import { sleep } from '../helpers/streams.js';

/**
 * nginx's start on its own (no API, no database): it waits for nginx's real readiness, fails at
 * once in nginx's words when nginx cannot start, and clears what a killed nginx left on its ports.
 */
interface Ctx {
  dir: string;
  config: Config;
  supervisors: Supervisor[];
  held: Server[];
}
const t = suite<Ctx>('nginx start');

t.before.each(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'svc-test-nginx-start-'));
  openForTraversal(ctx.dir);
  const [api, rtmp, cdn, player] = [await freePort(), await freePort(), await freePort(), await freePort()];
  ctx.config = resolveConfig(ctx.dir, {
    api_port: api,
    rtmp_port: rtmp,
    cdn_port: cdn,
    player_port: player,
    database_url: 'postgres://unused@127.0.0.1:1/unused',
  });
  ctx.supervisors = [];
  ctx.held = [];
});

t.after.each(async (ctx) => {
  for (const s of ctx.supervisors) await s.stopAll();
  for (const server of ctx.held) await new Promise((r) => server.close(r));
  rmSync(ctx.dir, { recursive: true, force: true });
});

async function ingest(ctx: Ctx): Promise<{ nginx: NginxIngest; supervisor: Supervisor }> {
  // As the appliance does before nginx starts: the data dir's folders with their modes.
  const worker = await nginxWorkerUser();
  protectDataDir(ctx.dir, worker);
  const logger = createLogger('info', destination({ dest: join(ctx.dir, 'logs', 'svc.log'), mkdir: true, sync: true }));
  const nginx = new NginxIngest({
    config: ctx.config,
    secret: 'test-cdn-secret',
    viewerKey: 'test-viewer-key',
    edgeKey: 'test-edge-key',
    nodeKey: 'test-node-key',
    // Nothing publishes here: the hooks are never called.
    hooksUrl: `http://127.0.0.1:${ctx.config.ports.api}/internal/ingest/unused`,
    api: { mainPort: ctx.config.ports.api, workerPorts: [] },
    worker,
    logger,
  });
  const supervisor = new Supervisor();
  ctx.supervisors.push(supervisor);
  return { nginx, supervisor };
}

function hold(ctx: Ctx, port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
    ctx.held.push(server);
  });
}

t(
  "a port held by another listener: the start fails within nginx's own bind retries, in nginx's words, naming the setting and the holder",
  async (ctx) => {
    const port = ctx.config.ports.rtmp;
    await hold(ctx, port);
    const { nginx, supervisor } = await ingest(ctx);
    const started = performance.now();
    const err = await nginx.start(supervisor).then(
      () => null,
      (e: Error) => e,
    );
    const ms = performance.now() - started;
    assert.ok(err, 'the start failed');
    const message = (err as Error).message;
    assert.ok(message.includes(`bind() to 127.0.0.1:${port} failed (98: Address already in use)`), message);
    assert.ok(message.includes(`port ${port} (rtmp_port) is held by pid ${process.pid}`), message);
    assert.ok(message.includes('set another rtmp_port in config.json'), message);
    // nginx tries five times, half a second apart, then exits: the start ends on that first exit.
    assert.is(nginx.restarts, 0, 'nginx was not restarted');
    assert.not.ok(nginx.ready);
    console.log(`  a held port: the start failed after ${Math.round(ms)} ms`);
  },
);

t("a port released during nginx's bind retries: the start waits for it and succeeds", async (ctx) => {
  const server = await hold(ctx, ctx.config.ports.cdn);
  const { nginx, supervisor } = await ingest(ctx);
  setTimeout(() => server.close(), 1000);
  await nginx.start(supervisor);
  assert.ok(nginx.ready);
  assert.is(nginx.restarts, 0);
  await nginx.stop();
});

/** An nginx master started on the data dir's config, then killed with SIGKILL: its workers outlive it. */
async function orphanWorkers(ctx: Ctx): Promise<number[]> {
  const paths = dataPaths(ctx.dir);
  const master = execa(ctx.config.live.nginx_path, nginxArgs(paths.nginx, paths.nginxConf), {
    detached: true,
    reject: false,
    stdio: 'ignore',
  });
  let workers: number[] = [];
  const deadline = performance.now() + 10_000;
  while (workers.length === 0 && performance.now() < deadline) {
    await sleep(100);
    workers = processesInGroup(master.pid as number).filter((p) => p !== master.pid);
  }
  assert.ok(workers.length > 0, 'the master forked its worker');
  assert.is(Number(readFileSync(paths.nginxPid, 'utf8').trim()), master.pid);
  master.kill('SIGKILL');
  await master;
  await sleep(200);
  assert.ok(workers.every(isAlive), 'its workers outlive it');
  return workers;
}

t(
  'the workers of an nginx master killed with SIGKILL hold its ports: the next start stops them and gets the ports',
  async (ctx) => {
    // What a killed appliance, and then its nginx master killed too, leave: workers without a master.
    const first = await ingest(ctx);
    await first.nginx.start(first.supervisor);
    await first.nginx.stop();
    const workers = await orphanWorkers(ctx);

    const second = await ingest(ctx);
    try {
      await second.nginx.start(second.supervisor);
      assert.ok(second.nginx.ready);
      assert.is(second.nginx.restarts, 0);
      assert.not.ok(workers.some(isAlive), 'the orphaned workers were stopped');
      assert.ok(
        readFileSync(join(ctx.dir, 'logs', 'svc.log'), 'utf8').includes(
          'stopped the workers of an nginx master that was killed',
        ),
      );
      await second.nginx.stop();
    } finally {
      // Whatever the start did: no orphan outlives the test.
      for (const pid of workers.filter(isAlive)) process.kill(pid, 'SIGKILL');
    }
  },
);

t('svc down stops the workers of an nginx master killed with SIGKILL (their titles name no data dir)', async (ctx) => {
  const first = await ingest(ctx);
  await first.nginx.start(first.supervisor);
  await first.nginx.stop();
  const workers = await orphanWorkers(ctx);
  try {
    const lines: string[] = [];
    const result = await stopAppliance({
      dataDir: ctx.dir,
      postgresBinDir: null,
      progress: (line) => lines.push(line),
    });
    assert.not.ok(workers.some(isAlive), 'the orphaned workers were stopped');
    assert.equal(result.stopped_leftover_processes.map((p) => p.pid).sort(), [...workers].sort());
    assert.ok(
      lines.some((line) => line.includes('worker(s) of an nginx master that was killed')),
      lines.join('\n'),
    );
  } finally {
    for (const pid of workers.filter(isAlive)) process.kill(pid, 'SIGKILL');
  }
});

t("nginxReason: each fatal message once, without nginx's time and pid; the last lines when none is fatal", () => {
  const lines = [
    '2026/11/27 01:20:49 [emerg] 14874#14874: bind() to 127.0.0.1:38917 failed (98: Address already in use)',
    '2026/11/27 01:20:49 [emerg] 14874#14874: bind() to 127.0.0.1:38917 failed (98: Address already in use)',
    '2026/11/27 01:20:51 [emerg] 14874#14874: still could not bind()',
  ];
  assert.is(
    nginxReason(lines),
    'bind() to 127.0.0.1:38917 failed (98: Address already in use); still could not bind()',
  );
  assert.is(
    nginxReason(['nginx: [emerg] open() "/x/nginx.conf" failed (2: No such file or directory)']),
    'open() "/x/nginx.conf" failed (2: No such file or directory)',
  );
  assert.is(nginxReason(['2026/11/27 01:20:49 [warn] 1#1: something', 'plain']), 'something; plain');
  assert.is(nginxReason([]), 'it printed nothing');
});

t('nginxStartFailure: a port taken for a moment only says so', () => {
  const message = nginxStartFailure({
    output: ['2026/11/27 01:20:49 [emerg] 1#1: bind() to 0.0.0.0:8081 failed (98: Address already in use)'],
    what: 'exited (code 1) before it answered',
    config: { ports: { api: 8080, rtmp: 1935, cdn: 8081, player: 8082, postgres: 5439 } },
    holders: () => [],
  });
  assert.is(
    message,
    'nginx exited (code 1) before it answered: bind() to 0.0.0.0:8081 failed (98: Address already in use). port 8081 (cdn_port) is free again: it was taken while nginx started; start again, or set another cdn_port in config.json',
  );
});

t.run();
