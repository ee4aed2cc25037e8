import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { systemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { packageRoot } from '../../src/core/package-root.js';
import { connect, type Sql } from '../../src/platform/db/connect.js';
import { Scheduler, type Job } from '../../src/platform/jobs/scheduler.js';
import { isAlive } from '../../src/platform/process/proc.js';
import { clientId, FeedReader } from '../helpers/chat.js';
import { createEmptyDatabase, makeDataDir, ok, svc } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { waitFor } from '../helpers/publisher.js';
import { makeOffer, postOffer } from '../helpers/whip-client.js';
import { viewerToken } from '../helpers/viewer-tokens.js';

/**
 * Two appliances (`svc init --database-url` on two data dirs, one secrets file, `svc up`) on one
 * PostgreSQL behind a real HAProxy with the configuration docs/operations.md gives
 * (appliance/haproxy/api-nodes.cfg): any node gives the same answers (rate limits, chat, WHIP sessions,
 * viewer counts, attendance), a job runs once per tick with both up, and HAProxy answers from
 * one node after the other was killed with SIGKILL.
 */
interface Node {
  dir: string;
  remove: () => void;
  api: number;
  base: string;
}
interface Ctx {
  a: Node;
  b: Node;
  lb: string;
  haproxy: ResultPromise;
  dropDb: () => Promise<void>;
  sql: Sql;
  key: string;
  accountId: string;
}

const t = suite<Ctx>('API nodes: two appliances on one PostgreSQL behind HAProxy');
const readers: FeedReader[] = [];

interface Reply {
  status: number;
  // Tests read arbitrary response fields.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}
async function call(
  base: string,
  method: string,
  path: string,
  opts: { key?: string; body?: unknown; from?: string } = {},
): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (opts.key) headers.authorization = `Bearer ${opts.key}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  // The nodes believe X-Forwarded-For from loopback: each test's caller is an address of its own.
  if (opts.from) headers['x-forwarded-for'] = opts.from;
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** `lb`: the balancer's address, which both nodes give as their WHIP address (one public name, as `--host` would). */
async function initNode(dbUrl: string, lb: string, secretsFrom?: string): Promise<Node> {
  const { dir, remove } = makeDataDir();
  const api = await freePort();
  const ports = ['--api-port', `${api}`, '--rtmp-port', `${await freePort()}`];
  ports.push('--cdn-port', `${await freePort()}`, '--player-port', `${await freePort()}`);
  ok(await svc(['init', '--data-dir', dir, '--database-url', dbUrl, '--no-install', ...ports]));
  // One secrets file for the cluster: signatures, tokens and sealed records agree on every node.
  if (secretsFrom) copyFileSync(join(secretsFrom, 'secrets.json'), join(dir, 'secrets.json'));
  const file = join(dir, 'config.json');
  const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const srt = await freePort();
  writeFileSync(
    file,
    JSON.stringify({
      ...config,
      api_workers: 0,
      // Streams here never go live: room for every one this file creates on this small machine.
      capacity: { cores: 1000 },
      public_urls: { whip_url: `${lb}/live` },
      srt: { port_min: srt, port_max: srt },
      viewers: { sample_seconds: 1, attendance_flush_seconds: 1, attendance_interval_seconds: 2 },
    }),
  );
  return { dir, remove, api, base: `http://127.0.0.1:${api}` };
}

const up = async (node: Node) => ok(await svc(['up', '--detach', '--data-dir', node.dir], { timeoutMs: 120_000 }));

t.before(async (ctx) => {
  const db = await createEmptyDatabase();
  ctx.dropDb = db.drop;
  ctx.sql = connect(db.url, { max: 4 });
  const lbPort = await freePort();
  ctx.lb = `http://127.0.0.1:${lbPort}`;
  ctx.a = await initNode(db.url, ctx.lb);
  ctx.b = await initNode(db.url, ctx.lb, ctx.a.dir);
  await up(ctx.a);
  await up(ctx.b);
  const account = ok(
    await svc([
      'accounts',
      'create',
      '--name',
      'Nodes',
      '--trusted',
      '--credit',
      '50',
      '--json',
      '--data-dir',
      ctx.a.dir,
    ]),
  ).json;
  ctx.accountId = account.id;
  ctx.key = ok(await svc(['api-keys', 'create', '--account', account.id, '--json', '--data-dir', ctx.a.dir])).json.key;
  ctx.haproxy = execa('haproxy', ['-db', '-f', join(packageRoot, 'appliance', 'haproxy', 'api-nodes.cfg')], {
    env: {
      SVC_LB_BIND: `127.0.0.1:${lbPort}`,
      SVC_API_NODE_1: `127.0.0.1:${ctx.a.api}`,
      SVC_API_NODE_2: `127.0.0.1:${ctx.b.api}`,
    },
    reject: false,
  });
  await waitFor(
    'HAProxy answers',
    async () => (await fetch(`${ctx.lb}/healthz`).catch(() => null))?.ok === true,
    15_000,
  );
});

t.after.each(() => {
  for (const r of readers.splice(0)) r.close();
});

t.after(async (ctx) => {
  ctx.haproxy?.kill('SIGKILL');
  await ctx.haproxy;
  for (const node of [ctx.b, ctx.a]) if (node) await svc(['down', '--data-dir', node.dir]);
  await ctx.sql?.end();
  await ctx.dropDb?.();
  ctx.a?.remove();
  ctx.b?.remove();
});

const newStream = async (ctx: Ctx): Promise<string> => {
  const res = await call(ctx.lb, 'POST', '/v1/streams', { key: ctx.key });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.id as string;
};

t(
  'unknown stream ids from one address, alternating between nodes: refused at the same total as on one node',
  async (ctx) => {
    const from = '198.51.100.7';
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      const node = i % 2 === 0 ? ctx.a : ctx.b;
      statuses.push((await call(node.base, 'GET', `/v1/embed/str_unknown${i}`, { from })).status);
    }
    assert.equal(statuses.slice(0, 60), Array(60).fill(404), 'the first 60 unknown ids are answered 404');
    assert.is(statuses[60], 429, 'the 61st, on the other node than the 60th, is refused');
    // And the address is refused on every public endpoint of both nodes, known ids too (within a second).
    const id = await newStream(ctx);
    for (const node of [ctx.a, ctx.b])
      await waitFor(
        `refused on ${node.base}`,
        async () => (await call(node.base, 'GET', `/v1/embed/${id}`, { from })).status === 429,
        3000,
      );
    assert.is(
      (await call(ctx.a.base, 'GET', `/v1/embed/${id}`, { from: '198.51.100.8' })).status,
      200,
      'another address is not',
    );
  },
);

t('chat posted on node A is read and streamed on node B; reactions are counted across nodes', async (ctx) => {
  const id = await newStream(ctx);
  const feed = await FeedReader.open(`${ctx.b.base}/v1/embed/${id}/chat/feed`);
  readers.push(feed);
  await feed.until((x) => x.named('settings').length === 1, 'the start of the feed on B');
  const posted = await call(ctx.a.base, 'POST', `/v1/embed/${id}/chat/messages`, {
    body: { text: 'hello from A', nickname: 'Ada', client_id: clientId('ada') },
  });
  assert.is(posted.status, 201, JSON.stringify(posted.body));
  await feed.until((x) => x.messages().some((m) => m.text === 'hello from A'), 'the post on B’s feed');
  const history = await call(ctx.b.base, 'GET', `/v1/embed/${id}/chat/messages`);
  assert.equal(
    history.body.data.map((m: { text: string }) => m.text),
    ['hello from A'],
  );
  // 20 reactions per 10 s per viewer (the default), alternating between the nodes: the 21st is refused.
  const react = (i: number) =>
    call(i % 2 === 0 ? ctx.a.base : ctx.b.base, 'POST', `/v1/embed/${id}/chat/reactions`, {
      body: { emoji: '👍', client_id: clientId('bo') },
    });
  const statuses: number[] = [];
  for (let i = 0; i < 21; i++) statuses.push((await react(i)).status);
  assert.equal(statuses.slice(0, 20), Array(20).fill(204));
  assert.is(statuses[20], 429);
});

t('viewer counts and attendance: the same from both nodes', async (ctx) => {
  const id = await newStream(ctx);
  const viewerKey = ok(
    await svc(['viewer-keys', 'create', '--account', ctx.accountId, '--json', '--data-dir', ctx.a.dir]),
  ).json;
  const token = await viewerToken(viewerKey, new Date(), { sub: 'pupil-7', name: 'Grace' });
  // Through the balancer, as players do: every path of the stream reaches one node.
  const session = await call(ctx.lb, 'POST', `/v1/embed/${id}/session`, { body: { viewer_token: token } });
  assert.is(session.status, 200, JSON.stringify(session.body));
  const t1 = encodeURIComponent(session.body.session_token as string);
  const beat = async (s: string, extra = '') => {
    const res = await call(ctx.lb, 'POST', `/v1/embed/${id}/beat?s=${s}&st=p&u=0.5${extra}`);
    assert.is(res.status, 204, JSON.stringify(res.body));
  };
  const watchingOn = async (node: Node) =>
    (await call(node.base, 'GET', `/v1/streams/${id}`, { key: ctx.key })).body.viewers_now as number | null;
  const stop = Date.now() + 4000;
  while (Date.now() < stop) {
    await Promise.all([beat('player-one-aaaa', `&t=${t1}`), beat('player-two-bbbb'), beat('player-three-cc')]);
    await new Promise((r) => setTimeout(r, 1000));
  }
  await waitFor(
    '3 watching on A and on B',
    async () => (await watchingOn(ctx.a)) === 3 && (await watchingOn(ctx.b)) === 3,
    10_000,
  );
  const series = await Promise.all(
    [ctx.a, ctx.b].map((n) => call(n.base, 'GET', `/v1/streams/${id}/viewers`, { key: ctx.key })),
  );
  assert.is(series[0]?.status, 200);
  assert.is(series[0]?.body.player?.length ?? 0, series[1]?.body.player?.length ?? 0);
  const attendance = (node: Node) => call(node.base, 'GET', `/v1/streams/${id}/attendance`, { key: ctx.key });
  await waitFor(
    'Grace credited on A',
    async () => ((await attendance(ctx.a)).body.data?.[0]?.watch_seconds ?? 0) > 0,
    15_000,
  );
  const [onA, onB] = await Promise.all([attendance(ctx.a), attendance(ctx.b)]);
  assert.equal(onA.body, onB.body);
  assert.is(onA.body.data[0].viewer_id, 'pupil-7');
});

t('a job scheduled on both nodes runs once per tick', async (ctx) => {
  const logger = createLogger('silent');
  const schedulers = [new Scheduler(ctx.sql, systemClock, logger), new Scheduler(ctx.sql, systemClock, logger)];
  let runs = 0;
  const job: Job = {
    name: 'api-nodes test tick',
    schedule: '* * * * * *',
    periodSeconds: 1,
    timeoutSeconds: 5,
    run: async () => runs++,
  };
  // The same tick on both, one after the other: the second finds this period's run done.
  await schedulers[0]?.runOnce(job);
  await schedulers[1]?.runOnce(job);
  assert.is(runs, 1, 'one run for one tick');
  // Every second on both for 4 s.
  await new Promise((r) => setTimeout(r, 1000));
  runs = 0;
  for (const s of schedulers) await s.add(job);
  await new Promise((r) => setTimeout(r, 4000));
  for (const s of schedulers) await s.stop();
  assert.ok(runs >= 3 && runs <= 5, `runs once per second cluster-wide (ran ${runs} times in 4 s)`);
});

t('WHIP through the balancer: the offer and its session’s DELETE reach the same node', async (ctx) => {
  for (let i = 0; i < 4; i++) {
    const created = await call(ctx.lb, 'POST', '/v1/streams', { key: ctx.key });
    assert.is(created.status, 201, JSON.stringify(created.body));
    const { id, whip_url: whipUrl } = created.body as { id: string; whip_url: string };
    assert.ok(whipUrl.startsWith(`${ctx.lb}/live/${id}?`), whipUrl);
    const { pc, offer } = await makeOffer();
    try {
      const answered = await postOffer(whipUrl, offer);
      assert.is(answered.status, 201, await answered.text());
      const session = answered.headers.get('location') as string;
      assert.ok(session.startsWith(`${ctx.lb}/live/${id}/sessions/`), session);
      // Round robin would send it to the other node, which holds no such session (404).
      assert.is((await fetch(session, { method: 'DELETE' })).status, 200, `session ${i + 1}`);
    } finally {
      await pc.close();
    }
    assert.is((await call(ctx.lb, 'DELETE', `/v1/streams/${id}`, { key: ctx.key })).status, 200);
  }
});

t('kill -9 of one node: HAProxy answers from the other', async (ctx) => {
  const id = await newStream(ctx);
  const pid = Number(readFileSync(join(ctx.b.dir, 'run', 'svc.pid'), 'utf8').split('\n')[0]);
  process.kill(pid, 'SIGKILL');
  await waitFor('node B gone', async () => !isAlive(pid), 5000, 20);
  const statuses: number[] = [];
  for (let i = 0; i < 20; i++) {
    statuses.push((await call(ctx.lb, 'GET', `/v1/streams/${id}`, { key: ctx.key })).status);
    statuses.push((await call(ctx.lb, 'GET', `/v1/embed/${id}`)).status);
  }
  assert.equal(statuses, Array(40).fill(200), 'every request answered, none lost to the dead node');
});

t.run();
