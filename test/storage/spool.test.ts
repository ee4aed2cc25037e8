import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { FsStore } from '../../src/platform/storage/fs-store.js';
import { Spool, SpoolFullError } from '../../src/platform/storage/spool.js';
import type { ObjectStore } from '../../src/platform/storage/store.js';

const logger = pino({ level: 'silent' });
const retry = { minTimeoutMs: 20, maxTimeoutMs: 50 };

/** A store that fails while `down` (a bucket that does not answer), else writes to a folder. */
function flaky(root: string): ObjectStore & { down: boolean } {
  const fs = new FsStore(root);
  const s = {
    kind: 'local' as const,
    down: false,
    put: (k: string, b: Buffer | string) => (s.down ? Promise.reject(new Error('no answer')) : fs.put(k, b)),
    putFile: (k: string, p: string) => (s.down ? Promise.reject(new Error('no answer')) : fs.putFile(k, p)),
    get: (k: string) => fs.get(k),
    getFile: (k: string, p: string) => fs.getFile(k, p),
    list: (p: string) => fs.list(p),
    delete: (k: string) => fs.delete(k),
    deletePrefix: (p: string) => fs.deletePrefix(p),
    check: () => (s.down ? Promise.reject(new Error('no answer')) : Promise.resolve()),
  };
  return s;
}

const setup = () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-spool-'));
  const file = (name: string, bytes: number) => {
    const p = join(dir, name);
    writeFileSync(p, Buffer.alloc(bytes, name.charCodeAt(0)));
    return p;
  };
  return { dir, file, store: flaky(join(dir, 'bucket')), spoolDir: join(dir, 'spool') };
};

test('uploads in order; the caller may delete its file at once; the item leaves the spool', async () => {
  const { file, store, spoolDir } = setup();
  const spool = new Spool({ dir: spoolDir, store, maxBytes: 1e6, logger, retry });
  await spool.start();
  await spool.enqueue('recordings/a/recording.mp4', file('a', 1000));
  await spool.enqueue('sessions/b/x/000000000000', file('b', 10));
  await spool.idle();
  assert.is((await store.get('recordings/a/recording.mp4'))?.length, 1000);
  assert.equal(spool.readings().bytes, 0);
  assert.equal(spool.readings().uploads, 2);
  assert.equal(readdirSync(spoolDir), []);
  await spool.stop();
});

test('store down: items wait, figures show it, nothing lost after it answers again', async () => {
  const { file, store, spoolDir } = setup();
  store.down = true;
  const spool = new Spool({ dir: spoolDir, store, maxBytes: 1e6, logger, retry });
  await spool.start();
  await spool.enqueue('k/1', file('c', 100));
  await spool.enqueue('k/2', file('d', 200));
  await new Promise((r) => setTimeout(r, 200));
  const r = spool.readings();
  assert.is(r.up, false);
  assert.is(r.items, 2);
  assert.is(r.bytes, 300);
  assert.ok(r.failedAttempts >= 2);
  assert.match(r.lastError ?? '', 'no answer');
  store.down = false;
  await spool.idle();
  assert.is(spool.readings().up, true);
  assert.is((await store.get('k/2'))?.length, 200);
  await spool.stop();
});

test('a restart reads the spool back and uploads what waited', async () => {
  const { file, store, spoolDir } = setup();
  store.down = true;
  const first = new Spool({ dir: spoolDir, store, maxBytes: 1e6, logger, retry });
  await first.start();
  await first.enqueue('k/1', file('e', 100), { removeAfter: join(spoolDir, '..', 'e') });
  await first.stop();
  store.down = false;
  const second = new Spool({ dir: spoolDir, store, maxBytes: 1e6, logger, retry });
  await second.start();
  assert.is(second.readings().items, 1);
  await second.idle();
  assert.is((await store.get('k/1'))?.length, 100);
  assert.not.ok(existsSync(join(spoolDir, '..', 'e')), 'the local copy goes once uploaded');
  await second.stop();
});

test('full: a new item is refused with a clear error, none is dropped', async () => {
  const { file, store, spoolDir } = setup();
  store.down = true;
  const spool = new Spool({ dir: spoolDir, store, maxBytes: 150, logger, retry });
  await spool.start();
  await spool.enqueue('k/1', file('f', 100));
  try {
    await spool.enqueue('k/2', file('g', 100));
    assert.unreachable('refused');
  } catch (err) {
    assert.instance(err, SpoolFullError);
    assert.match((err as Error).message, 'storage.spool_max_mb');
  }
  assert.is(spool.readings().items, 1);
  assert.is(await spool.discard('k/'), 1, 'a deletion drops what waits under its prefix');
  store.down = false;
  await spool.idle();
  assert.is(await store.get('k/1'), null);
  await spool.stop();
});

test.run();
