import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseMediaPlaylist } from '../../src/platform/media/playlist.js';
import { findProcesses, isAlive } from '../../src/platform/process/proc.js';
import { makeDataDir, svc, ok } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';
import { Receiver } from '../helpers/receiver.js';

/**
 * The fault suite: the appliance as an operator runs it (`svc up --detach`, its own PostgreSQL
 * cluster), one live broadcast and a webhook receiver, and one fault at a time injected for
 * real — kill -9 of the ladder, of nginx, of PostgreSQL and of `svc up` itself, and a receiver
 * outage. Watched the whole time: the origin playlists (sequences never go back), the API
 * (nothing but 200, or 503 with Retry-After during an outage, never a hang) and the receiver.
 * At the end: one broadcast, one recording as long as what was published (±1 s per fault),
 * every event delivered exactly once, and nothing of the data dir left running after `svc down`.
 */

interface Fault {
  name: string;
  /** Seconds from the fault to the first new segment, or to the API answering again. */
  recoverySeconds: number;
  /** Longest time between two new segments on the origin around the fault. */
  hlsGapSeconds: number;
  unavailable: number;
  bad5xx: number;
}

interface Ctx {
  dir: string;
  remove: () => void;
  api: number;
  rtmp: number;
  apiKey: string;
  streamId: string;
  streamKey: string;
  clip: string;
  receiver: Receiver;
  endpointSecret: string;
  publishers: Publisher[];
  publishing: boolean;
  timers: NodeJS.Timeout[];
  /** Wall time of each change of the origin's source playlist. */
  segmentsAt: number[];
  backwards: string[];
  lastSeen: { media: number; disc: number } | null;
  /** API answers: [wall ms, status, had Retry-After]. */
  answers: [number, number, boolean][];
  hung: number;
  faults: Fault[];
  /** Index of the first receiver request the outage refused (the three from there got 503). */
  refusedFrom: number;
}

const t = suite<Ctx>('faults: kill -9 of every part under a live broadcast');

const pidFile = (file: string) => Number(readFileSync(file, 'utf8').split('\n')[0]);
const ofDataDir = (dir: string, prefix: string) =>
  findProcesses((argv) => argv.join(' ').includes(dir) && argv.join(' ').startsWith(prefix));
/** Ladders only: a thumbnail's short ffmpeg also names the data dir, but writes no HLS. */
const laddersOf = (dir: string) =>
  findProcesses(
    (argv) =>
      (argv[0] ?? '').endsWith('ffmpeg') && argv.join(' ').includes(dir) && argv.includes('-hls_segment_filename'),
  );

async function call(
  ctx: Ctx,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`http://127.0.0.1:${ctx.api}${path}`, {
    method,
    headers: { authorization: `Bearer ${ctx.apiKey}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** A publisher that comes back whenever it is dropped, as OBS does. */
function keepPublishing(ctx: Ctx): void {
  const start = () => {
    if (!ctx.publishing) return;
    const p = publish(`rtmp://127.0.0.1:${ctx.rtmp}/live/${ctx.streamKey}`, ctx.clip, { loop: true });
    ctx.publishers.push(p);
    void p.exited.then(() => setTimeout(start, 500));
  };
  start();
}

/** Requests the receiver answered 200: all but the three the outage refused. */
const delivered = (ctx: Ctx) =>
  ctx.receiver.on('/faults').filter((_, i) => ctx.refusedFrom < 0 || i < ctx.refusedFrom || i >= ctx.refusedFrom + 3);
const idOf = (r: { headers: Record<string, unknown> }) => String(r.headers['webhook-id']);
const typeOf = (r: { body: string }) => (JSON.parse(r.body) as { type: string }).type;

const publishedSeconds = (ctx: Ctx) => ctx.publishers.reduce((sum, p) => sum + p.sentSeconds(), 0);
const newSegmentAfter = (ctx: Ctx, at: number, timeoutMs = 30_000) =>
  waitFor('a new segment on the origin', async () => ctx.segmentsAt.find((s) => s > at), timeoutMs, 50);

function summarise(ctx: Ctx, name: string, at: number, recoveredAt: number): Fault {
  const times = ctx.segmentsAt.filter((s) => s >= at - 10_000 && s <= recoveredAt + 5_000);
  let gap = 0;
  for (let i = 1; i < times.length; i++) gap = Math.max(gap, (times[i] as number) - (times[i - 1] as number));
  const during = ctx.answers.filter(([w]) => w >= at && w <= recoveredAt + 5_000);
  const fault: Fault = {
    name,
    recoverySeconds: (recoveredAt - at) / 1000,
    hlsGapSeconds: gap / 1000,
    unavailable: during.filter(([, s, retry]) => s === 503 && retry).length,
    bad5xx: during.filter(([, s, retry]) => s >= 500 && !(s === 503 && retry)).length,
  };
  ctx.faults.push(fault);
  return fault;
}

t.before(async (ctx) => {
  Object.assign(ctx, makeDataDir());
  Object.assign(ctx, {
    publishers: [],
    publishing: true,
    timers: [],
    segmentsAt: [],
    backwards: [],
    lastSeen: null,
    answers: [],
    hung: 0,
    faults: [],
    refusedFrom: -1,
  });
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
    '--postgres-port',
    `${await freePort()}`,
  ];
  // Its own PostgreSQL cluster (no --database-url): the one this suite kills.
  ok(
    await svc(['init', '--data-dir', ctx.dir, '--no-install', '--allow-private-webhooks', ...ports], {
      timeoutMs: 120_000,
    }),
  );
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
  ok(await svc(['up', '--detach', '--data-dir', ctx.dir], { timeoutMs: 120_000 }));
  const account = ok(
    await svc(['accounts', 'create', '--name', 'Faults', '--credit', '50', '--json', '--data-dir', ctx.dir]),
  ).json;
  ctx.apiKey = ok(await svc(['api-keys', 'create', '--account', account.id, '--json', '--data-dir', ctx.dir])).json.key;

  ctx.receiver = await Receiver.start();
  const endpoint = await call(ctx, 'POST', '/v1/webhooks', { url: ctx.receiver.url('/faults') });
  assert.is(endpoint.status, 201, JSON.stringify(endpoint.body));
  ctx.endpointSecret = endpoint.body.secret as string;
  ctx.receiver.expectSecrets('/faults', ctx.endpointSecret);

  const created = await call(ctx, 'POST', '/v1/streams', { name: 'faults' });
  ctx.streamId = created.body.id as string;
  ctx.streamKey = created.body.stream_key as string;
  ctx.clip = await makeClip({ width: 320, height: 240, seconds: 6, gopSeconds: 1 });

  const playlist = join(ctx.dir, 'media', 'origin', ctx.streamId, 'source.m3u8');
  let lastText = '';
  ctx.timers.push(
    setInterval(() => {
      if (!existsSync(playlist)) return;
      const text = readFileSync(playlist, 'utf8');
      if (text === lastText) return;
      lastText = text;
      const p = parseMediaPlaylist(text);
      const prev = ctx.lastSeen;
      if (prev && (p.mediaSequence < prev.media || p.discontinuitySequence < prev.disc))
        ctx.backwards.push(`${prev.media}/${prev.disc} -> ${p.mediaSequence}/${p.discontinuitySequence}`);
      ctx.lastSeen = { media: p.mediaSequence, disc: p.discontinuitySequence };
      ctx.segmentsAt.push(Date.now());
    }, 50),
  );
  let asking = false;
  ctx.timers.push(
    setInterval(() => {
      if (asking) return;
      asking = true;
      fetch(`http://127.0.0.1:${ctx.api}/v1/streams/${ctx.streamId}`, {
        headers: { authorization: `Bearer ${ctx.apiKey}` },
        signal: AbortSignal.timeout(3000),
      })
        .then(async (res) => {
          await res.arrayBuffer();
          ctx.answers.push([Date.now(), res.status, res.headers.has('retry-after')]);
        })
        // Connection refused while `svc up` is down is an outage of the whole process, not an answer; a timeout is a hang.
        .catch((err: Error) => {
          if (err.name === 'TimeoutError') ctx.hung++;
        })
        .finally(() => (asking = false));
    }, 250),
  );
  keepPublishing(ctx);
  await waitFor(
    'the stream live and segments published',
    async () =>
      ctx.segmentsAt.length >= 3 && (await call(ctx, 'GET', `/v1/streams/${ctx.streamId}`)).body.status === 'live',
    30_000,
  );
});

t.after(async (ctx) => {
  ctx.publishing = false;
  for (const timer of ctx.timers) clearInterval(timer);
  for (const p of ctx.publishers) await p.kill();
  await svc(['down', '--data-dir', ctx.dir]);
  await ctx.receiver?.close();
  if (ctx.faults.length) {
    console.log('\n  fault                      recovery s  HLS gap s  503+Retry-After  other 5xx');
    for (const f of ctx.faults)
      console.log(
        `  ${f.name.padEnd(26)} ${f.recoverySeconds.toFixed(1).padStart(10)} ${f.hlsGapSeconds.toFixed(1).padStart(10)} ${String(f.unavailable).padStart(16)} ${String(f.bad5xx).padStart(10)}`,
      );
  }
  ctx.remove();
});

t('kill -9 of the ladder: restarted, segments continue within 10 s, the publisher is not touched', async (ctx) => {
  const ladders = laddersOf(ctx.dir);
  assert.is(ladders.length, 1, 'one ladder runs');
  const publishersBefore = ctx.publishers.length;
  const at = Date.now();
  process.kill(ladders[0] as number, 'SIGKILL');
  const recovered = await newSegmentAfter(ctx, at + 1500);
  const f = summarise(ctx, 'ladder ffmpeg', at, recovered);
  assert.ok(f.recoverySeconds < 10, `recovered in ${f.recoverySeconds} s`);
  assert.is(ctx.publishers.length, publishersBefore, 'the publisher stayed connected');
});

t('kill -9 of nginx: restarted, the publisher reconnects, segments continue within 10 s', async (ctx) => {
  const master = pidFile(join(ctx.dir, 'run', 'nginx.pid'));
  const at = Date.now();
  process.kill(master, 'SIGKILL');
  await waitFor(
    'a new nginx master',
    async () => {
      try {
        const pid = pidFile(join(ctx.dir, 'run', 'nginx.pid'));
        return pid !== master && isAlive(pid);
      } catch {
        return false;
      }
    },
    10_000,
    50,
  );
  const recovered = await newSegmentAfter(ctx, at + 1500);
  const f = summarise(ctx, 'nginx master', at, recovered);
  assert.ok(f.recoverySeconds < 10, `recovered in ${f.recoverySeconds} s`);
  assert.is(ofDataDir(ctx.dir, 'nginx: master').length, 1, 'one nginx master');
  // The new nginx tells a media playlist's age again (njs; the hosted player's start).
  const read = await call(ctx, 'GET', `/v1/streams/${ctx.streamId}`);
  const media = await fetch(String(read.body.playback_url).replace(/master\.m3u8$/, 'source.m3u8'));
  await media.text();
  assert.is(media.status, 200);
  const age = media.headers.get('x-playlist-age');
  assert.ok(age !== null && Number(age) >= 0 && Number(age) < 10, `X-Playlist-Age ${age}`);
});

t(
  'kill -9 of PostgreSQL: 503 with Retry-After while it is away, restarted, the API answers again within 10 s',
  async (ctx) => {
    const postmaster = pidFile(join(ctx.dir, 'postgres', 'postmaster.pid'));
    const at = Date.now();
    process.kill(postmaster, 'SIGKILL');
    const recovered = await waitFor(
      'the API answering 200 again after an outage',
      async () => {
        const since = ctx.answers.filter(([w]) => w > at);
        const firstDown = since.findIndex(([, s]) => s !== 200);
        if (firstDown < 0) return false;
        return since.slice(firstDown).find(([, s]) => s === 200)?.[0];
      },
      30_000,
      100,
    );
    const f = summarise(ctx, 'PostgreSQL postmaster', at, recovered);
    assert.ok(f.unavailable > 0, 'the outage answered 503 with Retry-After');
    assert.is(f.bad5xx, 0, 'no other 5xx');
    assert.ok(f.recoverySeconds < 15, `the API answered again ${f.recoverySeconds} s after the kill`);
    await newSegmentAfter(ctx, recovered);
  },
);

t('kill -9 of svc up: the next svc up adopts nginx; the publisher stays; the playlists continue', async (ctx) => {
  const pid = pidFile(join(ctx.dir, 'run', 'svc.pid'));
  const publishersBefore = ctx.publishers.length;
  const at = Date.now();
  process.kill(pid, 'SIGKILL');
  await waitFor('svc up gone', async () => !isAlive(pid), 5000, 50);
  ok(await svc(['up', '--detach', '--data-dir', ctx.dir], { timeoutMs: 120_000 }));
  const recovered = await newSegmentAfter(ctx, Date.now());
  const f = summarise(ctx, 'svc up (the appliance)', at, recovered);
  assert.ok(f.recoverySeconds < 20, `segments again ${f.recoverySeconds} s after the kill (restart included)`);
  assert.is(ctx.publishers.length, publishersBefore, 'the publisher was not cut by the restart');
  assert.is(ofDataDir(ctx.dir, 'nginx: master').length, 1, 'one nginx master');
});

t('a receiver outage: the events are retried and arrive once', async (ctx) => {
  const at = Date.now();
  const before = ctx.receiver.on('/faults').length;
  ctx.receiver.script('/faults', { status: 503 }, { status: 503 }, { status: 503 });
  const ended = await call(ctx, 'DELETE', `/v1/streams/${ctx.streamId}`);
  assert.is(ended.status, 200);
  ctx.publishing = false;
  ctx.refusedFrom = before;
  await waitFor(
    'the recording ready',
    async () => {
      const s = await call(ctx, 'GET', `/v1/streams/${ctx.streamId}`);
      return (s.body.recording as { status: string } | null)?.status === 'ready' && s.body;
    },
    60_000,
    500,
  );
  const recovered = await waitFor(
    'stream.ended and recording.ready delivered, and every refused event delivered after the outage',
    async () => {
      const done = delivered(ctx);
      const attempted = new Set(ctx.receiver.on('/faults').map(idOf));
      const types = done.map(typeOf);
      return (
        types.includes('stream.ended') &&
        types.includes('recording.ready') &&
        new Set(done.map(idOf)).size === attempted.size &&
        Date.now()
      );
    },
    60_000,
    250,
  );
  summarise(ctx, 'webhook receiver', at, recovered);
});

t(
  'one broadcast, a recording as long as what was published, every event once, no 5xx but 503, no hang',
  async (ctx) => {
    const stream = await call(ctx, 'GET', `/v1/streams/${ctx.streamId}`);
    assert.is(stream.body.status, 'ended');
    assert.is(stream.body.end_reason, 'deleted', 'one broadcast: ended by the DELETE, not by a fault');
    const recording = stream.body.recording as { duration_seconds: number };
    const published = publishedSeconds(ctx);
    const mediaFaults = 4;
    console.log(
      `\n  recording ${recording.duration_seconds} s, published ${published.toFixed(1)} s by ${ctx.publishers.length} publisher sessions`,
    );
    assert.ok(
      Math.abs(recording.duration_seconds - published) <= mediaFaults,
      `recording ${recording.duration_seconds} s, published ${published.toFixed(1)} s`,
    );

    const requests = ctx.receiver.on('/faults');
    assert.ok(
      requests.every((r) => r.verifyError === null),
      'every delivery verifies',
    );
    const byId = new Map<string, { type: string; count: number }>();
    for (const r of delivered(ctx)) {
      const entry = byId.get(idOf(r)) ?? { type: typeOf(r), count: 0 };
      entry.count++;
      byId.set(idOf(r), entry);
    }
    assert.equal(
      [...byId].filter(([, e]) => e.count !== 1),
      [],
      'every event id delivered exactly once',
    );
    console.log(
      `  events: ${byId.size} delivered once each (${requests.length} requests, 3 refused by the outage): ${[...byId.values()].map((e) => e.type).join(', ')}`,
    );
    assert.is(new Set(requests.map(idOf)).size, byId.size, 'every event that was attempted was delivered');
    const types = [...byId.values()].map((e) => e.type);
    assert.is(types.filter((x) => x === 'stream.live').length, 1, `one stream.live: ${types.join(', ')}`);
    assert.is(types.filter((x) => x === 'stream.ended').length, 1, 'one stream.ended');
    assert.is(types.filter((x) => x === 'recording.ready').length, 1, 'one recording.ready');

    assert.equal(ctx.backwards, [], 'no playlist sequence went back');
    const bad = ctx.answers.filter(([, s, retry]) => s >= 500 && !(s === 503 && retry));
    assert.equal(bad, [], 'no 5xx other than 503 with Retry-After');
    assert.is(ctx.hung, 0, 'no request hung for 3 s');

    ok(await svc(['down', '--data-dir', ctx.dir]));
    await waitFor(
      'nothing of the data dir running',
      async () => findProcesses((argv) => argv.join(' ').includes(ctx.dir)).length === 0,
      10_000,
    );
  },
);

t.run();
