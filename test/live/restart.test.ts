import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connect } from '../../src/platform/db/connect.js';
import { parseMediaPlaylist } from '../../src/platform/media/playlist.js';
import { findProcesses, isAlive } from '../../src/platform/process/proc.js';
import { createEmptyDatabase, makeDataDir, svc, ok } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';

/**
 * The appliance as an operator runs it (`svc up --detach`, a real process), restarted under a
 * live stream: killed with SIGKILL, then stopped cleanly. What players see on the origin is read
 * every 100 ms the whole time: its sequences must never go back.
 */

interface Seen {
  mediaSequence: number;
  discontinuitySequence: number;
  text: string;
}

interface Ctx {
  dir: string;
  remove: () => void;
  dropDb: () => Promise<void>;
  dbUrl: string;
  api: number;
  rtmp: number;
  apiKey: string;
  streamId: string;
  streamKey: string;
  clip: string;
  publisher: Publisher;
  watcher: NodeJS.Timeout;
  seen: Seen[];
  /** Each time a sequence went down: before -> after. */
  backwards: string[];
}

const t = suite<Ctx>('appliance restarts mid-broadcast: kill -9 and svc down');

const ofDataDir = (dir: string, prefix: string) =>
  findProcesses((argv) => argv.join(' ').includes(dir) && argv.join(' ').startsWith(prefix));
/** Ladders only: a thumbnail's short ffmpeg also names the data dir, but writes no HLS. */
const laddersOf = (dir: string) =>
  findProcesses(
    (argv) =>
      (argv[0] ?? '').endsWith('ffmpeg') && argv.join(' ').includes(dir) && argv.includes('-hls_segment_filename'),
  );
const svcPid = (dir: string) => Number(readFileSync(join(dir, 'run', 'svc.pid'), 'utf8'));
const nginxPid = (dir: string) => Number(readFileSync(join(dir, 'run', 'nginx.pid'), 'utf8'));
const last = (ctx: Ctx): Seen => ctx.seen.at(-1) as Seen;
const exitedWithin = (p: Publisher, ms: number) =>
  Promise.race([p.exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

async function up(ctx: Ctx): Promise<void> {
  ok(await svc(['up', '--detach', '--data-dir', ctx.dir], { timeoutMs: 60_000 }));
}

async function stream(ctx: Ctx): Promise<{ status: string }> {
  const res = await fetch(`http://127.0.0.1:${ctx.api}/v1/streams/${ctx.streamId}`, {
    headers: { authorization: `Bearer ${ctx.apiKey}` },
  });
  return (await res.json()) as { status: string };
}

/** Waits until the origin's top playlist is past `seq` (new segments were published). */
const publishedPast = (ctx: Ctx, seq: number, what: string) =>
  waitFor(what, async () => ctx.seen.length > 0 && last(ctx).mediaSequence > seq, 30_000, 100);

t.before(async (ctx) => {
  Object.assign(ctx, makeDataDir());
  const db = await createEmptyDatabase();
  ctx.dbUrl = db.url;
  ctx.dropDb = db.drop;
  ctx.api = await freePort();
  ctx.rtmp = await freePort();
  const ports = [
    '--api-port',
    `${ctx.api}`,
    '--rtmp-port',
    `${ctx.rtmp}`,
    '--cdn-port',
    `${await freePort()}`,
    '--player-port',
    `${await freePort()}`,
  ];
  ok(await svc(['init', '--data-dir', ctx.dir, '--database-url', db.url, '--no-install', ...ports]));
  // Short segments and windows keep the test short; the window is long enough that no end interferes.
  const file = join(ctx.dir, 'config.json');
  const config = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(
    file,
    JSON.stringify(
      { ...config, live: { segment_seconds: 1, window_segments: 3, sample_seconds: 1, reconnect_window_seconds: 60 } },
      null,
      2,
    ),
  );
  await up(ctx);
  const account = ok(
    await svc(['accounts', 'create', '--name', 'Restart', '--credit', '50', '--json', '--data-dir', ctx.dir]),
  ).json;
  ctx.apiKey = ok(await svc(['api-keys', 'create', '--account', account.id, '--json', '--data-dir', ctx.dir])).json.key;
  const created = await fetch(`http://127.0.0.1:${ctx.api}/v1/streams`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.apiKey}` },
  });
  const s = (await created.json()) as { id: string; stream_key: string };
  ctx.streamId = s.id;
  ctx.streamKey = s.stream_key;
  ctx.clip = await makeClip({ width: 320, height: 240, seconds: 6, gopSeconds: 1 });

  ctx.seen = [];
  ctx.backwards = [];
  const playlist = join(ctx.dir, 'media', 'origin', s.id, 'source.m3u8');
  ctx.watcher = setInterval(() => {
    if (!existsSync(playlist)) return;
    const text = readFileSync(playlist, 'utf8');
    const p = parseMediaPlaylist(text);
    const now = { mediaSequence: p.mediaSequence, discontinuitySequence: p.discontinuitySequence, text };
    const prev = ctx.seen.at(-1);
    if (prev && (now.mediaSequence < prev.mediaSequence || now.discontinuitySequence < prev.discontinuitySequence)) {
      ctx.backwards.push(
        `${prev.mediaSequence}/${prev.discontinuitySequence} -> ${now.mediaSequence}/${now.discontinuitySequence}`,
      );
    }
    if (!prev || prev.text !== text) ctx.seen.push(now);
  }, 100);
});

t.after(async (ctx) => {
  clearInterval(ctx.watcher);
  await ctx.publisher?.kill();
  await svc(['down', '--data-dir', ctx.dir]);
  await ctx.dropDb();
  ctx.remove();
});

t(
  'kill -9 of svc up: the ladder dies with it; nginx and its publisher stay; the next svc up adopts nginx and the playlists continue',
  async (ctx) => {
    ctx.publisher = publish(`rtmp://127.0.0.1:${ctx.rtmp}/live/${ctx.streamKey}`, ctx.clip, { loop: true });
    await publishedPast(ctx, 0, 'a sliding window on the origin');
    const pid = svcPid(ctx.dir);
    const master = nginxPid(ctx.dir);
    assert.is(laddersOf(ctx.dir).length, 1, 'one ladder runs');

    process.kill(pid, 'SIGKILL');
    await waitFor('svc up gone', async () => !isAlive(pid), 5000, 50);
    await waitFor('no ladder left', async () => laddersOf(ctx.dir).length === 0, 3000, 50);
    assert.ok(isAlive(master), 'nginx outlives the appliance');
    const before = last(ctx);

    await up(ctx);
    assert.equal(ofDataDir(ctx.dir, 'nginx: master'), [master], 'exactly one nginx master: the adopted one');
    await publishedPast(ctx, before.mediaSequence, 'new segments after the restart');
    assert.is(await exitedWithin(ctx.publisher, 0), false, 'the publisher was never disconnected');
    assert.is(laddersOf(ctx.dir).length, 1, 'one ladder again');
    assert.ok(
      last(ctx).discontinuitySequence > before.discontinuitySequence || last(ctx).text.includes('#EXT-X-DISCONTINUITY'),
      'the restart is a discontinuity',
    );
    assert.is((await stream(ctx)).status, 'live');
    assert.equal(ctx.backwards, [], 'no sequence went back');
  },
);

t('svc down, svc up: the publisher reconnects and the playlists continue where they were', async (ctx) => {
  ok(await svc(['down', '--data-dir', ctx.dir]));
  assert.ok(await exitedWithin(ctx.publisher, 5000), 'nginx stopped: the publisher was disconnected');
  const before = last(ctx);
  await up(ctx);
  ctx.publisher = publish(`rtmp://127.0.0.1:${ctx.rtmp}/live/${ctx.streamKey}`, ctx.clip, { loop: true });
  await publishedPast(ctx, before.mediaSequence, 'new segments after the reconnect');
  assert.ok(
    last(ctx).discontinuitySequence > before.discontinuitySequence || last(ctx).text.includes('#EXT-X-DISCONTINUITY'),
  );
  assert.is((await stream(ctx)).status, 'live', 'one broadcast: the stream stayed live');
  assert.equal(ctx.backwards, [], 'no sequence went back');
});

t(
  'the reconnect window starts when the publisher left while the appliance was down, not when it came back',
  async (ctx) => {
    const pid = svcPid(ctx.dir);
    process.kill(pid, 'SIGKILL');
    await waitFor('svc up gone', async () => !isAlive(pid), 5000, 50);
    await ctx.publisher.kill();
    const leftAt = Date.now();
    await new Promise((r) => setTimeout(r, 4000));
    const restartedAt = Date.now();
    await up(ctx);
    const sql = connect(ctx.dbUrl, { max: 1 });
    try {
      const recorded = await waitFor(
        'publisher_left_at',
        async () => {
          const [row] = await sql<
            { publisher_left_at: Date | null }[]
          >`select publisher_left_at from streams where id = ${ctx.streamId}`;
          return row?.publisher_left_at ?? null;
        },
        15_000,
      );
      assert.ok(
        Math.abs(recorded.getTime() - leftAt) < 1500,
        `left at ${recorded.toISOString()}, the publisher was killed at ${new Date(leftAt).toISOString()}`,
      );
      assert.ok(recorded.getTime() < restartedAt - 2000, 'not when the appliance noticed');
    } finally {
      await sql.end();
    }
    assert.equal(ctx.backwards, [], 'no sequence went back');
  },
);

t.run();
