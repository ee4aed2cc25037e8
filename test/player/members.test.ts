/**
 * Members-only streams in the hosted player, end to end: real appliance (nginx, API, personal
 * playback addresses), a real ffmpeg publisher and Debian's Chromium. One broadcast serves every
 * case. Personal addresses last 20 s here (renewed every ~12 s) and token viewers report every
 * 3 s, so renewals, attendance and a ban's effect all show within a minute or two.
 */
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { launchChromium, outputDir } from '../helpers/browser.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';
import { viewerToken, type ViewerKey } from '../helpers/viewer-tokens.js';

interface Ctx {
  app: TestAppliance;
  browser: Browser;
  key: string;
  viewerKey: ViewerKey;
  stream: { id: string; embed_url: string; stream_key: string };
  publisher?: Publisher;
  cdn: string;
  shots: string;
  /** The member who plays through renewals, attendance and the ban. */
  member?: MemberPage;
}

const t = suite<Ctx>('members-only streams in the hosted player');

t.before(async (ctx) => {
  ctx.app = await startTestAppliance({
    viewers: {
      personal_playback_seconds: 20,
      attendance_interval_seconds: 3,
      attendance_flush_seconds: 1,
      beat_interval_seconds: 2,
      sample_seconds: 1,
    },
  });
  const account = await ctx.app.newAccount({ trusted: true });
  ctx.key = account.key;
  ctx.viewerKey = await ctx.app.accounts.createViewerKey(account.id);
  ctx.cdn = ctx.app.config.publicUrls.cdn_url;
  const created = await ctx.app.call('POST', '/v1/streams', {
    key: ctx.key,
    body: { name: 'Members meeting', profile: 'passthrough', player: { require_viewer_token: true } },
  });
  assert.is(created.status, 201, created.text);
  ctx.stream = created.body;
  ctx.publisher = publish(
    ctx.app.rtmpUrl(ctx.stream.stream_key),
    await makeClip({ width: 320, height: 180, seconds: 20 }),
    { loop: true },
  );
  ctx.browser = await launchChromium();
  ctx.shots = outputDir('player-members');
  await waitFor(
    'the stream live with segments',
    async () => (await ctx.app.call('GET', `/v1/streams/${ctx.stream.id}`, { key: ctx.key })).body.status === 'live',
    30_000,
  );
});

t.after(async (ctx) => {
  await ctx.publisher?.kill();
  await ctx.browser?.close();
  await ctx.app?.close();
});

/** A member's viewer token, as the client's site signs it. */
const tokenOf = ({ viewerKey }: Ctx, sub: string, name: string) => viewerToken(viewerKey, new Date(), { sub, name });

const stateOf = (page: Page) => page.getAttribute('#svc-player', 'data-state');
const waitForState = (page: Page, state: string, timeoutMs: number) =>
  page.waitForSelector(`#svc-player[data-state="${state}"]`, { timeout: timeoutMs }).then(() => true);
const player = <T>(page: Page, fn: string): Promise<T> =>
  page.evaluate(`(() => { const p = window.svcPlayer; return ${fn}; })()`) as Promise<T>;

interface Requested {
  at: number;
  url: string;
  method: string;
}
interface Renewal {
  at: number;
  status: number;
  url?: string;
  code?: string;
}
interface Watch {
  /** Media events of the video, from before the player script ran: [ms, type, currentTime]. */
  events: [number, string, number][];
  /** currentTime every 250 ms: [ms, currentTime]. */
  samples: [number, number][];
  fatal: string[];
}

interface MemberPage {
  page: Page;
  requests: Requested[];
  renewals: Renewal[];
}

/** A page that records every request it makes, its renewals, and its video's events. */
async function memberPage(browser: Browser): Promise<MemberPage> {
  const page = await browser.newPage();
  const requests: Requested[] = [];
  const renewals: Renewal[] = [];
  page.on('request', (r) => requests.push({ at: Date.now(), url: r.url(), method: r.method() }));
  page.on('response', (res) => {
    if (res.request().method() !== 'POST' || !/\/playback$/.test(new URL(res.url()).pathname)) return;
    const at = Date.now();
    void res
      .json()
      .catch(() => null)
      .then((body: { url?: string; error?: { code?: string } } | null) =>
        renewals.push({ at, status: res.status(), url: body?.url, code: body?.error?.code }),
      );
  });
  await page.addInitScript(() => {
    const watch: Watch = { events: [], samples: [], fatal: [] };
    (window as unknown as { svcWatch: Watch }).svcWatch = watch;
    // Media events do not bubble; a capturing listener on the document sees them all.
    for (const type of ['playing', 'pause', 'waiting']) {
      document.addEventListener(
        type,
        (e) => e.target instanceof HTMLVideoElement && watch.events.push([Date.now(), type, e.target.currentTime]),
        true,
      );
    }
    setInterval(() => {
      const video = document.querySelector('video');
      if (video) watch.samples.push([Date.now(), video.currentTime]);
    }, 250);
  });
  return { page, requests, renewals };
}

const watchOf = (page: Page) => page.evaluate(() => (window as unknown as { svcWatch: Watch }).svcWatch);

/** Seconds the video was playing (between each `playing` and the next `pause`), up to `until`. */
function playedSeconds(events: Watch['events'], until: number): number {
  let total = 0;
  let since: number | null = null;
  for (const [at, type] of events) {
    if (type === 'playing' && since === null) since = at;
    if (type === 'pause' && since !== null) {
      total += at - since;
      since = null;
    }
  }
  return (total + (since === null ? 0 : until - since)) / 1000;
}

const dirOf = (url: string) => url.slice(0, url.lastIndexOf('/') + 1);
const isMedia = (url: string) => /\.(m3u8|ts|m4s|mp4)(\?|$)/.test(url);

t(
  'without a token: the members-only notice, no media and no player library requested',
  async ({ browser, stream, cdn, shots }) => {
    const { page, requests } = await memberPage(browser);
    await page.goto(stream.embed_url);
    assert.is(await stateOf(page), 'members');
    await page.waitForTimeout(4000);
    assert.is(await stateOf(page), 'members');
    assert.ok(await page.isVisible('text=This stream is for members only'));
    assert.is(await page.textContent('#svc-status'), 'This stream is for members only');
    const media = requests.filter((r) => isMedia(r.url) || r.url.includes('/assets/hls'));
    assert.equal(media, [], 'no playlist, segment or hls.js');
    // The poster (the stream's still) is the page's only CDN request.
    assert.equal(
      requests.filter((r) => r.url.startsWith(cdn) && !r.url.includes('/_thumb/')),
      [],
    );
    assert.equal(
      requests.filter((r) => r.url.includes('/session') || r.url.includes('/playback')),
      [],
    );
    await page.screenshot({ path: join(shots, '1-members-notice.png') });
    await page.close();
  },
);

t(
  'with #vt=: the fragment leaves the address, a session opens, the video plays and its personal address renews without a stall',
  async (ctx) => {
    const { browser, stream, cdn, shots } = ctx;
    ctx.member = await memberPage(browser);
    const { page, requests, renewals } = ctx.member;
    await page.goto(`${stream.embed_url}#vt=${await tokenOf(ctx, 'member-1', 'Ada Member')}`);
    assert.is(await page.evaluate(() => location.href), stream.embed_url);
    assert.ok(await waitForState(page, 'playing', 40_000));
    await player(page, `p.hls.on('hlsError', (_e, d) => d.fatal && window.svcWatch.fatal.push(d.details))`);
    assert.is(await page.evaluate(() => location.href), stream.embed_url);
    assert.not.match(await page.evaluate(() => (history.state === null ? '' : JSON.stringify(history.state))), 'vt');

    const session = await player<{
      viewer: { id: string; name: string };
      playback: { url: string };
      beacon: { rate: number; interval_seconds: number };
    }>(page, 'p.session');
    assert.equal(session.viewer, { id: 'member-1', name: 'Ada Member', role: 'viewer' });
    assert.match(
      session.playback.url,
      new RegExp(`^${cdn}/[A-Za-z0-9_-]{22}\\.[0-9]{10}/vsn_[a-z0-9]{20}/${stream.id}/master\\.m3u8$`),
    );
    assert.equal(session.beacon, { rate: 1, interval_seconds: 3 });
    const opened = requests.filter(
      (r) => r.url === `${new URL(stream.embed_url).origin}/api/embed/${stream.id}/session`,
    );
    assert.is(opened.length, 1);
    assert.is(opened[0]?.method, 'POST');
    // Every media request went to this viewer's own address.
    const media = requests.filter((r) => r.url.startsWith(cdn) && isMedia(r.url));
    assert.ok(media.length > 0);
    for (const r of media) assert.ok(r.url.includes(`/vsn_`), r.url);

    const ok = await waitFor(
      'two renewals',
      async () => renewals.filter((r) => r.status === 200).length >= 2 && renewals.filter((r) => r.status === 200),
      45_000,
      250,
    );
    await page.waitForTimeout(5000);
    const watch = await watchOf(page);
    const firstPlaying = watch.events.find(([, type]) => type === 'playing')?.[0] ?? 0;
    assert.equal(
      watch.events.filter(([at, type]) => type === 'waiting' && at > firstPlaying),
      [],
      'no stall once playing',
    );
    assert.equal(
      watch.events.filter(([, type]) => type === 'pause'),
      [],
    );
    assert.equal(watch.fatal, [], 'no fatal hls.js error');

    const around: string[] = [];
    for (const renewal of ok.slice(0, 2)) {
      const before = watch.samples.filter(([at]) => at <= renewal.at).at(-1);
      const after = watch.samples.find(([at]) => at >= renewal.at + 4000);
      assert.ok(before && after, 'samples around the renewal');
      const [b, a] = [before!, after!];
      around.push(`${b[1].toFixed(1)} s → ${a[1].toFixed(1)} s over ${((a[0] - b[0]) / 1000).toFixed(1)} s`);
      assert.ok(a[1] - b[1] > (a[0] - b[0]) / 1000 - 1.5, `currentTime kept up across the renewal: ${around.at(-1)}`);
      // Once the renewal arrived, every playlist and segment came from its prefix.
      const later = requests.filter(
        (r) =>
          r.url.startsWith(cdn) &&
          isMedia(r.url) &&
          r.at > renewal.at + 200 &&
          r.at < (ok[ok.indexOf(renewal) + 1]?.at ?? Infinity),
      );
      assert.ok(later.length > 0, 'requests after the renewal');
      for (const r of later) assert.ok(r.url.startsWith(dirOf(renewal.url!)), `${r.url} under ${dirOf(renewal.url!)}`);
    }
    // The source was not loaded again (before playing, a master not yet there is asked for again).
    assert.equal(
      requests.filter((r) => r.url.endsWith('/master.m3u8') && r.at > firstPlaying),
      [],
    );
    assert.is(await stateOf(page), 'playing');
    console.log(
      `  renewals: ${ok.length} at +${ok.map((r) => ((r.at - firstPlaying) / 1000).toFixed(1)).join(', +')} s after playing; currentTime ${around.join('; ')}`,
    );
    await page.screenshot({ path: join(shots, '2-member-playing.png') });
  },
);

t('attendance: the member listed with the seconds played, the pause not counted', async (ctx) => {
  const { app, key, stream } = ctx;
  const { page } = ctx.member!;
  // Played ~30 s so far; pause 15 s, play 10 s, pause (the last report closes the period).
  await player(page, 'p.video.pause()');
  await page.waitForTimeout(15_000);
  await player(page, 'void p.video.play()');
  await waitFor('playing again', async () => (await player<string>(page, 'p.playback')) === 'playing', 10_000);
  await page.waitForTimeout(10_000);
  await player(page, 'p.video.pause()');
  const until = Date.now();
  const played = playedSeconds((await watchOf(page)).events, until);
  const beats = await player<string[]>(page, 'p.beats');
  assert.ok(beats.includes('z') && beats.includes('p'), beats.join(''));

  const item = await waitFor(
    'the member in the attendance list',
    async () => {
      const res = await app.call('GET', `/v1/streams/${stream.id}/attendance`, { key });
      assert.is(res.status, 200, res.text);
      const found = res.body.data.find((a: { viewer_id: string }) => a.viewer_id === 'member-1');
      // The pause's report is flushed within a second or so.
      return found && Date.parse(found.last_seen_at) >= until && found;
    },
    15_000,
    500,
  );
  console.log(`  attendance: ${item.watch_seconds} s listed, ${played.toFixed(1)} s played (15 s paused)`);
  assert.is(item.object, 'attendance');
  assert.is(item.name, 'Ada Member');
  assert.ok(
    Math.abs(item.watch_seconds - played) < 10,
    `${item.watch_seconds} s listed, ${played.toFixed(1)} s played`,
  );
  await player(page, 'void p.video.play()');
});

t(
  'after a ban: renewal answers viewer_removed, the video stops when the address runs out, and the member cannot come back',
  async (ctx) => {
    const { app, key, stream, browser, cdn, shots } = ctx;
    const { page, renewals } = ctx.member!;
    await waitFor('playing', async () => (await player<string>(page, 'p.playback')) === 'playing', 10_000);
    const renewed = renewals.length;
    const banned = await app.call('POST', `/v1/streams/${stream.id}/chat/bans`, {
      key,
      body: { viewer_id: 'member-1' },
    });
    assert.ok(banned.status === 200 || banned.status === 201, banned.text);

    // Renewals come every ~12 s: the next one is refused, and the address it would replace still plays.
    const refusal = await waitFor(
      'a refused renewal',
      async () => renewals.slice(renewed).find((r) => r.status !== 200),
      30_000,
      100,
    );
    assert.is(refusal.status, 403);
    assert.is(refusal.code, 'viewer_removed');
    assert.is(await stateOf(page), 'playing');
    const current = await player<string>(page, 'p.personalUrl');
    const expiry = Number(/\.([0-9]{10})\/vsn_/.exec(current)?.[1]) * 1000;
    assert.ok(expiry > Date.now(), 'the current address had not run out yet');

    assert.ok(await waitForState(page, 'removed', 30_000));
    const removedAt = Date.now();
    // Not before the address ran out (the API's Date header has whole seconds).
    assert.ok(removedAt > expiry - 1500, `removed ${expiry - removedAt} ms before the address ran out`);
    assert.ok(await page.isVisible('text=You were removed from this stream'));
    assert.is(await page.textContent('#svc-status'), 'You were removed from this stream');
    assert.is(await player<string | null>(page, 'p.engine'), null);
    // nginx's secure_link still accepts the address's last whole second.
    assert.ok(current.startsWith(cdn));
    await waitFor('the CDN refusing the old address', async () => (await fetch(current)).status === 403, 3000, 100);
    console.log(
      `  ban: renewal refused ${((expiry - refusal.at) / 1000).toFixed(1)} s before the address ran out; removed ${((removedAt - expiry) / 1000).toFixed(1)} s after`,
    );
    await page.screenshot({ path: join(shots, '3-removed.png') });
    await page.close();

    // The same person again: the session itself is refused.
    const again = await browser.newPage();
    await again.goto(`${stream.embed_url}#vt=${await tokenOf(ctx, 'member-1', 'Ada Member')}`);
    assert.ok(await waitForState(again, 'removed', 10_000));
    await again.close();
  },
);

t(
  "another member's personal address copied elsewhere works until it runs out, then the CDN answers 403",
  async (ctx) => {
    const { app, stream } = ctx;
    const opened = await app.call('POST', `/v1/embed/${stream.id}/session`, {
      body: { viewer_token: await tokenOf(ctx, 'member-2', 'Bo Member') },
    });
    assert.is(opened.status, 200, opened.text);
    const { url, expires_at: expiresAt } = opened.body.playback as { url: string; expires_at: string };
    // master → the first rendition's playlist → its first segment, as any HLS player would walk them.
    const firstEntry = (playlist: string, base: string) =>
      new URL(playlist.split('\n').find((l) => l && !l.startsWith('#')) ?? '', base).toString();
    const master = await fetch(url);
    assert.is(master.status, 200);
    const rendition = firstEntry(await master.text(), url);
    const playlist = await fetch(rendition);
    assert.is(playlist.status, 200);
    const segment = firstEntry(await playlist.text(), rendition);
    assert.is((await fetch(segment)).status, 200);

    await new Promise((resolve) => setTimeout(resolve, Date.parse(expiresAt) - Date.now() + 1500));
    for (const u of [url, rendition, segment]) assert.is((await fetch(u)).status, 403, u);
  },
);

t("refusals in words: a bad token shows the API's reason; a token running out shows that access ended", async (ctx) => {
  const { browser, stream, viewerKey } = ctx;
  const page = await browser.newPage();
  const forged = await viewerToken({ id: viewerKey.id, secret: 'vks_not-the-secret' }, new Date(), { sub: 'member-4' });
  await page.goto(`${stream.embed_url}#vt=${forged}`);
  assert.ok(await waitForState(page, 'refused', 10_000));
  const said = await page.textContent('[data-for="refused"]');
  assert.match(said ?? '', /^Your viewer link was refused: .*signature/i);
  assert.is(await page.textContent('#svc-status'), said);

  // The client's site gives the same frame a good token (a fragment change: no reload). Its
  // address never outlives the token: the renewal after its exp is refused, and the video stops then.
  const exp = Math.floor(Date.now() / 1000) + 12;
  await page.goto(`${stream.embed_url}#vt=${await viewerToken(viewerKey, new Date(), { sub: 'member-4', exp })}`);
  assert.ok(await waitForState(page, 'playing', 30_000));
  assert.is(await page.evaluate(() => location.href), stream.embed_url);
  assert.ok(await waitForState(page, 'access-ended', 20_000));
  assert.ok(Date.now() >= exp * 1000 - 1000, 'not before the token ran out');
  assert.is(await page.textContent('#svc-status'), 'Your access to this stream has ended');
  await page.close();
});

t('a public stream with #vt=: the shared address plays, and the session puts the viewer in attendance', async (ctx) => {
  const { app, key, stream, browser, cdn } = ctx;
  const patched = await app.call('PATCH', `/v1/streams/${stream.id}`, {
    key,
    body: { player: { require_viewer_token: false } },
  });
  assert.is(patched.status, 200, patched.text);
  await waitFor(
    'the embed read public',
    async () => (await app.call('GET', `/v1/embed/${stream.id}`)).body.access === 'public',
    10_000,
    250,
  );
  const { page, requests } = await memberPage(browser);
  await page.goto(`${stream.embed_url}#vt=${await tokenOf(ctx, 'member-3', 'Cy Member')}`);
  assert.is(await page.evaluate(() => location.href), stream.embed_url);
  assert.ok(await waitForState(page, 'playing', 30_000));
  // A public stream plays without waiting for the session, which may answer after the first frame.
  const session = await waitFor(
    'the session',
    () => player<{ viewer: { id: string }; playback: unknown } | null>(page, 'p.session'),
    10_000,
    250,
  );
  assert.is(session.viewer.id, 'member-3');
  assert.is(session.playback, null);
  const media = requests.filter((r) => r.url.startsWith(cdn) && isMedia(r.url));
  assert.ok(media.length > 0);
  for (const r of media) assert.not.ok(r.url.includes('/vsn_'), r.url);
  assert.equal(
    requests.filter((r) => r.url.endsWith('/playback')),
    [],
  );

  await page.waitForTimeout(8000);
  await player(page, 'p.video.pause()');
  const until = Date.now();
  const played = playedSeconds((await watchOf(page)).events, until);
  const item = await waitFor(
    'the viewer in the attendance list',
    async () => {
      const found = (await app.call('GET', `/v1/streams/${stream.id}/attendance`, { key })).body.data.find(
        (a: { viewer_id: string }) => a.viewer_id === 'member-3',
      );
      return found && Date.parse(found.last_seen_at) >= until && found;
    },
    15_000,
    500,
  );
  assert.ok(
    item.watch_seconds > 0 && Math.abs(item.watch_seconds - played) < 10,
    `${item.watch_seconds} s listed, ${played.toFixed(1)} s played`,
  );
  await page.close();
});

t.run();
