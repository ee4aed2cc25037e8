import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { deliveredBytes } from '../../src/domains/ledger/cdnlog/queries.js';
import { connect } from '../../src/platform/db/connect.js';
import { fetchFrom, watchStream, type Received } from '../helpers/cdn-viewer.js';
import { createEmptyDatabase, makeDataDir, svc, ok } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';

/**
 * `svc up --detach` killed with SIGKILL again and again while players watch and the CDN log
 * reader reads (every second) and rotates (every 4 KB): after each restart it goes on from its
 * position, and at the end every byte the players received is counted once.
 */
test('kill -9 of the appliance while it reads and rotates the CDN log: totals exact after the restarts', async () => {
  const { dir, remove } = makeDataDir();
  const db = await createEmptyDatabase();
  const sql = connect(db.url, { max: 2 });
  const api = await freePort();
  const rtmp = await freePort();
  let publisher: Publisher | undefined;
  const players: ReturnType<typeof watchStream>[] = [];
  try {
    const ports = [
      '--api-port',
      `${api}`,
      '--rtmp-port',
      `${rtmp}`,
      '--cdn-port',
      `${await freePort()}`,
      '--player-port',
      `${await freePort()}`,
    ];
    ok(await svc(['init', '--data-dir', dir, '--database-url', db.url, '--no-install', ...ports]));
    const file = join(dir, 'config.json');
    const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(
      file,
      JSON.stringify({
        ...config,
        live: { segment_seconds: 1, window_segments: 3, reconnect_window_seconds: 60 },
        cdn: { log_read_seconds: 1, country_table: { '127.0.0.2': 'DE' } },
        logs: { max_bytes: 4096 },
      }),
    );
    ok(await svc(['up', '--detach', '--data-dir', dir], { timeoutMs: 60_000 }));
    const account = ok(
      await svc(['accounts', 'create', '--name', 'Kill', '--credit', '50', '--json', '--data-dir', dir]),
    ).json;
    const key = ok(await svc(['api-keys', 'create', '--account', account.id, '--json', '--data-dir', dir])).json
      .key as string;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const created = (await (
      await fetch(`http://127.0.0.1:${api}/v1/streams`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ profile: 'passthrough' }),
      })
    ).json()) as { id: string; stream_key: string; playback_url: string };
    publisher = publish(
      `rtmp://127.0.0.1:${rtmp}/live/${created.stream_key}`,
      await makeClip({ width: 320, height: 240, seconds: 6, gopSeconds: 1 }),
      { loop: true },
    );
    // Every fetch through the CDN is tallied, this one too.
    const probes: Received = { bytes: 0, requests: 0, segments: 0 };
    await waitFor(
      'segments on the CDN',
      async () =>
        (
          await fetchFrom(
            created.playback_url.replace('master.m3u8', 'source.m3u8'),
            { localAddress: '127.0.0.1', userAgent: 'probe' },
            probes,
          )
        ).status === 200,
      60_000,
    );

    for (const [i, address] of ['127.0.0.1', '127.0.0.2'].entries())
      players.push(watchStream(created.playback_url, { localAddress: address, userAgent: `player-${i}` }));
    for (let kill = 0; kill < 3; kill++) {
      await new Promise((r) => setTimeout(r, 2000 + Math.random() * 3000));
      process.kill(Number(readFileSync(join(dir, 'run', 'svc.pid'), 'utf8')), 'SIGKILL');
      await new Promise((r) => setTimeout(r, 500));
      ok(await svc(['up', '--detach', '--data-dir', dir], { timeoutMs: 60_000 }));
    }
    await new Promise((r) => setTimeout(r, 3000));
    let expected = probes.bytes;
    for (const p of players) expected += (await p.stop()).bytes;
    players.length = 0;
    assert.ok(expected > 0);
    await waitFor('the CDN log read', async () => (await deliveredBytes(sql, created.id)) >= expected, 30_000);
    await new Promise((r) => setTimeout(r, 2500));
    assert.is(await deliveredBytes(sql, created.id), expected, 'every byte once, however the kills fell');
    // logs.max_bytes rotates svc.log too (at each start), so the line may be in a rotated copy.
    const logs = readdirSync(join(dir, 'logs')).filter((f) => /^svc\.log(\.\d+)?$/.test(f));
    const log = logs.map((f) => readFileSync(join(dir, 'logs', f), 'utf8')).join('\n');
    assert.ok(log.includes('CDN log rotated'), `rotations happened (${logs.join(', ')})`);
  } finally {
    for (const p of players) await p.stop();
    await publisher?.kill();
    await svc(['down', '--data-dir', dir]);
    await sql.end();
    await db.drop();
    remove();
  }
});

test.run();
