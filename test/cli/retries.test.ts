import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { destination } from 'pino';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startAppliance, type RunningAppliance } from '../../src/composition/appliance.js';
import { resolveConfig, type Config } from '../../src/config/config.js';
import { systemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { AccountsService } from '../../src/domains/ledger/accounts/service.js';
import { connect } from '../../src/platform/db/connect.js';
import { managedCluster } from '../../src/platform/db/managed-cluster.js';
import { childrenOf } from '../../src/platform/process/proc.js';
import { openForTraversal } from '../../src/platform/system/users.js';
import { ok, svc } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { sleep } from '../helpers/streams.js';

/**
 * The CLI rides out an outage: 5xx answers and refused connections are retried with backoff
 * (Retry-After honoured) within --retry-seconds, progress on stderr; 4xx answers are never
 * retried, nor a POST that could act twice once it may have reached the server.
 */

const KEY = 'svc_live_test';

/** A loopback HTTP server answering from a script, counting what reaches it. */
async function scripted(
  port: number,
  answer: (req: IncomingMessage, res: ServerResponse, n: number) => void,
): Promise<{ server: Server; requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    req.resume();
    req.on('end', () => answer(req, res, requests.length));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, requests };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

const unavailable = (res: ServerResponse): void =>
  sendJson(
    res,
    503,
    {
      error: {
        code: 'service_unavailable',
        message: 'The database is not answering; retry shortly.',
        details: { retry_after_seconds: 1 },
        request_id: 'req_x',
      },
    },
    { 'retry-after': '1' },
  );

/** Resolves once a command's stderr (fed chunk by chunk) has matched `pattern`; CLI start-up times vary too much to sleep instead. */
function stderrLine(pattern: RegExp, timeoutMs = 60_000): { feed: (chunk: string) => void; seen: Promise<void> } {
  let text = '';
  let done: () => void = () => {};
  const seen = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`stderr never matched ${pattern}: ${text}`)), timeoutMs);
    done = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  return {
    feed: (chunk) => {
      text += chunk;
      if (pattern.test(text)) done();
    },
    seen,
  };
}

const close = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

const u = suite('cli: which failures the API client retries');

u('a 4xx is answered once: no retry, no progress line', async () => {
  const port = await freePort();
  const { server, requests } = await scripted(port, (_req, res) =>
    sendJson(res, 404, { error: { code: 'not_found', message: 'No such stream.', request_id: 'req_x' } }),
  );
  try {
    const res = await svc([
      'streams',
      'get',
      'str_nosuchstream0000000',
      '--base-url',
      `http://127.0.0.1:${port}`,
      '--api-key',
      KEY,
      '--json',
    ]);
    assert.is(res.code, 1);
    assert.is(res.json.error.code, 'not_found');
    assert.is(requests.length, 1);
    assert.not.match(res.stderr, /retrying/);
  } finally {
    await close(server);
  }
});

u(
  'a 503 with Retry-After on a read is retried after that wait; progress goes to stderr, stdout stays one JSON document',
  async () => {
    const port = await freePort();
    const times: number[] = [];
    const { server, requests } = await scripted(port, (_req, res, n) => {
      times.push(performance.now());
      if (n === 1) unavailable(res);
      else sendJson(res, 200, { object: 'list', data: [], has_more: false });
    });
    try {
      const res = ok(
        await svc(['streams', 'list', '--base-url', `http://127.0.0.1:${port}`, '--api-key', KEY, '--json']),
      );
      assert.equal(res.json, { object: 'list', data: [], has_more: false });
      assert.is(requests.length, 2);
      assert.ok(
        (times[1] as number) - (times[0] as number) >= 950,
        `waited ${Math.round((times[1] as number) - (times[0] as number))} ms of Retry-After: 1`,
      );
      assert.match(res.stderr, 'API answered 503 service_unavailable; retrying in 1 s (attempt 2/8)');
    } finally {
      await close(server);
    }
  },
);

u('a POST that could act twice is not retried after a 503, but is after a refused connection', async () => {
  const port = await freePort();
  const args = ['webhooks', 'test', 'whe_x', '--base-url', `http://127.0.0.1:${port}`, '--api-key', KEY, '--json'];
  const first = await scripted(port, (_req, res) => unavailable(res));
  try {
    const res = await svc(args);
    assert.is(res.code, 1);
    assert.is(res.json.error.code, 'service_unavailable');
    assert.is(first.requests.length, 1);
  } finally {
    await close(first.server);
  }
  // Nothing listens until the CLI has been refused once: the request never arrived and can be sent again.
  const refused = stderrLine(/cannot reach the API \(ECONNREFUSED\); retrying/);
  const running = svc(args, { onStderr: refused.feed });
  await refused.seen;
  const second = await scripted(port, (_req, res) => sendJson(res, 202, { object: 'webhook_delivery', id: 'whd_x' }));
  try {
    const res = ok(await running);
    assert.is(res.json.id, 'whd_x');
    assert.is(second.requests.length, 1);
    assert.match(res.stderr, /cannot reach the API \(ECONNREFUSED\); retrying in 1 s \(attempt 2\/8\)/, res.stderr);
  } finally {
    await close(second.server);
  }
});

u('--retry-seconds 0 turns retries off; streams create sends an Idempotency-Key of its own', async () => {
  const port = await freePort();
  const { server, requests } = await scripted(port, (_req, res) => unavailable(res));
  try {
    const res = await svc([
      'streams',
      'create',
      '--base-url',
      `http://127.0.0.1:${port}`,
      '--api-key',
      KEY,
      '--json',
      '--retry-seconds',
      '0',
    ]);
    assert.is(res.json.error.code, 'service_unavailable');
    assert.is(requests.length, 1);
    assert.match(String(requests[0]?.headers['idempotency-key']), /^cli_[a-z0-9]{24}$/);
  } finally {
    await close(server);
  }
});

u.run();

interface Ctx {
  dir: string;
  config: Config;
  running: RunningAppliance;
  key: string;
}
const t = suite<Ctx>('cli: a command started while the database is away succeeds once it is back');

t.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'svc-test-cli-retries-'));
  openForTraversal(ctx.dir);
  const [api, rtmp, cdn, player, postgres] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  // Its own managed cluster: the one this suite freezes (never the test run's shared one).
  ctx.config = resolveConfig(ctx.dir, {
    api_port: api,
    rtmp_port: rtmp,
    cdn_port: cdn,
    player_port: player,
    postgres_port: postgres,
    capacity: { cores: 1000 },
  });
  const secrets = { postgres_password: 'cli-retries-test', signing_key: 'test-signing-key', data_key: 'test-data-key' };
  const logger = createLogger(
    process.env.SVC_TEST_LOG_LEVEL ?? 'info',
    destination({ dest: join(ctx.dir, 'logs', 'svc.log'), mkdir: true, sync: true }),
  );
  ctx.running = await startAppliance({ config: ctx.config, secrets, logger, clock: systemClock });
  const setup = connect(managedCluster(ctx.config, secrets).url, { max: 1 });
  const accounts = new AccountsService(setup, systemClock);
  const account = await accounts.create({ name: 'CLI retries', creditUsd: '50' });
  ctx.key = (await accounts.createApiKey(account.id)).key;
  await setup.end();
});

t.after(async (ctx) => {
  await ctx.running?.stop();
  if (!process.env.SVC_TEST_KEEP) rmSync(ctx.dir, { recursive: true, force: true });
});

/** A backend listed as the postmaster's child may have exited since (a short-lived connection). */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

t(
  'streams create and streams list started during a freeze of PostgreSQL retry and succeed after it, creating one stream',
  async (ctx) => {
    const base = ['--base-url', ctx.config.publicUrls.base_url, '--api-key', ctx.key, '--json'];
    const postmaster = Number(
      readFileSync(join(ctx.config.dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
    );
    const pids = [postmaster, ...childrenOf(postmaster)];
    for (const pid of pids) signal(pid, 'SIGSTOP');
    let resumed = false;
    try {
      // The API answers 503 once its monitor has seen the database gone (about a second).
      for (let i = 0; ; i++) {
        const res = await fetch(`${ctx.config.publicUrls.base_url}/v1/streams`, {
          headers: { authorization: `Bearer ${ctx.key}` },
          signal: AbortSignal.timeout(10_000),
        });
        await res.text();
        if (res.status === 503) break;
        assert.ok(i < 50, 'the API never answered 503 while the database was frozen');
        await sleep(100);
      }
      const createRetried = stderrLine(/API answered 503 service_unavailable; retrying/);
      const listRetried = stderrLine(/API answered 503 service_unavailable; retrying/);
      const create = svc(['streams', 'create', '--name', 'During the outage', ...base], {
        onStderr: createRetried.feed,
      });
      const list = svc(['streams', 'list', ...base], { onStderr: listRetried.feed });
      await Promise.all([createRetried.seen, listRetried.seen]);
      await sleep(2000);
      for (const pid of pids) signal(pid, 'SIGCONT');
      resumed = true;
      const created = ok(await create);
      const listed = ok(await list);
      assert.match(created.json.id, /^str_/);
      assert.is(created.json.name, 'During the outage');
      assert.match(
        created.stderr,
        /API answered 503 service_unavailable; retrying in 5 s \(attempt 2\/8\)/,
        created.stderr,
      );
      assert.match(listed.stderr, /API answered 503 service_unavailable; retrying/, listed.stderr);
      assert.is(listed.json.object, 'list');
      const after = ok(await svc(['streams', 'list', ...base]));
      assert.equal(
        after.json.data.map((s: { id: string }) => s.id),
        [created.json.id],
      );
    } finally {
      if (!resumed) for (const pid of pids) signal(pid, 'SIGCONT');
    }
  },
);

t.run();
