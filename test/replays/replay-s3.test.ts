/**
 * Replays with object storage (docs/decisions.md, "Replays with object storage"): a real appliance
 * (nginx, API, recordings job, spool) on a real S3 server (Ceph radosgw, test/helpers/s3.ts) and
 * real ffmpeg publishers. Two short broadcasts at once: one asked for a replay from the start (made
 * from the MP4 on disk, then sent to the bucket; its playlist is then served from the bucket too),
 * one patched to `replay` true once its MP4 has left the disk (made from the bucket's copy, first
 * while the bucket does not answer).
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { recordingFiles } from '../../src/domains/engine/recordings/files.js';
import { deliveredBytes } from '../../src/domains/ledger/cdnlog/queries.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { makeClip, publish, waitFor } from '../helpers/publisher.js';
import { clientOf, keys, objectBytes, objects, startTestS3, storageConfig, type TestS3 } from '../helpers/s3.js';

interface Ctx {
  server: TestS3;
  s3: S3Client;
  app: TestAppliance;
  key: string;
  /** `replay` true from its creation. */
  first: string;
  /** `replay` patched on after its recording left the disk. */
  later: string;
}

const t = suite<Ctx>('replays with object storage');

const streamOf = async (ctx: Ctx, id: string) =>
  (await ctx.app.call('GET', `/v1/streams/${id}`, { key: ctx.key })).body;

const offered = (ctx: Ctx, id: string, timeoutMs = 60_000) =>
  waitFor(
    `the replay of ${id} offered`,
    async () => {
      const e = (await ctx.app.call('GET', `/v1/embed/${id}`)).body;
      return e.replay ? e : undefined;
    },
    timeoutMs,
  );

/** Both replay files in the bucket, the media gone from this disk (the playlist, a few KB, stays). */
async function inTheBucket(ctx: Ctx, id: string): Promise<void> {
  const prefix = `recordings/${id}/replay/`;
  await waitFor(
    `the replay of ${id} in the bucket`,
    async () => (await objects(ctx.s3, ctx.server.bucket, prefix)).length === 2,
    60_000,
  );
  const dir = recordingFiles(ctx.app.dataDir, id).replay;
  await waitFor(`the replay's media of ${id} off the disk`, async () => !existsSync(join(dir, 'media.mp4')));
  assert.ok(existsSync(join(dir, 'index.m3u8')), 'the playlist stays on disk');
}

/** Plays the replay as a player would (the playlist, then one piece by its byte range): the bytes fetched. */
async function playFromBucket(ctx: Ctx, id: string, playbackUrl: string, durationSeconds: number): Promise<number> {
  const playlist = await fetch(playbackUrl);
  assert.is(playlist.status, 200, playbackUrl);
  assert.is(playlist.headers.get('content-type'), 'application/vnd.apple.mpegurl');
  assert.is(playlist.headers.get('cache-control'), 'no-cache');
  const text = await playlist.text();
  assert.is(text, (await objectBytes(ctx.s3, ctx.server.bucket, `recordings/${id}/replay/index.m3u8`)).toString());
  assert.match(text, '#EXT-X-PLAYLIST-TYPE:VOD');
  assert.match(text, '#EXT-X-ENDLIST');
  const seconds = [...text.matchAll(/^#EXTINF:([\d.]+),/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
  assert.ok(Math.abs(seconds - durationSeconds) < 0.5, `${seconds} s listed, the recording is ${durationSeconds} s`);
  const ranges = [...text.matchAll(/^#EXT-X-BYTERANGE:(\d+)@(\d+)$/gm)];
  const last = ranges.at(-1);
  assert.ok(last, text);
  const [length, offset] = [Number(last[1]), Number(last[2])];
  const media = new URL('media.mp4', playbackUrl).toString();
  const piece = await fetch(media, { headers: { range: `bytes=${offset}-${offset + length - 1}` } });
  assert.is(piece.status, 206);
  assert.is(piece.headers.get('content-type'), 'video/mp4');
  assert.is(piece.headers.get('cache-control'), 'public, max-age=300');
  const bytes = Buffer.from(await piece.arrayBuffer());
  const stored = await objectBytes(ctx.s3, ctx.server.bucket, `recordings/${id}/replay/media.mp4`);
  assert.equal(bytes, stored.subarray(offset, offset + length), "the bucket's bytes of the last piece");
  return text.length + length;
}

t.before(async (ctx) => {
  ctx.server = await startTestS3();
  ctx.s3 = clientOf(ctx.server);
  ctx.app = await startTestAppliance(
    { ...(await storageConfig(ctx.server)), cdn: { log_read_seconds: 1 } },
    { storageKeys: keys(ctx.server) },
  );
  const account = await ctx.app.newAccount({ trusted: true });
  ctx.key = account.key;
  const create = async (body: Record<string, unknown>) => {
    const res = await ctx.app.call('POST', '/v1/streams', { key: ctx.key, body: { profile: 'passthrough', ...body } });
    assert.is(res.status, 201, res.text);
    return res.body as { id: string; stream_key: string };
  };
  const first = await create({ name: 'Replay from the bucket', replay: true });
  const later = await create({ name: 'Replay asked for later' });
  [ctx.first, ctx.later] = [first.id, later.id];
  const clip = await makeClip({ width: 320, height: 180, seconds: 8 });
  const publishers = [first, later].map((s) => publish(ctx.app.rtmpUrl(s.stream_key), clip));
  await Promise.all(publishers.map((p) => p.exited));
  for (const id of [ctx.first, ctx.later]) await ctx.app.call('DELETE', `/v1/streams/${id}`, { key: ctx.key });
});

t.after(async (ctx) => {
  await ctx.app?.close();
  ctx.s3?.destroy();
  await ctx.server?.stop();
});

t(
  'a replay follows its recording to the bucket and plays from there, counted; deleting the recording ends it there',
  async (ctx) => {
    const { app, first } = ctx;
    const embed = await offered(ctx, first);
    const stream = await streamOf(ctx, first);
    await inTheBucket(ctx, first);
    // A disk that lost the playlist too: the bucket's copy is served at the same address.
    rmSync(join(recordingFiles(app.dataDir, first).replay, 'index.m3u8'));
    await waitFor('the recording off the disk', async () => !existsSync(recordingFiles(app.dataDir, first).mp4));

    const fetched = await playFromBucket(ctx, first, embed.playback_url, stream.recording.duration_seconds);
    // A tampered signature opens nothing, from the bucket either.
    assert.is((await fetch(embed.playback_url.replace(/\/[A-Za-z0-9_-]{4}/, '/AAAA'))).status, 403);
    // Served from the bucket, billed as the stream's delivery like a replay from the disk.
    await waitFor('the CDN log read', async () => (await deliveredBytes(app.db.sql, first)) >= fetched, 30_000);

    const deleted = await app.call('DELETE', `/v1/streams/${first}/recording`, { key: ctx.key });
    assert.is(deleted.status, 200, deleted.text);
    await waitFor(
      'the embed read stops offering it',
      async () => !(await app.call('GET', `/v1/embed/${first}`)).body.replay,
    );
    await waitFor(
      'the replay deleted from the bucket',
      async () => (await objects(ctx.s3, ctx.server.bucket, `recordings/${first}/`)).length === 0,
      30_000,
    );
    assert.is((await fetch(embed.playback_url)).status, 404, 'its address answers 404 once deleted');
  },
);

t(
  "a replay asked for once the MP4 is only in the bucket is made from the bucket's copy; a bucket that does not answer costs no try",
  async (ctx) => {
    const { app, later } = ctx;
    const ready = await waitFor(
      'the recording ready and off the disk',
      async () => {
        const s = await streamOf(ctx, later);
        return s.recording.status === 'ready' && !existsSync(recordingFiles(app.dataDir, later).mp4) && s;
      },
      60_000,
    );
    await ctx.server.pause();
    try {
      const patched = await app.call('PATCH', `/v1/streams/${later}`, { key: ctx.key, body: { replay: true } });
      assert.is(patched.status, 200, patched.text);
      // Several rounds of the recordings job (every second here), each waiting out the silent bucket.
      await new Promise((r) => setTimeout(r, 20_000));
      const [row] = await app.db.sql<{ replay_attempts: number; replay_made_at: Date | null }[]>`
      select replay_attempts, replay_made_at from streams where id = ${later}`;
      assert.equal(row, { replay_attempts: 0, replay_made_at: null }, 'no try counted while the bucket is silent');
    } finally {
      await ctx.server.resume();
    }
    const embed = await offered(ctx, later, 90_000);
    await inTheBucket(ctx, later);
    await playFromBucket(ctx, later, embed.playback_url, ready.recording.duration_seconds);
  },
);

t.run();
