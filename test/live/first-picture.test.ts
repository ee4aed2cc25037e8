import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execa } from 'execa';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';

/**
 * The ladder reads nginx's recording of the publish session, so the playlists start at the
 * publisher's first frame (pulling the live stream would join at its next keyframe), every
 * rendition at the same instant. A publisher that stalls keeps its ladder, which waits.
 */
const STALL_SECONDS = 6;
let app: TestAppliance;
let key: string;
const publishers: Publisher[] = [];

test.before(async () => {
  // nginx keeps a still publisher through the stall (tests shorten its patience to 3 s).
  app = await startTestAppliance({ live: { idle_publisher_seconds: STALL_SECONDS + 6 } });
  ({ key } = await app.newAccount({ trusted: true }));
});
test.after(async () => {
  await Promise.all(publishers.map((p) => p.kill()));
  await app.close();
});

const firstFrameMd5 = async (input: string) =>
  (
    await execa('ffmpeg', ['-v', 'error', '-i', input, '-map', '0:v:0', '-frames:v', '1', '-f', 'md5', '-'])
  ).stdout.trim();
const videoStart = async (input: string) =>
  Number(
    (
      await execa('ffprobe', [
        '-v',
        'error',
        '-select_streams',
        'v:0',
        '-show_entries',
        'stream=start_time',
        '-of',
        'csv=p=0',
        input,
      ])
    ).stdout
      .trim()
      .split('\n')[0],
  );
const ladderLogs = () =>
  readFileSync(join(app.dataDir, 'logs', 'svc.log'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

async function goLive(clip: string, opts: { loop?: boolean }) {
  const created = (await app.call('POST', '/v1/streams', { key, body: { max_resolution: 720 } })).body;
  const publisher = publish(app.rtmpUrl(created.stream_key), clip, opts);
  publishers.push(publisher);
  const master = await waitFor(
    'a playable master',
    async () => {
      const res = await fetch(created.playback_url);
      return res.status === 200 && (await res.text());
    },
    30_000,
  );
  return { created, publisher, master, base: (created.playback_url as string).replace(/master\.m3u8$/, '') };
}

const firstSegment = async (base: string, rendition: string) => {
  const media = await (await fetch(`${base}${rendition}.m3u8`)).text();
  const uri = /^(\S+\.ts)$/m.exec(media)?.[1];
  assert.ok(uri, media);
  return `${base}${uri}`;
};

test("the playlists start at the publisher's first frame, source and 480p at the same instant", async () => {
  // A 2 s keyframe interval: joining the live stream would lose up to 2 s.
  const clip = await makeClip({ width: 1280, height: 720, seconds: 12, gopSeconds: 2 });
  const { created, master, base } = await goLive(clip, {});
  assert.match(master, /source\.m3u8/);
  assert.match(master, /480p\.m3u8/);

  const source = await firstSegment(base, 'source');
  assert.match(source, /source_00000\.ts$/);
  assert.is(
    await firstFrameMd5(source),
    await firstFrameMd5(clip),
    "the copied rendition begins with the clip's first frame",
  );
  const encoded = await firstSegment(base, '480p');
  const [a, b] = [await videoStart(source), await videoStart(encoded)];
  assert.ok(Math.abs(a - b) < 0.04, `source starts at ${a}, 480p at ${b}`);

  const started = ladderLogs().find((l) => l.msg === 'ladder started' && l.stream_id === created.id);
  assert.is(started?.input, 'recording');
});

test(`a publisher still for ${STALL_SECONDS} s: the same ladder goes on once it sends again, nothing lost`, async () => {
  const clip = await makeClip({ width: 640, height: 360, seconds: 12, gopSeconds: 1 });
  const { created, publisher, base } = await goLive(clip, { loop: true });
  const numberOf = async () =>
    Number(/source_(\d{5})\.ts\s*$/.exec((await (await fetch(`${base}source.m3u8`)).text()).trim())?.[1]);
  const before = await numberOf();

  // Stopped, not gone: nginx keeps the connection (it drops idle publishers after 10 s).
  publisher.proc.kill('SIGSTOP');
  await new Promise((r) => setTimeout(r, STALL_SECONDS * 1000));
  publisher.proc.kill('SIGCONT');
  const after = await waitFor(
    'segments after the stall',
    async () => {
      const text = await (await fetch(`${base}source.m3u8`)).text();
      return Number(/source_(\d{5})\.ts\s*$/.exec(text.trim())?.[1]) > before + 2 && text;
    },
    30_000,
  );

  // ffmpeg marks its very first segment (append_list); a restarted ladder would add another mark later.
  assert.not.match(after.slice(after.indexOf('#EXTINF')), /#EXT-X-DISCONTINUITY/, after);
  const lines = ladderLogs().filter((l) => l.stream_id === created.id);
  assert.is(
    lines.filter((l) => l.msg === 'ladder started').length,
    1,
    JSON.stringify(lines.map((l) => [l.time, l.msg])),
  );
  assert.is((await app.call('GET', `/v1/streams/${created.id}`, { key })).body.status, 'live');
});

test.run();
