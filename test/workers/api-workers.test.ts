import { rmSync } from 'node:fs';
import { execa } from 'execa';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { leftoverProcesses } from '../../src/operator/leftovers.js';
import { isAlive, killAll } from '../../src/platform/process/proc.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { sleep } from '../helpers/streams.js';

/**
 * API worker processes (docs/decisions.md, The read path): nginx on the API port, the keyed API
 * in two worker processes, the appliance's in-memory state (beats, viewers.now) in its own
 * process. What a worker shows matches what that process knows; a killed worker is routed
 * around and comes back; a killed appliance leaves no worker behind.
 */
interface Ctx {
  env: TestAppliance;
  key: string;
  streamId: string;
}
const t = suite<Ctx>('api workers');

t.before(async (ctx) => {
  ctx.env = await startTestAppliance({ api_workers: 2 });
  ctx.key = (await ctx.env.newAccount()).key;
  const created = await ctx.env.call('POST', '/v1/streams', { key: ctx.key, body: { name: 'workers' } });
  assert.is(created.status, 201, created.text);
  ctx.streamId = created.body.id;
});

t.after(async (ctx) => {
  await ctx.env?.close();
});

const workers = (ctx: Ctx) => {
  const w = ctx.env.running.workers;
  if (!w) throw new Error('no workers');
  return w;
};

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = performance.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (performance.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${ms} ms`);
    await sleep(50);
  }
}

t('the keyed API is answered by the workers, and the appliance counts their requests in its metrics', async (ctx) => {
  assert.is(workers(ctx).pids.length, 2);
  const countOf = async () => {
    const text = await ctx.env.running.metrics.scrape();
    return Number(
      /svc_http_request_duration_seconds_count\{method="GET",route="\/v1\/streams\/:id",status="200"\} (\d+)/.exec(
        text,
      )?.[1] ?? 0,
    );
  };
  const before = await countOf();
  const servedBefore = workers(ctx).answered;
  for (let i = 0; i < 20; i++)
    assert.is((await ctx.env.call('GET', `/v1/streams/${ctx.streamId}`, { key: ctx.key })).status, 200);
  // Workers report once a second.
  await until(
    'requests the workers reported',
    async () => workers(ctx).answered - servedBefore,
    (n) => n >= 20,
    3000,
  );
  assert.ok((await countOf()) - before >= 20, 'the metrics count them');
  // A refusal keeps the API's shape and request id through nginx.
  const refused = await ctx.env.call('PATCH', `/v1/streams/${ctx.streamId}`, { key: ctx.key, body: { nope: 1 } });
  assert.is(refused.status, 400, refused.text);
  assert.is(refused.body.error.code, 'invalid_request');
  assert.match(refused.headers['x-request-id'] ?? '', /^req_/);
});

t('viewers.now read through a worker is the figure of the process that counts the beats', async (ctx) => {
  for (const s of ['page-load-1', 'page-load-2', 'page-load-3']) {
    const beat = await ctx.env.call('POST', `/v1/embed/${ctx.streamId}/beat?s=${s}&st=p&u=0.1`);
    assert.ok(beat.status < 300, beat.text);
  }
  const counted = ctx.env.running.api.counter.now(ctx.streamId);
  assert.is(counted?.watching, 3);
  const read = await until(
    'the stream through a worker',
    async () => (await ctx.env.call('GET', `/v1/streams/${ctx.streamId}`, { key: ctx.key })).body,
    (s) => s.viewers_now === 3,
    2000,
  );
  assert.equal(
    { ...read.viewers.now, measured_at: null },
    { ...ctx.env.running.api.counter.now(ctx.streamId), measured_at: null },
  );
  // Watch time not written yet is the appliance process's too: the same figure as it would give.
  await until(
    'unwritten watch time',
    async () => ctx.env.running.api.viewers.pendingWatched()[ctx.streamId] ?? 0,
    (seconds) => seconds > 0,
    5000,
  );
  await sleep(300);
  const [own, mirrored] = [
    await ctx.env.running.api.viewers.viewers(ctx.streamId),
    (await ctx.env.call('GET', `/v1/streams/${ctx.streamId}`, { key: ctx.key })).body.viewers,
  ];
  assert.is(mirrored.watch_minutes, own.watch_minutes);
  assert.is.not(mirrored.watch_minutes, null);
  const listed = await ctx.env.call('GET', '/v1/streams', { key: ctx.key });
  assert.is(listed.body.data.find((s: { id: string }) => s.id === ctx.streamId)?.viewers_now, 3);
});

t(
  'kill -9 of a worker under load: nothing fails but what was in flight on it, and it comes back by itself',
  async (ctx) => {
    const [victim] = workers(ctx).pids;
    const statuses: { status: number; retryAfter: string | undefined }[] = [];
    let running = true;
    const load = async () => {
      while (running) {
        const r = await ctx.env.call('GET', `/v1/streams/${ctx.streamId}`, { key: ctx.key });
        statuses.push({ status: r.status, retryAfter: r.headers['retry-after'] });
      }
    };
    const loops = [load(), load(), load()];
    await sleep(500);
    process.kill(victim as number, 'SIGKILL');
    const back = await until(
      'a new worker',
      async () => workers(ctx).pids,
      (pids) => pids.length === 2 && !pids.includes(victim as number),
      10_000,
    );
    await sleep(1500);
    running = false;
    await Promise.all(loops);
    const failed = statuses.filter((s) => s.status !== 200);
    assert.ok(statuses.length > 50, `${statuses.length} requests`);
    assert.ok(failed.length <= 3, `only the in-flight ones may fail: ${JSON.stringify(failed)}`);
    for (const f of failed) assert.ok(f.status === 503 && f.retryAfter !== undefined, JSON.stringify(f));
    assert.not.ok(isAlive(victim as number));
    // The new one serves: every worker answers again (nginx retries a worker a second after it failed).
    const servedBefore = workers(ctx).answered;
    for (let i = 0; i < 20; i++)
      assert.is((await ctx.env.call('GET', `/v1/streams/${ctx.streamId}`, { key: ctx.key })).status, 200);
    await until(
      'requests reported after the restart',
      async () => workers(ctx).answered - servedBefore,
      (n) => n >= 20,
      3000,
    );
    console.log(
      `  ${statuses.length} requests around the kill, ${failed.length} failed; new worker pids ${back.join(', ')}`,
    );
  },
);

t('kill -9 of the appliance: its workers exit with it', async () => {
  const parent = execa(
    process.execPath,
    ['--import', 'tsx', new URL('../helpers/appliance-with-workers.ts', import.meta.url).pathname],
    { reject: false, env: process.env },
  );
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    parent.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0] as string);
    });
    void parent.then((r) => reject(new Error(`the appliance exited: ${r.stderr}`)));
  });
  const { dataDir, workers: pids } = JSON.parse(line) as { dataDir: string; workers: number[] };
  assert.is(pids.length, 2);
  try {
    parent.kill('SIGKILL');
    await until(
      'workers alive',
      async () => pids.filter(isAlive),
      (alive) => alive.length === 0,
      5000,
    );
    assert.not.ok(
      leftoverProcesses(dataDir).some((p) => p.command.includes('api-worker.js')),
      'no worker left behind',
    );
  } finally {
    // nginx stays until the next `svc up` adopts it (its pid file): this test is that next start.
    killAll([...pids, ...leftoverProcesses(dataDir).map((p) => p.pid)]);
    rmSync(dataDir, { recursive: true, force: true });
  }
});

t.run();
