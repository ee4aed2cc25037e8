import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsStore, checkKey } from '../../src/platform/storage/fs-store.js';

const fresh = () => new FsStore(mkdtempSync(join(tmpdir(), 'svc-fs-store-')));

test('put, get, list in key order and delete', async () => {
  const store = fresh();
  await store.put('origin/str_a/v1.m3u8', '#EXTM3U\n');
  await store.put('origin/str_a/720p_00002.ts', Buffer.alloc(10));
  await store.put('origin/str_b/master.m3u8', 'b');
  assert.is((await store.get('origin/str_a/v1.m3u8'))?.toString(), '#EXTM3U\n');
  assert.is(await store.get('origin/str_a/missing.ts'), null);
  assert.equal(await store.list('origin/str_a/'), [
    { key: 'origin/str_a/720p_00002.ts', bytes: 10 },
    { key: 'origin/str_a/v1.m3u8', bytes: 8 },
  ]);
  assert.equal(
    (await store.list('origin/str_')).map((o) => o.key),
    ['origin/str_a/720p_00002.ts', 'origin/str_a/v1.m3u8', 'origin/str_b/master.m3u8'],
  );
  await store.delete('origin/str_a/v1.m3u8');
  await store.delete('origin/str_a/v1.m3u8');
  assert.is(await store.get('origin/str_a/v1.m3u8'), null);
});

test('a put replaces the whole object and leaves no temporary file', async () => {
  const store = fresh();
  await store.put('thumbs/str_a.jpg', 'old');
  await store.put('thumbs/str_a.jpg', 'new');
  assert.equal(readdirSync(join(store.root, 'thumbs')), ['str_a.jpg']);
  assert.is((await store.get('thumbs/str_a.jpg'))?.toString(), 'new');
});

test('putFile and getFile copy whole files', async () => {
  const store = fresh();
  const src = join(store.root, 'src.bin');
  writeFileSync(src, Buffer.alloc(1000, 7));
  await store.putFile('recordings/str_a/recording.mp4', src);
  const out = join(store.root, 'out.bin');
  assert.ok(await store.getFile('recordings/str_a/recording.mp4', out));
  assert.ok(existsSync(out));
  assert.not.ok(await store.getFile('recordings/str_b/recording.mp4', out));
});

test('deletePrefix removes a folder and counts what went', async () => {
  const store = fresh();
  await store.put('sessions/str_a/s1/000001', 'x');
  await store.put('sessions/str_a/s1/000002', 'y');
  await store.put('sessions/str_b/s1/000001', 'z');
  assert.is(await store.deletePrefix('sessions/str_a/'), 2);
  assert.not.ok(existsSync(join(store.root, 'sessions', 'str_a')));
  assert.is((await store.list('sessions/')).length, 1);
});

test('keys that leave the root are refused', () => {
  for (const bad of ['../x', '/etc/passwd', 'a/../../b', 'a//b/..', 'a b', '']) {
    assert.throws(() => checkKey(bad), /invalid storage key/, bad);
  }
  assert.is(checkKey('origin/str_a/720p_00001.ts'), 'origin/str_a/720p_00001.ts');
});

test.run();
