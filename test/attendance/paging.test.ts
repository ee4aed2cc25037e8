import * as assert from 'uvu/assert';
import { createLogger } from '../../src/core/logger.js';
import { AttendanceRecorder, type AttendanceViewer } from '../../src/domains/audience/attendance/recorder.js';
import { AttendanceService } from '../../src/domains/audience/attendance/service.js';
import { apiSuite, type TestApi } from '../helpers/api.js';
import { assertError, assertInvalidField, createStream } from '../helpers/streams.js';

const t = apiSuite('attendance: recorded, flushed and listed in byte order of viewer ids');

/**
 * Viewer ids whose byte order (UTF-8, collation "C") differs from case-insensitive order and from
 * JavaScript's UTF-16 order: upper before lower case, digits and `-` before letters, Latin-1,
 * CJK, U+FFFD before an emoji (UTF-16 puts the emoji's surrogates first).
 */
const PREFIXES = ['Pupil-', 'pupil-', '0', '-', 'émile', '日本', '\uFFFD', '🎥', 'Z', 'z'];
const viewerIds = (n: number) => Array.from({ length: n }, (_, i) => `${PREFIXES[i % PREFIXES.length]}${i}`);
const byteOrder = (ids: string[]) => [...ids].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

/** A stream of a new account (each may have only 2 pending streams). */
async function ownStream(env: TestApi) {
  const { key } = await env.newAccount();
  return { key, stream: await createStream(env, key) };
}

/** Every viewer's token session reports playing at 0, 30 and 60 s (60 s credited), flushed twice. */
async function record(env: TestApi, streamId: string, ids: string[]): Promise<void> {
  const { recorder } = env.api.attendance;
  const t0 = env.clock.now().getTime();
  const viewer = (id: string, i: number): AttendanceViewer => ({
    streamId,
    viewerId: id,
    name: i % 2 ? `Name, "${i}"` : null,
  });
  ids.forEach((id, i) => recorder.seen(viewer(id, i), t0));
  for (const s of [0, 30]) ids.forEach((id, i) => recorder.beat(viewer(id, i), `vsn_${i}`, 'p', t0 + s * 1000));
  assert.is(await env.api.attendance.flush(), ids.length);
  // The second flush's reports carry no name: the stored one stays.
  ids.forEach((id, i) => recorder.beat({ streamId, viewerId: id, name: null }, `vsn_${i}`, 'p', t0 + 60_000));
  assert.is(await env.api.attendance.flush(), ids.length);
}

t(
  '2,500 viewers: pages of 1000 after `next_after` return each once, in byte order, with the total',
  async ({ env }) => {
    const { key, stream } = await ownStream(env);
    const ids = viewerIds(2500);
    await record(env, stream.id, ids);

    const seen: string[] = [];
    const pages: { size: number; has_more: boolean; next_after: string | null }[] = [];
    let after: string | null = null;
    do {
      const query: string = after === null ? '' : `&after=${encodeURIComponent(after)}`;
      const res = await env.call('GET', `/v1/streams/${stream.id}/attendance?limit=1000${query}`, { key });
      assert.is(res.status, 200, res.text);
      assert.equal(Object.keys(res.body), ['object', 'data', 'has_more', 'next_after', 'total']);
      assert.is(res.body.object, 'list');
      assert.is(res.body.total, 2500);
      pages.push({ size: res.body.data.length, has_more: res.body.has_more, next_after: res.body.next_after });
      seen.push(...res.body.data.map((a: { viewer_id: string }) => a.viewer_id));
      after = res.body.next_after;
    } while (after !== null);
    const expected = byteOrder(ids);
    assert.equal(pages, [
      { size: 1000, has_more: true, next_after: expected[999] as string },
      { size: 1000, has_more: true, next_after: expected[1999] as string },
      { size: 500, has_more: false, next_after: null },
    ]);
    assert.equal(seen, expected);
    assert.is.not(expected.join(), [...ids].sort().join(), 'the ids tell byte order from UTF-16 order');

    const first = await env.call('GET', `/v1/streams/${stream.id}/attendance?limit=2`, { key });
    const t0 = env.clock.now();
    const named = ids.indexOf(first.body.data[0].viewer_id) % 2 === 1;
    assert.equal(first.body.data[0], {
      object: 'attendance',
      viewer_id: expected[0],
      name: named ? `Name, "${ids.indexOf(expected[0] as string)}"` : null,
      watch_seconds: 60,
      first_seen_at: t0.toISOString(),
      last_seen_at: new Date(t0.getTime() + 60_000).toISOString(),
    });
    assert.is(first.body.next_after, expected[1]);
    const byDefault = await env.call('GET', `/v1/streams/${stream.id}/attendance`, { key });
    assert.is(byDefault.body.data.length, 100);
    assert.is(byDefault.body.next_after, expected[99]);
  },
);

t('a stream without token viewers: an empty list', async ({ env }) => {
  const { key, stream } = await ownStream(env);
  const res = await env.call('GET', `/v1/streams/${stream.id}/attendance`, { key });
  assert.equal(res.body, { object: 'list', data: [], has_more: false, next_after: null, total: 0 });
});

t("another account's stream and unknown streams are 404; bad queries 400; no key 401", async ({ env }) => {
  const { key, stream } = await ownStream(env);
  const other = await env.newAccount();
  assertError(await env.call('GET', `/v1/streams/${stream.id}/attendance`, { key: other.key }), 404, 'not_found');
  assertError(await env.call('GET', '/v1/streams/str_doesnotexist00000000/attendance', { key }), 404, 'not_found');
  assertError(await env.call('GET', '/v1/streams/nonsense/attendance', { key }), 404, 'not_found');
  assertInvalidField(await env.call('GET', `/v1/streams/${stream.id}/attendance?limit=1001`, { key }), 'limit');
  assertInvalidField(await env.call('GET', `/v1/streams/${stream.id}/attendance?limit=0`, { key }), 'limit');
  assertInvalidField(
    await env.call('GET', `/v1/streams/${stream.id}/attendance?starting_after=x`, { key }),
    'starting_after',
  );
  assertInvalidField(await env.call('GET', `/v1/streams/${stream.id}/attendance?after=`, { key }), 'after');
  assertInvalidField(
    await env.call('GET', `/v1/streams/${stream.id}/attendance?after=${'x'.repeat(65)}`, { key }),
    'after',
  );
  assertInvalidField(await env.call('GET', `/v1/streams/${stream.id}/attendance?after=a%00b`, { key }), 'after');
  assertError(await env.call('GET', `/v1/streams/${stream.id}/attendance`), 401, 'unauthorized');
});

const refused = (service: AttendanceService) =>
  service.flush().then(
    () => false,
    () => true,
  );

t('rows the database refuses are kept and written with the next flush, up to the bound', async ({ env }) => {
  const { stream } = await ownStream(env);
  const { sql } = env.db;
  const t0 = env.clock.now().getTime();
  const service = new AttendanceService({
    sql,
    clock: env.clock,
    logger: createLogger('silent'),
    recorder: new AttendanceRecorder({ intervalSeconds: 30 }),
    flushSeconds: 3600,
    maxUnwritten: 3,
  });
  const viewer = (id: string): AttendanceViewer => ({ streamId: stream.id, viewerId: id, name: id.toUpperCase() });
  for (const id of ['a', 'b', 'c', 'd']) {
    service.recorder.beat(viewer(id), `vsn_${id}`, 'p', t0);
    service.recorder.beat(viewer(id), `vsn_${id}`, 'p', t0 + 20_000);
  }
  // The database refuses every new row until the constraint goes (whatever fails, before the next test).
  await sql`alter table attendance add constraint refuse_all check (false) not valid`;
  try {
    assert.ok(await refused(service));
    assert.is(service.pending, 3, 'kept up to the bound (a, b and c: the first in byte order)');
    assert.ok(await refused(service));
    assert.is(service.pending, 3);
    service.recorder.beat(viewer('a'), 'vsn_a', 'p', t0 + 50_000);
  } finally {
    await sql`alter table attendance drop constraint refuse_all`;
  }
  assert.is(await service.flush(), 3);
  assert.is(service.pending, 0);
  const rows = await sql<{ viewer_id: string; watch_seconds: number; name: string }[]>`
    select viewer_id, watch_seconds, name from attendance where stream_id = ${stream.id} order by viewer_id`;
  assert.equal(
    [...rows],
    [
      { viewer_id: 'a', watch_seconds: 50, name: 'A' },
      { viewer_id: 'b', watch_seconds: 20, name: 'B' },
      { viewer_id: 'c', watch_seconds: 20, name: 'C' },
    ],
  );
});

t('stop writes what is left; rows of streams that do not exist are skipped, not a failed batch', async ({ env }) => {
  const { key, stream } = await ownStream(env);
  const service = new AttendanceService({
    sql: env.db.sql,
    clock: env.clock,
    logger: createLogger('silent'),
    recorder: new AttendanceRecorder({ intervalSeconds: 30 }),
    flushSeconds: 3600,
  });
  const stop = service.start();
  const t0 = env.clock.now().getTime();
  service.recorder.seen({ streamId: 'str_gone0000000000000000', viewerId: 'x', name: null }, t0);
  service.recorder.seen({ streamId: stream.id, viewerId: 'late', name: 'Late' }, t0);
  await stop();
  const res = await env.call('GET', `/v1/streams/${stream.id}/attendance`, { key });
  assert.equal(
    res.body.data.map((a: { viewer_id: string; watch_seconds: number }) => [a.viewer_id, a.watch_seconds]),
    [['late', 0]],
  );
  assert.is(service.pending, 0);
});

t.run();
