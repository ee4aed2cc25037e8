import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import * as assert from 'uvu/assert';
import { createLogger } from '../../src/core/logger.js';
import { MarkerFolder } from '../../src/platform/system/marker-folder.js';
import { PublicRefusalKeeper } from '../../src/domains/streams/public-playback.js';
import { connect } from '../../src/platform/db/connect.js';
import { apiSuite, type TestApi } from '../helpers/api.js';
import { waitFor } from '../helpers/publisher.js';
import { createStream, goLive } from '../helpers/streams.js';

/**
 * The rebuild of nginx's refusal files (the real database and folder; nginx's side is in
 * test/playback/public-address-later.test.ts): it refuses what the embed read closes, by settings,
 * by time and by watch minutes, touches only what differs, and outlives a database that is away.
 */
const t = apiSuite('streams: public refusals rebuilt from the database', {
  limits: { new: { pending_streams: 50, creations_per_hour: 500 } },
});

function memoryLogger() {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n'))
        if (line.trim()) lines.push(JSON.parse(line) as { level: number; msg: string });
      done();
    },
  });
  return { logger: createLogger('info', stream), lines };
}

const keeperOf = (
  env: TestApi,
  dir: string,
  opts: { sql?: TestApi['db']['sql']; logger?: ReturnType<typeof memoryLogger>['logger']; everyMs?: number } = {},
) =>
  new PublicRefusalKeeper({
    sql: opts.sql ?? env.db.sql,
    clock: env.clock,
    logger: opts.logger ?? createLogger('silent'),
    refusals: new MarkerFolder(dir),
    viewers: env.api.viewers,
    everyMs: opts.everyMs,
  });

t(
  'refused: switched off, members-only, past closed_at, out of watch minutes; not: open, closed_at ahead, minutes left, finished',
  async ({ env, key, accountId }) => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-test-refused-'));
    const inSeconds = (s: number) => new Date(env.clock.now().getTime() + s * 1000).toISOString();
    const off = await createStream(env, key, { player: { enabled: false } });
    const members = await createStream(env, key, { player: { require_viewer_token: true } });
    const later = await createStream(env, key, { player: { closed_at: inSeconds(300) } });
    const limited = await createStream(env, key, { player: { watch_minutes_limit: 1 } });
    const open = await createStream(env, key);
    const finished = await createStream(env, key, { player: { enabled: false } });
    assert.is((await env.call('DELETE', `/v1/streams/${finished.id}`, { key })).status, 200);
    await goLive(env, accountId, limited.id);
    writeFileSync(join(dir, 'str_gone00000000000000000'), '');
    const keeper = keeperOf(env, dir);

    const refused = () => readdirSync(dir).sort();
    assert.is(await keeper.reconcile(), 2);
    assert.equal(refused(), [off.id, members.id].sort(), 'a file of no refused stream goes');

    // Two households watch for a minute and a half: the limit's figure leaves the larger one out.
    const beat = (id: string, address: string) =>
      env.call('POST', `/v1/embed/${limited.id}/beat?s=${id}&st=p&u=0.01`, { headers: { 'x-forwarded-for': address } });
    for (let second = 0; second < 90; second += 5) {
      if (second % 15 === 0)
        for (const address of ['198.51.100.51', '198.51.100.52'])
          for (let i = 0; i < 2; i++) assert.is((await beat(`home-${address.slice(-2)}-${i}`, address)).status, 204);
      env.api.counter.sample();
      env.clock.advance(5);
    }
    assert.is((await env.call('GET', `/v1/embed/${limited.id}`)).body.status, 'closed');
    const before = statSync(join(dir, off.id)).mtimeMs;
    await keeper.reconcile();
    assert.equal(refused(), [off.id, members.id, limited.id].sort());

    env.clock.advance(300);
    assert.is(await keeper.reconcile(), 4);
    assert.equal(refused(), [off.id, members.id, limited.id, later.id].sort());
    assert.not.ok(refused().includes(open.id));
    assert.is(statSync(join(dir, off.id)).mtimeMs, before, 'a file already right is not written again');
    rmSync(dir, { recursive: true, force: true });
  },
);

t('a rebuild that fails (the database away) is logged once and the next tick rebuilds', async ({ env, key }) => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-refused-'));
  const off = await createStream(env, key, { player: { enabled: false } });
  // The monitor's verdict "away" makes every new connection fail at once, as a killed server does.
  let up = false;
  const sql = connect(env.db.url, { max: 2, available: () => up });
  const { logger, lines } = memoryLogger();
  const stop = keeperOf(env, dir, { sql, logger, everyMs: 50 }).start();
  try {
    await waitFor('failed ticks', async () => lines.length > 0 && (await new Promise((r) => setTimeout(r, 300, true))));
    assert.equal(readdirSync(dir), []);
    assert.equal(
      lines.map((l) => l.msg),
      ['public refusals wait for the database'],
      'logged once per outage',
    );
    up = true;
    await waitFor('the rebuild after the outage', async () => readdirSync(dir).includes(off.id), 5000, 50);
    await waitFor('its log line', async () => lines.some((l) => l.msg === 'public refusals rebuilt again'), 2000, 50);
  } finally {
    await stop();
    await sql.end({ timeout: 5 });
    rmSync(dir, { recursive: true, force: true });
  }
});

t.run();
