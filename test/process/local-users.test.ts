import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { dataPaths } from '../../src/config/paths.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { deleteDropsPublisher, streamOf } from '../helpers/broadcast.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';

/**
 * Another local user (`nobody`) reaches nothing of the appliance's under its data dir: no log,
 * config, secret, media file, listing or nginx control socket; while nginx's workers still serve
 * the stream and its recording, and PostgreSQL's user still reaches its own (docs/decisions.md,
 * "Hardening: data dir modes"). The data dir starts as an older version left it: its modes are
 * fixed by the start.
 */
let app: TestAppliance;
let key: string;
let paths: ReturnType<typeof dataPaths>;
const publishers: Publisher[] = [];

/** `argv` run as nobody: its exit code and what it said. */
async function asNobody(argv: string[]): Promise<{ code: number; out: string }> {
  const res = await execa('setpriv', ['--reuid=nobody', '--regid=nogroup', '--clear-groups', ...argv], {
    reject: false,
    all: true,
    timeout: 10_000,
  });
  return { code: res.exitCode ?? -1, out: res.all ?? '' };
}

/** What nobody managed, of the things it must not: all of it named at once. */
const leaks: string[] = [];
async function refused(what: string, argv: string[]): Promise<void> {
  const res = await asNobody(argv);
  if (res.code === 0) leaks.push(`${what}: ${JSON.stringify(res.out.slice(0, 80))}`);
}

const firstFile = (dir: string, pattern: RegExp): string | undefined => {
  const name = readdirSync(dir).find((n) => pattern.test(n));
  return name && join(dir, name);
};

test.before(async () => {
  app = await startTestAppliance(
    {},
    {
      // What an older version left: files and folders every local user could read.
      beforeStart: (dir) => {
        writeFileSync(join(dir, 'config.json'), '{}\n', { mode: 0o644 });
        writeFileSync(join(dir, 'secrets.json'), '{"signing_key":"old"}\n', { mode: 0o644 });
        mkdirSync(join(dir, 'logs'), { mode: 0o755 });
        writeFileSync(join(dir, 'logs', 'svc.log.1'), 'old lines\n', { mode: 0o644 });
        mkdirSync(join(dir, 'media', 'recordings', 'str_old'), { recursive: true, mode: 0o755 });
        chmodSync(join(dir, 'media'), 0o755);
        writeFileSync(join(dir, 'media', 'recordings', 'str_old', 'recording.mp4'), 'old', { mode: 0o644 });
      },
    },
  );
  ({ key } = await app.newAccount());
  paths = dataPaths(app.dataDir);
});
test.after(async () => {
  await Promise.all(publishers.map((p) => p.kill()));
  await app.close();
});

test('nobody reads no log, config, secret, media file or listing, and cannot reach nginx control; nginx still serves and records', async () => {
  const created = (await app.call('POST', '/v1/streams', { key, body: { max_resolution: 480 } })).body;
  const pub = publish(app.rtmpUrl(created.stream_key), await makeClip({ width: 640, height: 360, seconds: 4 }), {
    loop: true,
  });
  publishers.push(pub);
  const live = await waitFor('live', async () => {
    const s = await streamOf(app, key, created.id);
    return s.status === 'live' && s;
  });
  // nginx's workers (www-data) read the origin through the protected folders.
  const base = live.playback_url.replace(/master\.m3u8$/, '');
  const segment = await waitFor(
    'a segment through the CDN',
    async () => {
      const media = await (await fetch(`${base}source.m3u8`)).text();
      const name = /^(source_\d{5}\.ts)$/m.exec(media)?.[1];
      return name && (await fetch(`${base}${name}`)).status === 200 && name;
    },
    30_000,
  );

  // The refusals below are the modes', not a broken setpriv or curl: nobody runs, root reaches the socket.
  assert.is((await asNobody(['cat', '/etc/hostname'])).code, 0);
  assert.match(
    (await execa('curl', ['-sf', '--max-time', '3', '--unix-socket', paths.nginxControl, 'http://x/stat'])).stdout,
    /<rtmp>/,
  );

  const origin = join(paths.origin, created.id, segment);
  const ingest = firstFile(paths.ingest, new RegExp(`^${created.id}.*\\.flv$`));
  assert.ok(existsSync(origin) && ingest, 'the files nobody must not read are there');
  for (const [what, file] of Object.entries({
    'svc.log': paths.applianceLog,
    'a rotated log of an older version': join(paths.logs, 'svc.log.1'),
    'the CDN log': paths.cdnLog,
    'config.json': paths.config,
    'secrets.json': paths.secrets,
    'nginx.conf (the CDN signing secret)': paths.nginxConf,
    'cdn-viewer.js': paths.cdnViewerScript,
    'an origin segment': origin,
    'an ingest FLV': ingest as string,
    'a recording of an older version': join(paths.recordings, 'str_old', 'recording.mp4'),
    'nginx.pid': paths.nginxPid,
  })) {
    await refused(`reading ${what}`, ['cat', file]);
  }
  for (const dir of [
    app.dataDir,
    paths.logs,
    paths.run,
    paths.nginx,
    paths.media,
    paths.origin,
    paths.ingest,
    paths.recordings,
  ]) {
    await refused(`listing ${dir}`, ['ls', dir]);
  }
  await refused('nginx statistics (publisher addresses)', [
    'curl',
    '-sf',
    '--max-time',
    '3',
    '--unix-socket',
    paths.nginxControl,
    'http://x/stat',
  ]);
  await refused('dropping the publisher', [
    'curl',
    '-sf',
    '--max-time',
    '3',
    '--unix-socket',
    paths.nginxControl,
    `http://x/control/drop/publisher?app=live&name=${created.id}`,
  ]);
  assert.equal(leaks, [], leaks.join('\n'));
  assert.is((await streamOf(app, key, created.id)).status, 'live');
  assert.is(pub.proc.exitCode, null, 'the publisher is still connected');
  for (const file of [paths.applianceLog, paths.cdnLog, paths.config, paths.secrets, paths.nginxConf]) {
    assert.is(statSync(file).mode & 0o077, 0, `${file} is its owner's only`);
  }

  // The recording is made and served (nginx's workers read recordings/), and nobody reads the file.
  await deleteDropsPublisher(app, key, created.id, pub);
  const ready = await waitFor(
    'recording ready',
    async () => {
      const s = await streamOf(app, key, created.id);
      return s.recording.status === 'ready' && s;
    },
    60_000,
  );
  assert.ok(ready.recording.bytes > 0);
  const download = (await app.call('POST', `/v1/streams/${created.id}/recording/download`, { key })).body;
  assert.is((await fetch(download.url, { headers: { range: 'bytes=0-99' } })).status, 206);
  await refused('reading the recording', ['cat', join(paths.recordings, created.id, 'recording.mp4')]);
  assert.equal(leaks, [], leaks.join('\n'));
});

test("the CDN log nginx reopens after a rotation is its owner's only, and nginx writes it", async () => {
  renameSync(paths.cdnLog, `${paths.cdnLog}.test-rotated`);
  assert.ok(app.running.nginx.reopenLogs());
  await waitFor('a line in the new CDN log', async () => {
    await fetch(`${app.config.publicUrls.cdn_url}/healthz-nothing`);
    return existsSync(paths.cdnLog) && statSync(paths.cdnLog).size > 0;
  });
  assert.is(statSync(paths.cdnLog).mode & 0o077, 0);
  await refused('reading the new CDN log', ['cat', paths.cdnLog]);
  assert.equal(leaks, [], leaks.join('\n'));
});

test.run();
