/**
 * A WHIP publisher that starts small and grows (as a browser does while its bandwidth estimate
 * ramps up, unless told to hold its size): the ladder, planned from the first frames, grows
 * with it. The publisher is werift in the test process sending a clip that goes from 640x360
 * to 1280x720; 2-second segments keep the run short.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execa } from 'execa';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { streamOf } from '../helpers/broadcast.js';
import { ffprobeSegmentArgs, parseSegmentProbe } from '../helpers/ffprobe.js';
import { waitFor } from '../helpers/publisher.js';
import { clipSource, whipPublish, type WhipPublisher } from '../helpers/whip-client.js';

let app: TestAppliance;
let key: string;
let dir: string;
const publishers: WhipPublisher[] = [];

/** `seconds` of a test pattern at `size` starting at `from`, H.264 with its headers before every keyframe (one a second), in MPEG-TS. */
async function part(name: string, size: string, seconds: number, from: number): Promise<string> {
  const file = join(dir, `${name}.ts`);
  await execa('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=15:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-profile:v', 'baseline', '-pix_fmt', 'yuv420p'],
    ...['-g', '15', '-keyint_min', '15', '-sc_threshold', '0', '-x264-params', 'repeat-headers=1'],
    ...['-c:a', 'aac', '-output_ts_offset', String(from), file],
  ]);
  return file;
}

test.before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-whip-grow-'));
  app = await startTestAppliance({ live: { segment_seconds: 2, window_segments: 10 } });
  ({ key } = await app.newAccount());
});
test.after(async () => {
  await Promise.all(publishers.map((p) => p.vanish()));
  await app.close();
  rmSync(dir, { recursive: true, force: true });
});

test('640x360 then 1280x720: the ladder grows to source + 480p, the playlists continue', async () => {
  const clip = join(dir, 'grows.ts');
  const parts = [await part('small', '640x360', 4, 0), await part('large', '1280x720', 10, 4)];
  await execa('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-i', `concat:${parts.join('|')}`, '-c', 'copy', clip]);

  const created = (await app.call('POST', '/v1/streams', { key, body: { max_resolution: 720, record: false } })).body;
  const pub = await whipPublish(created.whip_url, clipSource(clip, { headersInBand: true }));
  publishers.push(pub);
  assert.is(pub.status, 201, pub.body);
  // Until its ladder starts, a stream shows the renditions its declared size would get.
  const live = await waitFor('live, its ladder planned from the first frames', async () => {
    const s = await streamOf(app, key, created.id);
    return s.status === 'live' && s.renditions.length === 1 && s;
  });
  assert.equal(live.renditions, ['source']);

  const grown = await waitFor(
    'the stream lists the grown ladder',
    async () => {
      const s = await streamOf(app, key, created.id);
      return s.renditions.length === 2 && s;
    },
    30_000,
  );
  assert.equal(grown.renditions, ['source', '480p']);
  const master = await waitFor(
    'the master lists 480p',
    async () => {
      const text = await (await fetch(live.playback_url)).text();
      return /NAME="480p"/.test(text) && text;
    },
    20_000,
  );
  assert.match(master, /RESOLUTION=1280x720,[^\n]*NAME="source"/);
  const base = live.playback_url.replace(/master\.m3u8$/, '');
  const low = /^(480p_\d{5}\.ts)$/m.exec(await (await fetch(`${base}480p.m3u8`)).text())?.[1];
  assert.ok(low);
  const probe = parseSegmentProbe((await execa('ffprobe', ffprobeSegmentArgs(`${base}${low}`))).stdout);
  assert.equal(probe.video && [probe.video.width, probe.video.height], [854, 480]);

  // The copied rendition went on in the same playlist: numbering continues, the join is marked.
  const source = await (await fetch(`${base}source.m3u8`)).text();
  assert.match(source, /#EXT-X-DISCONTINUITY\n(#EXT-X-PROGRAM-DATE-TIME:.*\n)?#EXTINF/);
  const numbers = [...source.matchAll(/^source_(\d{5})\.ts$/gm)].map((m) => Number(m[1]));
  assert.equal(
    numbers,
    numbers.map((_, i) => (numbers[0] as number) + i),
    'no segment left out',
  );
  await pub.stop();
});

test.run();
