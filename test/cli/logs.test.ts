import { appendFileSync, closeSync, existsSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rotateIfLarge } from '../../src/platform/system/log-rotation.js';
import { makeDataDir, svc } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';
import { waitFor } from '../helpers/publisher.js';

test('rotateIfLarge: past max_bytes the file is copied to .1 and truncated, older copies shift, at most `keep` kept; an appending writer goes on in the same file', async () => {
  const { dir, remove } = makeDataDir();
  try {
    const file = join(dir, 'a.log');
    const fd = openSync(file, 'a');
    const settings = { max_bytes: 100, keep: 2 };
    writeSync(fd, 'x'.repeat(100));
    assert.is(await rotateIfLarge(file, settings), false, 'at the limit: kept');
    for (const round of [1, 2, 3]) {
      writeSync(fd, `${round}`.repeat(150));
      assert.is(await rotateIfLarge(file, settings), true);
      assert.is(readFileSync(file, 'utf8'), '');
    }
    assert.is(readFileSync(`${file}.1`, 'utf8'), '3'.repeat(150));
    assert.is(readFileSync(`${file}.2`, 'utf8'), '2'.repeat(150));
    assert.not.ok(existsSync(`${file}.3`), 'the oldest is dropped');
    writeSync(fd, 'after');
    closeSync(fd);
    assert.is(readFileSync(file, 'utf8'), 'after', 'the writer appends at the start of the truncated file, no hole');
  } finally {
    remove();
  }
});

test('svc up --detach: every line of svc.log is JSON (its own console too); svc.log is rotated at a small size, the CDN log by its reader', async () => {
  const { dir, remove } = makeDataDir();
  const ports = {
    api: await freePort(),
    postgres: await freePort(),
    rtmp: await freePort(),
    cdn: await freePort(),
    player: await freePort(),
  };
  const portFlags = [
    '--api-port',
    `${ports.api}`,
    '--postgres-port',
    `${ports.postgres}`,
    '--rtmp-port',
    `${ports.rtmp}`,
    '--cdn-port',
    `${ports.cdn}`,
    '--player-port',
    `${ports.player}`,
  ];
  const log = join(dir, 'logs', 'svc.log');
  const cdnLog = join(dir, 'logs', 'cdn-access.log');
  const jsonLines = (file: string) => {
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    for (const line of lines) assert.not.throws(() => JSON.parse(line), `not JSON in ${file}: ${line}`);
    return lines.map((l) => JSON.parse(l) as { level: number; msg: string });
  };
  try {
    assert.is((await svc(['init', '--no-install', ...portFlags, '--data-dir', dir], { timeoutMs: 150_000 })).code, 0);
    const configFile = join(dir, 'config.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        ...JSON.parse(readFileSync(configFile, 'utf8')),
        logs: { max_bytes: 4096, keep: 2, check_seconds: 1 },
        cdn: { log_read_seconds: 1 },
      }),
    );

    // A start that fails: the API port is taken. The child's last words are a JSON line, and the parent names them.
    const blocker = createServer();
    await new Promise<void>((r) => blocker.listen(ports.api, '127.0.0.1', r));
    const failed = await svc(['up', '--detach', '--json', '--data-dir', dir], { timeoutMs: 150_000 });
    blocker.close();
    assert.is(failed.code, 1, failed.stderr);
    assert.is(failed.json.error.code, 'start_failed');
    assert.match(failed.json.error.message, /before it answered: .*already in use/);
    assert.ok(jsonLines(log).some((l) => l.level === 50 && /already in use/.test(l.msg)));

    const up = await svc(['up', '--detach', '--data-dir', dir], { timeoutMs: 150_000 });
    assert.is(up.code, 0, up.stderr);
    // Requests the CDN logs (a 404 each), about 300 bytes a line: past 4096 bytes within a few.
    for (let i = 0; i < 40; i++) await fetch(`http://127.0.0.1:${ports.cdn}/${'n'.repeat(250)}-${i}`);
    // The CDN log reader renames it, has nginx reopen, reads the old file to its end and deletes it.
    await waitFor(
      'the CDN log rotated',
      async () => jsonLines(log).some((l) => l.msg === 'CDN log rotated; reading the rest of the old file'),
      10_000,
    );
    await fetch(`http://127.0.0.1:${ports.cdn}/after-rotation`);
    await waitFor(
      'nginx writing a new file',
      async () =>
        readFileSync(cdnLog, 'utf8').includes('/after-rotation') && !readFileSync(cdnLog, 'utf8').includes('-0"'),
      10_000,
    );
    await waitFor('the old file read and deleted', async () => !existsSync(`${cdnLog}.rotated`), 15_000);
    // The appliance log grows slowly at info level: one long line, as a writer appending to it would add, takes it past the limit.
    appendFileSync(
      log,
      `${JSON.stringify({ level: 30, time: new Date().toISOString(), msg: 'filler '.repeat(700) })}\n`,
    );
    await waitFor('svc.log rotated', async () => existsSync(`${log}.1`), 10_000);
    await waitFor(
      'svc.log written on after its rotation',
      async () => jsonLines(log).some((l) => l.msg === 'log rotated'),
      10_000,
    );
  } finally {
    const down = await svc(['down', '--data-dir', dir]);
    assert.is(down.code, 0, down.stderr);
    for (const file of [log, `${log}.1`]) if (existsSync(file)) jsonLines(file);
    remove();
  }
});

test.run();
