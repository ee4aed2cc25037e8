/**
 * Replays end to end (docs/decisions.md, "Replays (issue 33)"): a real appliance (nginx, API,
 * recordings job), real ffmpeg publishers and Debian's Chromium. Three short broadcasts at once
 * (320x180, passthrough): a public replay, a stream without one (then `replay` patched on) and a
 * members-only replay.
 */
import { rmSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { launchChromium } from '../helpers/browser.js';
import { makeClip, publish, waitFor } from '../helpers/publisher.js';
import { viewerToken } from '../helpers/viewer-tokens.js';
import { CdnAddresses, cdnSecret } from '../../src/domains/ledger/cdn/addresses.js';
import { recordingFiles } from '../../src/domains/engine/recordings/files.js';

interface Stream {
  id: string;
  embed_url: string;
  stream_key: string;
}

interface Ctx {
  app: TestAppliance;
  key: string;
  browser: Browser;
  /** `replay` true, public. */
  open: Stream;
  /** `replay` false at first. */
  plain: Stream;
  /** `replay` true, members-only. */
  members: Stream;
  viewerKey: Awaited<ReturnType<TestAppliance['accounts']['createViewerKey']>>;
}

const t = suite<Ctx>('replays');
const CLIP_SECONDS = 10;

const embedOf = async (app: TestAppliance, id: string) => {
  const res = await app.call('GET', `/v1/embed/${id}`);
  assert.is(res.status, 200, res.text);
  return res.body;
};

const readyRecording = (ctx: Ctx, id: string) =>
  waitFor(
    `the recording of ${id} ready`,
    async () => {
      const s = (await ctx.app.call('GET', `/v1/streams/${id}`, { key: ctx.key })).body;
      return s.recording.status === 'ready' ? s : undefined;
    },
    60_000,
  );

const offered = (ctx: Ctx, id: string) =>
  waitFor(
    `the replay of ${id} offered`,
    async () => {
      const e = await embedOf(ctx.app, id);
      return e.replay ? e : undefined;
    },
    30_000,
  );

/** The playlist's total duration, its media file's address and the first piece's byte range. */
async function readPlaylist(url: string) {
  const res = await fetch(url);
  assert.is(res.status, 200, url);
  const text = await res.text();
  const seconds = [...text.matchAll(/^#EXTINF:([\d.]+),/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
  const range = /^#EXT-X-BYTERANGE:(\d+)@(\d+)$/m.exec(text);
  const media = text
    .split('\n')
    .find((l) => l && !l.startsWith('#'))
    ?.trim();
  return { text, seconds, range, media: media && new URL(media, url).toString() };
}

t.before(async (ctx) => {
  ctx.app = await startTestAppliance({
    viewers: { beat_interval_seconds: 2, sample_seconds: 1 },
  });
  const account = await ctx.app.newAccount({ trusted: true });
  ctx.key = account.key;
  ctx.viewerKey = await ctx.app.accounts.createViewerKey(account.id);
  const create = async (body: Record<string, unknown>) => {
    const res = await ctx.app.call('POST', '/v1/streams', { key: ctx.key, body: { profile: 'passthrough', ...body } });
    assert.is(res.status, 201, res.text);
    return res.body as Stream;
  };
  ctx.open = await create({ name: 'Replay', replay: true });
  ctx.plain = await create({ name: 'No replay' });
  ctx.members = await create({ name: 'Members replay', replay: true, player: { require_viewer_token: true } });
  const clip = await makeClip({ width: 320, height: 180, seconds: CLIP_SECONDS });
  const streams = [ctx.open, ctx.plain, ctx.members];
  const publishers = streams.map((s) => publish(ctx.app.rtmpUrl(s.stream_key), clip));
  await Promise.all(publishers.map((p) => p.exited));
  // Ended by the client rather than after the reconnect window.
  for (const s of streams) await ctx.app.call('DELETE', `/v1/streams/${s.id}`, { key: ctx.key });
  ctx.browser = await launchChromium();
});

t.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.app?.close();
});

t('a replay: the embed read offers HLS VOD of the recording, seekable, counted', async (ctx) => {
  const { app, open } = ctx;
  const stream = await readyRecording(ctx, open.id);
  assert.is(stream.replay, true);
  const embed = await offered(ctx, open.id);
  assert.is(embed.status, 'ended');
  assert.is(embed.access, 'public');
  assert.is(embed.poll_after_seconds, 30);
  assert.ok(embed.beacon, 'beacon while a replay is offered');
  assert.match(embed.playback_url, new RegExp(`/[A-Za-z0-9_-]{22}\\.\\d{10}/_replay/${open.id}/index\\.m3u8$`));
  assert.ok(Date.parse(embed.playback_url_expires_at) > Date.now() + 3_600_000);

  const playlist = await readPlaylist(embed.playback_url);
  assert.match(playlist.text, '#EXT-X-PLAYLIST-TYPE:VOD');
  assert.match(playlist.text, '#EXT-X-ENDLIST');
  assert.ok(
    Math.abs(playlist.seconds - stream.recording.duration_seconds) < 0.5,
    `${playlist.seconds} s listed, the recording is ${stream.recording.duration_seconds} s`,
  );
  assert.ok(playlist.range && playlist.media);
  const [length, offset] = [Number(playlist.range[1]), Number(playlist.range[2])];
  const piece = await fetch(playlist.media, { headers: { range: `bytes=${offset}-${offset + length - 1}` } });
  assert.is(piece.status, 206);
  assert.is((await piece.arrayBuffer()).byteLength, length);
  // A tampered signature opens nothing.
  const forged = embed.playback_url.replace(/\/[A-Za-z0-9_-]{4}/, '/AAAA');
  assert.is((await fetch(forged)).status, 403);

  // Beats during the replay are counted.
  for (const s of ['replay-viewer-1', 'replay-viewer-2']) {
    const beat = await app.call('POST', `/v1/embed/${open.id}/beat?s=${s}&st=p&u=0.1`);
    assert.is(beat.status, 204, beat.text);
  }
  const read = await app.call('GET', `/v1/streams/${open.id}`, { key: ctx.key });
  assert.is(read.body.viewers.now.watching, 2);
});

t('the hosted player plays the replay: REPLAY, seek to the middle, play to the end', async (ctx) => {
  const page = await ctx.browser.newPage();
  await page.goto(ctx.open.embed_url);
  await page.waitForSelector('#svc-player[data-state="playing"]', { timeout: 30_000 });
  assert.is(await page.getAttribute('#svc-player', 'data-replay'), 'true');
  assert.is((await page.textContent('#svc-live'))?.trim(), 'REPLAY');
  assert.is(await page.evaluate(() => document.querySelector('video')?.controls), true);
  const duration = await page.evaluate(() => document.querySelector('video')?.duration ?? 0);
  assert.ok(Math.abs(duration - CLIP_SECONDS) < 1, `duration ${duration}`);
  const ended = page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const video = document.querySelector('video') as HTMLVideoElement;
        video.addEventListener('ended', () => resolve(video.currentTime), { once: true });
        video.currentTime = video.duration / 2;
        void video.play();
      }),
  );
  const startedAt = Date.now();
  const endedAt = await Promise.race([ended, new Promise<null>((r) => setTimeout(() => r(null), 20_000))]);
  assert.ok(endedAt !== null, 'the ended event');
  assert.ok(endedAt >= duration - 0.5, `ended at ${endedAt} of ${duration}`);
  // From the middle: about half the clip, not all of it.
  assert.ok(Date.now() - startedAt < (CLIP_SECONDS / 2 + 4) * 1000);
  // The page stays on the replay (the viewer may seek back) and reported itself.
  assert.is(await page.getAttribute('#svc-player', 'data-state'), 'playing');
  const beats = await page.evaluate(() => (window as unknown as { svcPlayer: { beats: string[] } }).svcPlayer.beats);
  assert.ok(beats.includes('p'), `beats ${beats.join(',')}`);
  await page.close();
});

t('replay false: nothing after the end; patched to true, the replay comes', async (ctx) => {
  const { app, plain } = ctx;
  await readyRecording(ctx, plain.id);
  // The job has had its turns: no replay is made for it.
  await new Promise((r) => setTimeout(r, 3000));
  const embed = await embedOf(app, plain.id);
  assert.is(embed.replay, false);
  assert.is(embed.playback_url, null);
  assert.is(embed.poll_after_seconds, null);
  assert.is(embed.beacon, null);
  const beat = await app.call('POST', `/v1/embed/${plain.id}/beat?s=plain-viewer-1&st=p&u=0.1`);
  assert.is(beat.status, 204);
  assert.is((await app.call('GET', `/v1/streams/${plain.id}`, { key: ctx.key })).body.viewers.now, null);

  const bad = await app.call('PATCH', `/v1/streams/${plain.id}`, { key: ctx.key, body: { replay: 'yes' } });
  assert.is(bad.status, 400);
  assert.is(bad.body.error.details.field, 'replay');
  const patched = await app.call('PATCH', `/v1/streams/${plain.id}`, { key: ctx.key, body: { replay: true } });
  assert.is(patched.status, 200, patched.text);
  assert.is(patched.body.replay, true);
  const later = await offered(ctx, plain.id);
  assert.match(later.playback_url, `/_replay/${plain.id}/index.m3u8`);
  assert.match((await readPlaylist(later.playback_url)).text, '#EXT-X-ENDLIST');
});

t('a replay given up after three failed tries is tried again when asked for again', async (ctx) => {
  const { app, plain } = ctx;
  // As the job leaves a replay whose three remuxes failed.
  await app.db.sql`update streams set replay_made_at = null, replay_attempts = 3 where id = ${plain.id}`;
  rmSync(recordingFiles(app.dataDir, plain.id).replay, { recursive: true, force: true });
  await new Promise((r) => setTimeout(r, 3000));
  const given = await embedOf(app, plain.id);
  assert.is(given.replay, false, 'not offered, not tried again by itself');
  assert.is(given.poll_after_seconds, null, 'nothing to wait for');
  const patched = await app.call('PATCH', `/v1/streams/${plain.id}`, { key: ctx.key, body: { replay: true } });
  assert.is(patched.status, 200, patched.text);
  const again = await offered(ctx, plain.id);
  assert.match((await readPlaylist(again.playback_url)).text, '#EXT-X-ENDLIST');
});

t('members-only replay: no shared address; a viewer session gets a personal replay address', async (ctx) => {
  const { app, members } = ctx;
  await readyRecording(ctx, members.id);
  const embed = await offered(ctx, members.id);
  assert.is(embed.playback_url, null);
  assert.is(embed.access, 'viewer_token');
  const token = await viewerToken(ctx.viewerKey, new Date(), { sub: 'member-1', name: 'Ada' });
  const session = await app.call('POST', `/v1/embed/${members.id}/session`, { body: { viewer_token: token } });
  assert.is(session.status, 200, session.text);
  assert.ok(session.body.beacon);
  const url: string = session.body.playback.url;
  assert.match(url, new RegExp(`/vsn_[a-z0-9]{20}/_replay/${members.id}/index\\.m3u8$`));
  const playlist = await readPlaylist(url);
  assert.match(playlist.text, '#EXT-X-ENDLIST');
  assert.is((await fetch(playlist.media!, { headers: { range: 'bytes=0-99' } })).status, 206);
  // The shared replay address, signed by hand, is refused by nginx for a members-only player.
  const cdn = new CdnAddresses(app.config.publicUrls.cdn_url, cdnSecret(app.secrets.signing_key));
  const hour = new Date(Date.now() + 3_600_000);
  assert.is((await fetch(cdn.replay(ctx.open.id, hour))).status, 200, 'signed by hand like the appliance');
  const shared = cdn.replay(members.id, hour);
  await waitFor('the shared address refused', async () => (await fetch(shared)).status === 403, 15_000);
  // Renewed like a live personal address, to the replay.
  const renewed = await app.call('POST', `/v1/embed/${members.id}/playback`, {
    body: { session_token: session.body.session_token },
  });
  assert.is(renewed.status, 200, renewed.text);
  assert.match(renewed.body.url, `/_replay/${members.id}/index.m3u8`);
  // Banned: no more addresses, as while live.
  const ban = await app.call('POST', `/v1/streams/${members.id}/chat/bans`, {
    key: ctx.key,
    body: { viewer_id: 'member-1' },
  });
  assert.ok(ban.status === 200 || ban.status === 201, ban.text);
  const refused = await app.call('POST', `/v1/embed/${members.id}/playback`, {
    body: { session_token: session.body.session_token },
  });
  assert.is(refused.status, 403, refused.text);
  assert.is(refused.body.error.code, 'viewer_removed');
});

t(
  'deleting the recording ends the replay: the embed read stops offering it, the address stops serving',
  async (ctx) => {
    const { app, open } = ctx;
    const embed = await offered(ctx, open.id);
    const deleted = await app.call('DELETE', `/v1/streams/${open.id}/recording`, { key: ctx.key });
    assert.is(deleted.status, 200, deleted.text);
    const startedAt = Date.now();
    await waitFor('the replay withdrawn', async () => !(await embedOf(app, open.id)).replay, 5_000);
    // The API's own one-second read, plus nginx's one-second cache on the player port.
    assert.ok(Date.now() - startedAt < 3_000);
    const after = await embedOf(app, open.id);
    assert.is(after.playback_url, null);
    assert.is(after.beacon, null);
    assert.is(after.poll_after_seconds, null);
    assert.is((await fetch(embed.playback_url)).status, 404);
  },
);

t.run();
