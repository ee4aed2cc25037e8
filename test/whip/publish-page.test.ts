/**
 * The publish page in Debian's Chromium with a fake camera and microphone: go live over WHIP,
 * the stream is live and plays (H.264 + AAC), the page shows it, stop → the reconnect window →
 * ended, the recording is ready. A 720p camera gets the 720p source's ladder from its first
 * frame. A wrong key is refused with a clear message. Screenshots go to test-output/publish/.
 */
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execa } from 'execa';
import type { Browser } from 'playwright-core';
import { withPublishUrl } from '../../src/cli/streams.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { streamOf } from '../helpers/broadcast.js';
import { launchChromium, outputDir } from '../helpers/browser.js';
import { ffprobeSegmentArgs, parseSegmentProbe } from '../helpers/ffprobe.js';
import { waitFor } from '../helpers/publisher.js';

let app: TestAppliance;
let browser: Browser;
let key: string;
const shots = outputDir('publish');

test.before(async () => {
  app = await startTestAppliance();
  ({ key } = await app.newAccount());
  // Chromium leaves loopback out of its ICE candidates unless told; the fake devices need no person.
  browser = await launchChromium([
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
    '--allow-loopback-in-peer-connection',
  ]);
});
test.after(async () => {
  await browser?.close();
  await app?.close();
});

test('go live from the publish page, see it live, stop: ended after the window, recording ready', async () => {
  const created = withPublishUrl((await app.call('POST', '/v1/streams', { key, body: { max_resolution: 480 } })).body);
  const url = created.publish_url as string;
  assert.is(url.split('#')[0], `${app.config.publicUrls.player_url}/publish/${created.id}`);
  const page = await browser.newPage();
  await page.goto(url);
  await page.waitForSelector('#go:not([disabled])', { timeout: 15_000 });
  assert.match((await page.textContent('#state')) ?? '', /waiting/);
  assert.ok((await page.$$eval('#camera option', (o) => o.length)) >= 1, 'a camera to choose');
  await page.click('#go');
  await page.waitForSelector('#svc-publish[data-state="live"]', { timeout: 30_000 });
  await page.screenshot({ path: join(shots, '1-live.png') });
  assert.match((await page.textContent('#state')) ?? '', /LIVE/);

  const live = await streamOf(app, key, created.id);
  assert.is(live.status, 'live');
  const master = await waitFor(
    'a playable master',
    async () => {
      const res = await fetch(live.playback_url);
      return res.status === 200 && (await res.text());
    },
    30_000,
  );
  assert.match(master, /CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"/);
  const base = live.playback_url.replace(/master\.m3u8$/, '');
  const segment = /^(source_\d{5}\.ts)$/m.exec(await (await fetch(`${base}source.m3u8`)).text())?.[1];
  assert.ok(segment);
  const probe = JSON.parse(
    (await execa('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name', '-of', 'json', `${base}${segment}`]))
      .stdout,
  );
  assert.equal(probe.streams.map((s: { codec_name: string }) => s.codec_name).sort(), ['aac', 'h264']);

  const liveFor = performance.now();
  await waitFor('6 s live', async () => performance.now() - liveFor > 6000);
  await page.click('#stop');
  await waitFor('the WHIP session closed', async () => !app.running.whip.publishes(created.id));
  assert.is(await page.getAttribute('#svc-publish', 'data-state'), 'idle');
  const ended = await waitFor(
    'ended after the reconnect window',
    async () => {
      const s = await streamOf(app, key, created.id);
      return s.status === 'ended' && s;
    },
    40_000,
  );
  assert.is(ended.end_reason, 'disconnected');
  await page.waitForFunction(() => document.getElementById('state')?.dataset.status === 'ended', undefined, {
    timeout: 15_000,
  });
  const ready = await waitFor(
    'recording ready',
    async () => {
      const s = await streamOf(app, key, created.id);
      return s.recording.status === 'ready' && s;
    },
    60_000,
  );
  assert.ok(ready.recording.duration_seconds >= 5, `recording ${ready.recording.duration_seconds} s`);
  await page.close();
});

test('a 720p camera: the page holds its size, the stream gets the 720p ladder, its source segments are 1280x720', async () => {
  const created = withPublishUrl(
    (await app.call('POST', '/v1/streams', { key, body: { max_resolution: 720, record: false } })).body,
  );
  const page = await browser.newPage();
  await page.goto(created.publish_url as string);
  await page.waitForSelector('#go:not([disabled])', { timeout: 15_000 });
  await page.click('#go');
  const base = (created.playback_url as string).replace(/master\.m3u8$/, '');
  // Left to itself Chromium starts at 640x360 and the ladder would be the source's alone.
  const master = await waitFor(
    'a master with two renditions',
    async () => {
      const res = await fetch(created.playback_url as string);
      const text = res.status === 200 && (await res.text());
      return text && /NAME="480p"/.test(text) && text;
    },
    30_000,
  );
  assert.match(master, /RESOLUTION=1280x720,[^\n]*NAME="source"/);
  assert.match(master, /RESOLUTION=854x480,[^\n]*NAME="480p"/);
  assert.equal((await streamOf(app, key, created.id)).renditions, ['source', '480p']);
  const first = /^(source_\d{5}\.ts)$/m.exec(await (await fetch(`${base}source.m3u8`)).text())?.[1];
  assert.ok(first);
  const probe = parseSegmentProbe((await execa('ffprobe', ffprobeSegmentArgs(`${base}${first}`))).stdout);
  assert.equal(probe.video && [probe.video.width, probe.video.height], [1280, 720], `${first} from the first frame`);
  assert.ok(probe.audio, 'the segment has its audio');
  await page.click('#stop');
  await app.call('DELETE', `/v1/streams/${created.id}`, { key });
  await page.close();
});

test('a wrong key: the page says the link is not valid, the stream stays pending', async () => {
  const created = (await app.call('POST', '/v1/streams', { key, body: { max_resolution: 480 } })).body;
  const page = await browser.newPage();
  await page.goto(`${app.config.publicUrls.player_url}/publish/${created.id}#key=not-the-key`);
  await page.waitForSelector('#go:not([disabled])', { timeout: 15_000 });
  await page.click('#go');
  await page.waitForFunction(() => /not valid/.test(document.getElementById('error')?.textContent ?? ''), undefined, {
    timeout: 15_000,
  });
  await page.screenshot({ path: join(shots, '2-wrong-key.png') });
  assert.is((await streamOf(app, key, created.id)).status, 'pending');
  await page.close();
});

test.run();
