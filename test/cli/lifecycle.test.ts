import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ManagedCluster } from '../../src/platform/db/managed-cluster.js';
import { isAlive, sleep } from '../../src/operator/pid.js';
import { childrenOf, commandLine, findProcesses } from '../../src/platform/process/proc.js';
import { makeDataDir, svc, ok } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';

/** Command lines of the processes that mention the data dir (nginx's prefix, a ladder's output, PostgreSQL's data). */
function processesOf(dir: string): string[] {
  return findProcesses((argv) => argv.join(' ').includes(dir)).map((pid) => commandLine(pid)?.join(' ') ?? '');
}

interface Ctx {
  publisher: Publisher;
  dir: string;
  remove: () => void;
  ports: { api: number; postgres: number; rtmp: number; cdn: number; player: number; metrics: number };
  pid: number;
  accountId: string;
  apiKey: string;
  streamId: string;
  streamKey: string;
  /** The key of the stream that was live when the appliance went down. */
  liveKey: string;
}

/** One appliance for the whole file: `up` on a fresh data dir, the operator commands, `down`. */
const t = suite<Ctx>('cli: up, operator commands, down');
t.before(async (ctx) => {
  Object.assign(ctx, makeDataDir());
  ctx.ports = {
    api: await freePort(),
    postgres: await freePort(),
    rtmp: await freePort(),
    cdn: await freePort(),
    player: await freePort(),
    metrics: await freePort(),
  };
});
t.after(async (ctx) => {
  // Never leave an appliance or its PostgreSQL behind, whatever failed.
  await ctx.publisher?.kill();
  await svc(['down', '--data-dir', ctx.dir]);
  ctx.remove();
});

t('up --detach on a data dir never initialised initialises it, then returns once healthy', async (ctx) => {
  const p = ctx.ports;
  const res = ok(
    await svc(
      [
        'up',
        '--detach',
        '--no-install',
        '--api-port',
        `${p.api}`,
        '--postgres-port',
        `${p.postgres}`,
        '--rtmp-port',
        `${p.rtmp}`,
        '--cdn-port',
        `${p.cdn}`,
        '--player-port',
        `${p.player}`,
        '--metrics-port',
        `${p.metrics}`,
        '--api-workers',
        '2',
      ],
      { env: { SVC_DATA_DIR: ctx.dir }, timeoutMs: 150_000 },
    ),
  );
  assert.match(res.stderr, /not initialised yet: initialising it/);
  // The API through nginx and two workers from here on (the default on this 2-core machine is none).
  assert.is(JSON.parse(readFileSync(join(ctx.dir, 'config.json'), 'utf8')).api_workers, 2);
  assert.ok(existsSync(join(ctx.dir, 'run', 'svc.pid')));
  assert.match(res.stdout, /svc is running \(pid \d+\)/);
  assert.match(res.stdout, new RegExp(`api\\s+healthy\\s+http://127\\.0\\.0\\.1:${p.api}`));
});

t('status --json: running, every part healthy, the URLs', async (ctx) => {
  const s = ok(await svc(['status', '--json', '--data-dir', ctx.dir])).json;
  assert.equal(Object.keys(s), [
    'running',
    'pid',
    'data_dir',
    'parts',
    'base_url',
    'player_url',
    'cdn_url',
    'rtmp_url',
    'allow_private_webhooks',
    'metrics_url',
    'healthy',
    'jobs',
    'certificate',
    'edges',
    'nodes',
    'storage',
  ]);
  assert.is(s.certificate, null, 'no TLS: no certificate');
  assert.is(s.storage.kind, 'local', 'no object storage configured: the data dir');
  assert.equal(s.edges, [], 'no edges yet');
  // The appliance is the one node of its own cluster, up, with its own budget.
  assert.is(s.nodes.length, 1);
  assert.is(s.nodes[0].state, 'up');
  assert.is(s.nodes[0].status, 'active');
  assert.is(s.nodes[0].rtmp_url, s.rtmp_url);
  assert.is(s.running, true);
  assert.is(s.healthy, true);
  assert.equal(
    s.jobs.map((j: { name: string }) => j.name),
    [
      'cdn-log',
      'idempotency-purge',
      'ingest-samples-purge',
      'metering',
      'node-failover',
      'recording-retention',
      'recordings',
      'reservation-expiry',
      'viewer-sessions-purge',
      'webhook-deliveries-purge',
    ],
  );
  assert.ok(s.jobs.every((j: { late: boolean }) => !j.late));
  assert.type(s.pid, 'number');
  assert.is(s.data_dir, ctx.dir);
  assert.equal(s.parts, {
    api: { healthy: true, url: `http://127.0.0.1:${ctx.ports.api}` },
    postgres: { healthy: true, managed: true },
    nginx: { healthy: true },
  });
  assert.is(s.base_url, `http://127.0.0.1:${ctx.ports.api}`);
  assert.is(s.metrics_url, `http://127.0.0.1:${ctx.ports.metrics}/metrics`);
  const metrics = await fetch(s.metrics_url);
  assert.is(metrics.status, 200);
  assert.match(await metrics.text(), /^svc_streams\{status="pending"\} \d+$/m);
  assert.is(s.player_url, `http://127.0.0.1:${ctx.ports.player}`);
  assert.is(s.cdn_url, `http://127.0.0.1:${ctx.ports.cdn}`);
  assert.is(s.rtmp_url, `rtmp://127.0.0.1:${ctx.ports.rtmp}/live`);
  assert.is(s.allow_private_webhooks, false);
  ctx.pid = s.pid;

  const again = ok(await svc(['up', '--detach', '--data-dir', ctx.dir]));
  assert.match(again.stdout, new RegExp(`already running \\(pid ${ctx.pid}\\)`));
});

t(
  "nodes drain and activate set the own node's status and show its streams; an unknown node is not_found",
  async (ctx) => {
    const [node] = ok(await svc(['nodes', 'list', '--json', '--data-dir', ctx.dir])).json.data;
    const drained = ok(await svc(['nodes', 'drain', node.name, '--json', '--data-dir', ctx.dir])).json;
    assert.is(drained.id, node.id);
    assert.is(drained.status, 'draining');
    assert.is(drained.live, 0);
    const activated = ok(await svc(['nodes', 'activate', node.id, '--data-dir', ctx.dir]));
    assert.match(activated.stdout, new RegExp(`^id\\s+${node.id}\\n(.*\\n)*status\\s+active\\n`));
    assert.is(ok(await svc(['nodes', 'list', '--json', '--data-dir', ctx.dir])).json.data[0].status, 'active');
    for (const command of ['drain', 'activate']) {
      const unknown = await svc(['nodes', command, 'no-such-node', '--json', '--data-dir', ctx.dir]);
      assert.is.not(unknown.code, 0);
      assert.is(unknown.json.error.code, 'not_found');
    }
  },
);

t('accounts create --credit 50 --json prints the account, id first, money as a string', async (ctx) => {
  const a = ok(
    await svc(['accounts', 'create', '--name', 'Acme', '--credit', '50', '--json', '--data-dir', ctx.dir]),
  ).json;
  assert.is(Object.keys(a)[0], 'id');
  assert.match(a.id, /^acc_[a-z0-9]{20}$/);
  assert.is(a.name, 'Acme');
  assert.is(a.state, 'active');
  assert.is(a.credit_usd, '50.00');
  ctx.accountId = a.id;

  const credited = ok(await svc(['accounts', 'credit', a.id, '--add', '12.50', '--json', '--data-dir', ctx.dir])).json;
  assert.is(credited.credit_usd, '62.50');
  const bad = await svc(['accounts', 'credit', a.id, '--add', '1e3', '--data-dir', ctx.dir]);
  assert.is.not(bad.code, 0);
  assert.match(bad.stderr, /^Error: invalid_request: amount must be a decimal/);
  const below = await svc(['accounts', 'credit', a.id, '--add=-100', '--json', '--data-dir', ctx.dir]);
  assert.is(below.code, 1);
  assert.equal(below.json, {
    error: {
      code: 'insufficient_credit',
      message: `Taking 100.00 USD off prepaid account ${a.id} would leave its balance at -37.50 USD (it has 62.50): take off at most 62.50, or pass --force to go below zero.`,
      details: { field: 'add', balance_usd: '62.50', result_usd: '-37.50' },
    },
  });
  assert.is(
    ok(await svc(['accounts', 'credit', a.id, '--add=-100', '--force', '--json', '--data-dir', ctx.dir])).json
      .credit_usd,
    '-37.50',
  );
  assert.is(
    ok(await svc(['accounts', 'credit', a.id, '--add', '100', '--json', '--data-dir', ctx.dir])).json.credit_usd,
    '62.50',
  );

  const list = ok(await svc(['accounts', 'list', '--data-dir', ctx.dir]));
  assert.match(list.stdout, /^ID\s+NAME\s+STATE/);
  assert.match(list.stdout, new RegExp(`${a.id}\\s+Acme\\s+active\\s+no\\s+prepaid\\s+62\\.50`));
});

t(
  'api-keys create prints the svc_live_ key once; viewer-keys create the vk_ id and vks_ secret, list and delete',
  async (ctx) => {
    const k = ok(await svc(['api-keys', 'create', '--account', ctx.accountId, '--json', '--data-dir', ctx.dir])).json;
    assert.match(k.key, /^svc_live_[A-Za-z0-9]{32}$/);
    assert.is(k.account_id, ctx.accountId);
    ctx.apiKey = k.key;

    const v = ok(
      await svc(['viewer-keys', 'create', '--account', ctx.accountId, '--json', '--data-dir', ctx.dir]),
    ).json;
    assert.match(v.id, /^vk_/);
    assert.match(v.secret, /^vks_/);
    const listed = ok(
      await svc(['viewer-keys', 'list', '--account', ctx.accountId, '--json', '--data-dir', ctx.dir]),
    ).json;
    assert.equal(listed, {
      object: 'list',
      data: [{ id: v.id, object: 'viewer_key', account_id: ctx.accountId, created_at: v.created_at }],
    });
    assert.equal(
      ok(await svc(['viewer-keys', 'delete', v.id, '--account', ctx.accountId, '--json', '--data-dir', ctx.dir])).json,
      { id: v.id, object: 'viewer_key', account_id: ctx.accountId, deleted: true },
    );
    assert.equal(
      ok(await svc(['viewer-keys', 'list', '--account', ctx.accountId, '--json', '--data-dir', ctx.dir])).json.data,
      [],
    );
    const again = await svc([
      'viewer-keys',
      'delete',
      v.id,
      '--account',
      ctx.accountId,
      '--json',
      '--data-dir',
      ctx.dir,
    ]);
    assert.is.not(again.code, 0);
    assert.is(JSON.parse(again.stdout).error.code, 'not_found');

    const human = ok(await svc(['api-keys', 'create', '--account', ctx.accountId, '--data-dir', ctx.dir]));
    assert.match(human.stdout, /svc_live_/);
    assert.match(human.stdout, /shown only this once/);
  },
);

t('streams create / list / get / rotate-key / end through the HTTP API', async (ctx) => {
  const env = { SVC_DATA_DIR: ctx.dir, SVC_API_KEY: ctx.apiKey };
  const s = ok(
    await svc(['streams', 'create', '--name', 'Town hall', '--metadata', '{"event_id":"evt-42"}', '--json'], { env }),
  ).json;
  assert.match(s.id, /^str_[a-z0-9]{20}$/);
  assert.is(s.status, 'pending');
  assert.is(s.stream_key.split('?key=')[0], s.id);
  assert.equal(s.metadata, { event_id: 'evt-42' });
  assert.match(s.whip_url, /direction=whip/);
  // The publish page's address carries the same secret in its fragment.
  assert.is(
    s.publish_url,
    `${s.embed_url.replace(/\/str_[a-z0-9]{20}$/, '')}/publish/${s.id}#key=${new URL(s.whip_url).searchParams.get('key')}`,
  );
  ctx.streamId = s.id;
  ctx.streamKey = s.stream_key;

  const list = ok(await svc(['streams', 'list', '--status', 'pending', '--json'], { env })).json;
  assert.is(list.object, 'list');
  assert.equal(
    list.data.map((x: { id: string }) => x.id),
    [s.id],
  );

  // The key from the flag instead of the environment.
  const got = ok(await svc(['streams', 'get', s.id, '--json', '--api-key', ctx.apiKey, '--data-dir', ctx.dir])).json;
  assert.is(got.id, s.id);
  assert.is(got.stream_key, undefined, 'the key is not shown again');

  const rotated = ok(await svc(['streams', 'rotate-key', s.id], { env }));
  assert.match(rotated.stdout, new RegExp(`Stream Key\\s+${s.id}\\?key=`));
  assert.not.match(rotated.stdout, new RegExp(ctx.streamKey.replace('?', '\\?')));
  assert.match(rotated.stdout, /shown only this once/);

  const ended = ok(await svc(['streams', 'end', s.id, '--json'], { env })).json;
  assert.is(ended.status, 'cancelled');
});

t('an API error: one line with the code, non-zero; --json gives the API error document', async (ctx) => {
  const env = { SVC_DATA_DIR: ctx.dir, SVC_API_KEY: ctx.apiKey };
  const human = await svc(['streams', 'get', 'str_doesnotexist00000000'], { env });
  assert.is.not(human.code, 0);
  assert.is(human.stdout, '');
  assert.is(human.stderr.trim().split('\n').length, 1, human.stderr);
  assert.match(human.stderr, /not_found: /);

  const json = await svc(['streams', 'get', 'str_doesnotexist00000000', '--json'], { env });
  assert.is.not(json.code, 0);
  assert.is(json.json.error.code, 'not_found');
  assert.match(json.json.error.request_id, /^req_/);

  const noKey = await svc(['streams', 'list', '--json', '--data-dir', ctx.dir]);
  assert.is.not(noKey.code, 0);
  assert.is(noKey.json.error.code, 'unauthorized');
});

t('SIGHUP re-renders the nginx config and reloads it: same master, still healthy', async (ctx) => {
  const conf = join(ctx.dir, 'nginx', 'nginx.conf');
  const master = Number(readFileSync(join(ctx.dir, 'run', 'nginx.pid'), 'utf8'));
  writeFileSync(conf, '# damaged\n');
  process.kill(ctx.pid, 'SIGHUP');
  await waitFor('the config rendered again', async () => readFileSync(conf, 'utf8').includes('rtmp {'), 10_000);
  await sleep(500);
  assert.is(Number(readFileSync(join(ctx.dir, 'run', 'nginx.pid'), 'utf8')), master);
  const s = ok(await svc(['status', '--json', '--data-dir', ctx.dir])).json;
  assert.is(s.parts.nginx.healthy, true);
});

t(
  'PostgreSQL frozen (SIGSTOP) for a few seconds: status exits 1 naming postgres, the API answers 503; healthy again after SIGCONT',
  async (ctx) => {
    const postmaster = Number(readFileSync(join(ctx.dir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const pids = [postmaster, ...childrenOf(postmaster)];
    for (const pid of pids) process.kill(pid, 'SIGSTOP');
    try {
      await sleep(1600);
      const res = await svc(['status', '--json', '--data-dir', ctx.dir]);
      assert.is(res.code, 1, 'exit 1: running but unhealthy');
      assert.is(res.json.healthy, false);
      assert.is(res.json.parts.postgres.healthy, false);
      assert.is(res.json.parts.api.healthy, true, 'the API answers (503 naming the database)');
      const health = await fetch(`http://127.0.0.1:${ctx.ports.api}/healthz`);
      assert.is(health.status, 503);
      assert.equal(((await health.json()) as { parts: unknown }).parts, { database: 'down', ingest: 'ok' });
    } finally {
      for (const pid of pids) process.kill(pid, 'SIGCONT');
    }
    await waitFor(
      'healthy again',
      async () => (await svc(['status', '--json', '--data-dir', ctx.dir])).code === 0,
      10_000,
    );
  },
);

t('a publisher goes live on the appliance svc up started', async (ctx) => {
  const created = await fetch(`http://127.0.0.1:${ctx.ports.api}/v1/streams`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.apiKey}` },
  });
  const s = (await created.json()) as { id: string; stream_key: string; node_ready: boolean };
  assert.is(s.node_ready, true);
  const clip = await makeClip({ width: 320, height: 180, seconds: 6, gopSeconds: 1 });
  ctx.liveKey = s.stream_key;
  ctx.publisher = publish(`rtmp://127.0.0.1:${ctx.ports.rtmp}/live/${s.stream_key}`, clip, { loop: true });
  await waitFor('a ladder running', async () => processesOf(ctx.dir).some((cmd) => cmd.startsWith('ffmpeg')), 20_000);
});

t(
  'down stops everything, publisher connected, config.json damaged: no svc, nginx, ladder or PostgreSQL process of this data dir, no pid file',
  async (ctx) => {
    const configFile = join(ctx.dir, 'config.json');
    const config = readFileSync(configFile, 'utf8');
    writeFileSync(configFile, config.slice(0, config.length / 2));
    const res = ok(await svc(['down', '--data-dir', ctx.dir]));
    assert.match(res.stderr, /config\.json cannot be used \(.+\): stopping by the pid files under/);
    writeFileSync(configFile, config);
    assert.equal(processesOf(ctx.dir), [], 'no process of this data dir is left');
    assert.ok(
      await Promise.race([ctx.publisher.exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 5000))]),
      'the publisher was disconnected',
    );
    assert.match(res.stdout, new RegExp(`svc \\(pid ${ctx.pid}\\) stopped`));
    assert.is(isAlive(ctx.pid), false, 'the appliance process is gone');
    const cluster = new ManagedCluster({
      dir: join(ctx.dir, 'postgres'),
      port: ctx.ports.postgres,
      password: 'unused',
      logFile: join(ctx.dir, 'logs', 'postgres.log'),
    });
    assert.is(await cluster.running(), false, 'pg_ctl status: the managed cluster is stopped');
    assert.not.ok(existsSync(join(ctx.dir, 'run', 'svc.pid')));

    const stopped = await svc(['status', '--json', '--data-dir', ctx.dir]);
    assert.is(stopped.code, 3, 'exit 3: not running');
    const s = stopped.json;
    assert.is(s.running, false);
    assert.is(s.pid, null);
    assert.is(s.parts.api.healthy, false);
    assert.is(s.parts.postgres.healthy, false);

    const accounts = await svc(['accounts', 'list', '--data-dir', ctx.dir]);
    assert.is.not(accounts.code, 0);
    assert.match(accounts.stderr, /^Error: the appliance database is not running: start it with `svc up --detach/);

    const again = ok(await svc(['down', '--data-dir', ctx.dir]));
    assert.match(again.stdout, /svc is not running/);
  },
);

t('after kill -9 of svc up, down stops the nginx, ladder and PostgreSQL it left behind', async (ctx) => {
  const p = ctx.ports;
  const up = ok(await svc(['up', '--detach', '--no-install', '--data-dir', ctx.dir], { timeoutMs: 150_000 }));
  const pid = Number(/pid (\d+)/.exec(up.stdout)?.[1]);
  const clip = await makeClip({ width: 320, height: 180, seconds: 6, gopSeconds: 1 });
  // The stream that was live comes back within its reconnect window (the account may have one live).
  ctx.publisher = publish(`rtmp://127.0.0.1:${p.rtmp}/live/${ctx.liveKey}`, clip, { loop: true });
  await waitFor('a ladder running', async () => processesOf(ctx.dir).some((cmd) => cmd.startsWith('ffmpeg')), 20_000);
  process.kill(pid, 'SIGKILL');
  await waitFor('svc up gone', async () => !isAlive(pid), 5000);

  const res = ok(await svc(['down', '--data-dir', ctx.dir]));
  assert.match(res.stdout, /svc is not running/);
  assert.match(res.stdout, /stopped a PostgreSQL left running/);
  assert.equal(processesOf(ctx.dir), [], 'no process of this data dir is left');
});

t.run();
