import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeEdgeFiles } from '../../src/config/edge.js';
import { dataPaths } from '../../src/config/paths.js';
import { signatureSegment } from '../../src/domains/ledger/cdn/addresses.js';
import { isAlive } from '../../src/platform/process/proc.js';
import { startTestAppliance } from '../helpers/appliance.js';
import { makeDataDir, ok, svc } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { waitFor } from '../helpers/publisher.js';

/** `svc edge ...` as an operator runs them, the built CLI as a child process. */

const SECRET = 'cli-test-cdn-secret';
const STREAM = 'str_clitest0000000000001';

test('svc edge status and up on a data dir without an edge: edge_not_joined, saying how to join', async () => {
  const { dir, remove } = makeDataDir();
  try {
    for (const args of [
      ['edge', 'status'],
      ['edge', 'up', '--detach'],
    ]) {
      const res = await svc([...args, '--json', '--data-dir', dir]);
      assert.is(res.code, 1, res.stdout);
      assert.is(res.json.error.code, 'edge_not_joined');
      assert.match(res.json.error.message, /svc edge join/);
    }
  } finally {
    remove();
  }
});

test('svc edge join: an origin that does not answer is origin_unreachable; a URL with a path is refused; nothing is written', async () => {
  const { dir, remove } = makeDataDir();
  try {
    const closed = await freePort();
    const res = await svc([
      'edge',
      'join',
      `http://127.0.0.1:${closed}`,
      '--token',
      'ejt_x',
      '--json',
      '--data-dir',
      dir,
    ]);
    assert.is(res.code, 1);
    assert.is(res.json.error.code, 'origin_unreachable', res.stdout);
    const path = await svc(['edge', 'join', 'http://127.0.0.1:1/v1', '--token', 'ejt_x', '--json', '--data-dir', dir]);
    assert.is(path.json.error.code, 'invalid_usage', path.stdout);
    const status = await svc(['edge', 'status', '--json', '--data-dir', dir]);
    assert.is(status.json.error.code, 'edge_not_joined');
  } finally {
    remove();
  }
});

test('an edge whose origin is away: up --detach serves (403 for a forged address, 502 for what it never had), says the origin is unreachable once in its log, brings its killed nginx back, the next up adopts the nginx a killed edge left, and down stops it all', async () => {
  const { dir, remove } = makeDataDir();
  const [port, originApi, originCdn] = [await freePort(), await freePort(), await freePort()];
  try {
    writeEdgeFiles(
      dir,
      {
        edge_id: 'edg_clitest0000000000001',
        name: 'cli-edge',
        origin_api_url: `http://127.0.0.1:${originApi}`,
        origin_cdn_url: `http://127.0.0.1:${originCdn}`,
        listen_host: '127.0.0.1',
        cdn_port: port,
        heartbeat_seconds: 1,
        log_ship_seconds: 1,
      },
      { credential: 'edg_clitest0000000000001.mac', cdn_secret: SECRET, viewer_key: 'cli-test-viewer-key' },
    );
    const up = ok(await svc(['edge', 'up', '--detach', '--json', '--data-dir', dir], { timeoutMs: 120_000 }));
    assert.ok(up.json.running && up.json.parts.nginx.healthy, up.stdout);
    assert.is(up.json.parts.origin.reachable, false);

    const base = `http://127.0.0.1:${port}`;
    const signed = signatureSegment(SECRET, 'hls', STREAM, new Date(Date.now() + 600_000));
    const forged = `${'A'.repeat(22)}${signed.slice(22)}`;
    assert.is((await fetch(`${base}/${forged}/${STREAM}/master.m3u8`)).status, 403);
    assert.is((await fetch(`${base}/${signed}/${STREAM}/master.m3u8`)).status, 502, 'nothing cached, origin away');
    assert.is((await fetch(`${base}/anything`)).status, 403);

    // A few heartbeats fail: one warning, then quiet.
    await new Promise((r) => setTimeout(r, 4000));
    const status = await svc(['edge', 'status', '--json', '--data-dir', dir]);
    assert.is(status.code, 1, 'running, origin unreachable');
    assert.is(status.json.parts.origin.reachable, false);
    assert.ok(status.json.parts.origin.last_error, status.stdout);
    const log = readFileSync(dataPaths(dir).edgeLog, 'utf8');
    assert.is(log.split('the heartbeat to the origin failed; retrying quietly').length - 1, 1, 'one warning');

    // nginx killed: the edge starts it again.
    const pidFile = dataPaths(dir).nginxPid;
    const master = Number(readFileSync(pidFile, 'utf8'));
    process.kill(master, 'SIGKILL');
    await waitFor(
      'a new nginx answers',
      async () => {
        const again = Number(readFileSync(pidFile, 'utf8').trim() || 0);
        const health = await fetch(`${base}/healthz`).catch(() => null);
        return again !== master && health?.status === 200;
      },
      30_000,
    );

    // The edge process killed: the next up adopts the nginx it left (viewers keep their connections).
    const edgePid = Number(readFileSync(dataPaths(dir).edgePidFile, 'utf8'));
    const survivor = Number(readFileSync(pidFile, 'utf8'));
    process.kill(edgePid, 'SIGKILL');
    await waitFor('the edge is gone', async () => !isAlive(edgePid), 10_000);
    assert.is((await fetch(`${base}/healthz`)).status, 200, 'its nginx still serves');
    const again = ok(await svc(['edge', 'up', '--detach', '--json', '--data-dir', dir], { timeoutMs: 120_000 }));
    assert.ok(again.json.running && again.json.parts.nginx.healthy, again.stdout);
    assert.is(Number(readFileSync(pidFile, 'utf8')), survivor, 'the same nginx master, adopted');
    assert.match(readFileSync(dataPaths(dir).edgeLog, 'utf8'), /adopted the nginx an earlier start left running/);

    const down = ok(await svc(['edge', 'down', '--json', '--data-dir', dir]));
    assert.is(down.json.was_running, true);
    assert.is(down.json.killed, false);
    const after = await svc(['edge', 'status', '--json', '--data-dir', dir]);
    assert.is(after.code, 3, 'not running');
    assert.is(after.json.running, false);
    assert.is(
      await fetch(`${base}/healthz`).then(
        () => 'answers',
        () => 'refused',
      ),
      'refused',
    );
    assert.not.ok(isAlive(master));
    assert.not.ok(isAlive(survivor), 'down stopped the adopted nginx too');
  } finally {
    await svc(['edge', 'down', '--data-dir', dir]);
    remove();
  }
});

test('svc edge join against a real origin: joined and started detached, healthy once its heartbeat is answered; the token works once; down stops it', async () => {
  const app = await startTestAppliance();
  const { dir, remove } = makeDataDir();
  const other = makeDataDir();
  try {
    const added = await app.running.api.edges.add({ name: 'cli-joined', kind: 'edge' });
    const port = await freePort();
    const args = ['--token', added.join_token as string, '--listen-host', '127.0.0.1', '--cdn-port', String(port)];
    const joined = ok(
      await svc(['edge', 'join', app.config.publicUrls.base_url, ...args, '--json', '--data-dir', dir], {
        timeoutMs: 120_000,
      }),
    );
    assert.is(joined.json.joined.edge_id, added.edge.id);
    assert.is(joined.json.joined.name, 'cli-joined');
    assert.ok(joined.json.status.running && joined.json.status.parts.nginx.healthy, joined.stdout);
    await waitFor(
      'svc edge status says healthy',
      async () => (await svc(['edge', 'status', '--json', '--data-dir', dir])).code === 0,
      30_000,
      1000,
    );
    const again = await svc([
      'edge',
      'join',
      app.config.publicUrls.base_url,
      ...args,
      '--json',
      '--data-dir',
      other.dir,
    ]);
    assert.is(again.code, 1);
    assert.is(again.json.error.code, 'edge_join_refused', again.stdout);
    const twice = await svc(['edge', 'join', app.config.publicUrls.base_url, ...args, '--json', '--data-dir', dir]);
    assert.is(twice.json.error.code, 'edge_already_joined', twice.stdout);
    ok(await svc(['edge', 'down', '--json', '--data-dir', dir]));
  } finally {
    await svc(['edge', 'down', '--data-dir', dir]);
    remove();
    other.remove();
    await app.close();
  }
});

test.run();
