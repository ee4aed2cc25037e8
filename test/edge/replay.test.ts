/**
 * Replays and stills through an edge (docs/decisions.md, "Replays through edges", "Stills through
 * edges"): the appliance with `cdn.direct_viewers` off (viewers never reach its CDN port), an edge
 * joined to it on loopback, a real ffmpeg publisher; everything is fetched through the edge only.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { recordingFiles } from '../../src/domains/engine/recordings/files.js';
import { deliveredBytes } from '../../src/domains/ledger/cdnlog/queries.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { onEdge, startTestEdge, type TestEdge } from '../helpers/edge.js';
import { makeClip, publish, waitFor } from '../helpers/publisher.js';

const t = suite<{ app: TestAppliance; edge: TestEdge; key: string; id: string }>('replays and stills through an edge');

t.before(async (ctx) => {
  ctx.app = await startTestAppliance({ cdn: { direct_viewers: false, log_read_seconds: 1 } });
  ctx.edge = await startTestEdge(ctx.app, { name: 'edge-replay' });
  const { key } = await ctx.app.newAccount({ trusted: true });
  ctx.key = key;
  const created = await ctx.app.call('POST', '/v1/streams', {
    key,
    body: { profile: 'passthrough', replay: true },
  });
  assert.is(created.status, 201, created.text);
  ctx.id = created.body.id;
  const publisher = publish(
    ctx.app.rtmpUrl(created.body.stream_key),
    await makeClip({ width: 320, height: 180, seconds: 8 }),
  );
  await publisher.exited;
  await ctx.app.call('DELETE', `/v1/streams/${ctx.id}`, { key });
});

t.after(async (ctx) => {
  await ctx.edge?.close();
  await ctx.app?.close();
});

t(
  'with direct viewers off the replay is offered, served by the edge in slices, refused there once members-only, counted',
  async (ctx) => {
    const { app, edge, id } = ctx;
    const embed = await waitFor(
      'the replay offered',
      async () => {
        const e = (await app.call('GET', `/v1/embed/${id}`)).body;
        return e.replay ? e : undefined;
      },
      60_000,
    );
    const duration = (await app.call('GET', `/v1/streams/${id}`, { key: ctx.key })).body.recording.duration_seconds;
    // The origin's own CDN port serves no viewer; the edge does.
    assert.is((await fetch(embed.playback_url)).status, 403, 'not from the origin itself');
    const playlistUrl = onEdge(app, edge, embed.playback_url);
    let fetched = 0;
    const playlist = await fetch(playlistUrl);
    assert.is(playlist.status, 200, playlistUrl);
    assert.is(playlist.headers.get('content-type'), 'application/vnd.apple.mpegurl');
    assert.is(playlist.headers.get('cache-control'), 'no-cache');
    const text = await playlist.text();
    fetched += text.length;
    assert.match(text, '#EXT-X-ENDLIST');
    const seconds = [...text.matchAll(/^#EXTINF:([\d.]+),/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
    assert.ok(Math.abs(seconds - duration) < 0.5, `${seconds} s listed, the recording is ${duration} s`);

    const local = readFileSync(join(recordingFiles(app.dataDir, id).replay, 'media.mp4'));
    const media = new URL('media.mp4', playlistUrl).toString();
    // Each piece by its byte range, as a player seeks; then the whole file, assembled from slices.
    for (const [, length, offset] of text.matchAll(/^#EXT-X-BYTERANGE:(\d+)@(\d+)$/gm)) {
      const [from, to] = [Number(offset), Number(offset) + Number(length) - 1];
      const piece = await fetch(media, { headers: { range: `bytes=${from}-${to}` } });
      assert.is(piece.status, 206);
      assert.is(piece.headers.get('cache-control'), 'public, max-age=300');
      const body = Buffer.from(await piece.arrayBuffer());
      fetched += body.length;
      assert.equal(body, local.subarray(from, to + 1), `bytes ${from}-${to}`);
    }
    const whole = await fetch(media);
    assert.is(whole.status, 200);
    const body = Buffer.from(await whole.arrayBuffer());
    fetched += body.length;
    assert.equal(body, local, 'the whole file, from slices');
    assert.is((await fetch(playlistUrl.replace(/\/[A-Za-z0-9_-]{4}/, '/AAAA'))).status, 403, 'a tampered signature');

    // The edge's log reaches the origin: every byte it served is the stream's delivery.
    await waitFor('the edge log counted', async () => (await deliveredBytes(app.db.sql, id)) >= fetched, 30_000);

    // Members-only from now on: the edge learns the refusal from its heartbeat and refuses the shared address.
    const patched = await app.call('PATCH', `/v1/streams/${id}`, {
      key: ctx.key,
      body: { player: { require_viewer_token: true } },
    });
    assert.is(patched.status, 200, patched.text);
    await waitFor(
      'the shared address refused at the edge',
      async () => (await fetch(playlistUrl)).status === 403,
      30_000,
    );
  },
);

t("the signed addresses of a stream's current still and of a recording's still work through the edge", async (ctx) => {
  const { app, edge, id, key } = ctx;
  const jpeg = async (url: string) => {
    const res = await fetch(url);
    assert.is(res.status, 200, url);
    assert.is(res.headers.get('content-type'), 'image/jpeg');
    return { res, body: Buffer.from(await res.arrayBuffer()) };
  };
  const current = await app.call('GET', `/v1/streams/${id}/thumbnail`, { key });
  assert.is(current.status, 200, current.text);
  assert.is((await fetch(current.body.url)).status, 403, 'not from the origin itself');
  const live = await jpeg(onEdge(app, edge, current.body.url));
  assert.is(live.res.headers.get('cache-control'), 'private, max-age=10');

  const still = await app.call('GET', `/v1/streams/${id}/recording/thumbnail?time=2`, { key });
  assert.is(still.status, 200, still.text);
  const atEdge = onEdge(app, edge, still.body.url);
  const got = await jpeg(atEdge);
  assert.is(got.res.headers.get('cache-control'), 'private, max-age=86400, immutable');
  const made = readFileSync(join(recordingFiles(app.dataDir, id).dir, 'stills', '2.0.jpg'));
  assert.equal(got.body, made, "the origin's still");
  // The signature covers the still's time: it opens no other one, and a tampered one nothing.
  assert.is((await fetch(atEdge.replace('/2.0.jpg', '/3.0.jpg'))).status, 403);
  assert.is((await fetch(atEdge.replace(/\/[A-Za-z0-9_-]{4}/, '/AAAA'))).status, 403);
});

t.run();
