import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execa } from 'execa';
import { packageRoot } from '../../src/core/package-root.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { streamOf } from '../helpers/broadcast.js';
import { runPublisher, waitFor, type Publisher } from '../helpers/publisher.js';

/**
 * docs/publishing.md's ffmpeg command, taken from the page itself so that the two cannot drift:
 * the one fenced block that runs ffmpeg, its input swapped for a small test picture and a 44.1 kHz
 * tone (the command's own settings make them 30 fps, 2-second keyframes and 48 kHz AAC), its URL
 * for the stream's.
 */
function documentedCommand(): string[] {
  const page = readFileSync(join(packageRoot, 'docs', 'publishing.md'), 'utf8');
  const blocks = [...page.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => (m[1] as string).replace(/\\\n/g, ' ').trim());
  const commands = blocks.filter((b) => b.startsWith('ffmpeg '));
  assert.is(commands.length, 1, 'one ffmpeg block in docs/publishing.md');
  // Words as the shell splits them: the page quotes only the URL, with double quotes.
  return [...(commands[0] as string).matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? (m[2] as string));
}

let app: TestAppliance;
let publisher: Publisher | undefined;

test.before(async () => {
  app = await startTestAppliance();
});
test.after(async () => {
  await publisher?.kill();
  await app.close();
});

test('the ffmpeg command in docs/publishing.md goes live with no ingest warning and 2-second keyframes', async () => {
  const words = documentedCommand();
  assert.is(words[0], 'ffmpeg');
  const input = words.indexOf('-i');
  assert.ok(input > 0, 'the command reads an input');
  const url = words.length - 1;
  assert.match(words[url] as string, /^rtmp:\/\/.+\/live\/str_/, 'the command ends with the RTMP URL');

  const { key } = await app.newAccount();
  const created = (await app.call('POST', '/v1/streams', { key, body: { max_resolution: 720, record: false } })).body;
  const args = [...words.slice(1)];
  args[url - 1] = app.rtmpUrl(created.stream_key);
  // 640x360 keeps the encoder's CPU small; lavfi gives video and audio from one input.
  args.splice(input - 1, 2, '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30[out0];sine=frequency=440:sample_rate=44100[out1]');
  publisher = runPublisher(args);

  const measured = await waitFor('the first measurement with keyframes', async () => {
    const s = await streamOf(app, key, created.id);
    return s.status === 'live' && s.ingest?.keyframe_interval_seconds !== null && s.ingest?.kbps !== null && s.ingest;
  }, 40_000);
  // Every measurement for a while after (the test appliance measures every second over 4 s).
  const seen = [measured];
  while (seen.length < 12) {
    await new Promise((r) => setTimeout(r, 1000));
    const s = await streamOf(app, key, created.id);
    assert.is(s.status, 'live', 'still live');
    seen.push(s.ingest);
  }
  for (const m of seen) {
    assert.is(m.limit_warning, null, JSON.stringify(m));
    assert.is(m.keyframe_warning, false, JSON.stringify(m));
    assert.equal([m.width, m.height], [640, 360]);
    assert.ok(m.kbps > 0 && m.kbps < 6500, `under 6 Mbps of video plus audio: ${m.kbps} kbps`);
  }
  const intervals = seen.map((m) => m.keyframe_interval_seconds).filter((x) => x !== null);
  assert.ok(intervals.every((x) => Math.abs(x - 2) < 0.05), `2-second keyframes: ${intervals.join(', ')}`);

  // What viewers get: H.264 High and AAC LC at 48 kHz.
  const playback: string = (await streamOf(app, key, created.id)).playback_url;
  const master = await (await fetch(playback)).text();
  assert.match(master, /CODECS="avc1\.64[0-9a-f]{4},mp4a\.40\.2"/);
  const base = playback.replace(/master\.m3u8$/, '');
  const media = await (await fetch(`${base}source.m3u8`)).text();
  const segment = /^(\S+\.ts)$/m.exec(media)?.[1];
  const audio = await execa('ffprobe', ['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=codec_name,sample_rate', '-of', 'json', `${base}${segment}`]);
  assert.equal(JSON.parse(audio.stdout).streams, [{ codec_name: 'aac', sample_rate: '48000' }]);
});

test.run();
