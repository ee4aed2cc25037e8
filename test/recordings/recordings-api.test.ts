import * as assert from 'uvu/assert';
import { apiSuite } from '../helpers/api.js';
import { assertError, assertInvalidField, createStream, eventsOf, goLive } from '../helpers/streams.js';
import { lockStream } from '../../src/domains/streams/model.js';
import * as transitions from '../../src/domains/streams/transitions.js';

const t = apiSuite('recordings API');

const endStream = (env: Parameters<Parameters<typeof t>[1]>[0]['env'], accountId: string, id: string) =>
  env.db.sql.begin(async (tx) =>
    transitions.end(tx, (await lockStream(tx, accountId, id))!, 'deleted', env.clock.now()),
  );

t('download before ready: 409 recording_not_ready with details.status', async ({ env, key, accountId }) => {
  const s = await createStream(env, key);
  const pending = await env.call('POST', `/v1/streams/${s.id}/recording/download`, { key });
  assertError(pending, 409, 'recording_not_ready');
  assert.is(pending.body.error.details.status, 'none');
  await goLive(env, accountId, s.id);
  const recording = await env.call('POST', `/v1/streams/${s.id}/recording/download`, { key });
  assertError(recording, 409, 'recording_not_ready');
  assert.is(recording.body.error.details.status, 'recording');
  assertInvalidField(
    await env.call('POST', `/v1/streams/${s.id}/recording/download`, { key, body: { expires_in: 30 } }),
    'expires_in',
  );
});

t('a ready recording: signed _rec URL, bytes, default 3600 s', async ({ env, key, accountId }) => {
  const s = await createStream(env, key);
  await goLive(env, accountId, s.id);
  await endStream(env, accountId, s.id);
  await env.db.sql.begin(async (tx) =>
    transitions.recordingReady(tx, (await lockStream(tx, accountId, s.id))!, env.clock.now(), {
      bytes: 1234,
      durationSeconds: 10.5,
    }),
  );
  const res = await env.call('POST', `/v1/streams/${s.id}/recording/download`, { key });
  assert.is(res.status, 200, res.text);
  assert.equal(Object.keys(res.body).sort(), ['bytes', 'expires_at', 'object', 'stream_id', 'url']);
  assert.is(res.body.object, 'recording_download');
  assert.is(res.body.bytes, 1234);
  assert.match(
    res.body.url,
    new RegExp(`^http://media.test:8081/[A-Za-z0-9_-]{22}\\.\\d{10}/_rec/${s.id}/recording\\.mp4$`),
  );
  assert.is(res.body.expires_at, new Date(env.clock.now().getTime() + 3600_000).toISOString());
  const stream = (await env.call('GET', `/v1/streams/${s.id}`, { key })).body;
  assert.is(stream.recording.status, 'ready');
  assert.is(stream.recording.duration_seconds, 10.5);
  assert.is(stream.recording.delete_at, new Date(env.clock.now().getTime() + 30 * 86_400_000).toISOString());
  assert.is(stream.recording.delete_reason, 'retention');

  const deleted = await env.call('DELETE', `/v1/streams/${s.id}/recording`, { key });
  assert.is(deleted.status, 200, deleted.text);
  assert.is(deleted.body.recording.status, 'deleted');
  assert.ok(deleted.body.recording.deleted_at);
  assert.is((await eventsOf(env, s.id)).filter((e) => e.type === 'recording.deleted').length, 1);
  // Again: unchanged, no second event.
  const again = await env.call('DELETE', `/v1/streams/${s.id}/recording`, { key });
  assert.is(again.body.recording.status, 'deleted');
  assert.is((await eventsOf(env, s.id)).filter((e) => e.type === 'recording.deleted').length, 1);
});

t(
  'retention: a ready recording past its delete_at is deleted by the job (delete_reason retention)',
  async ({ env, key, accountId }) => {
    const s = await createStream(env, key, { recording_retention_days: 1 });
    await goLive(env, accountId, s.id);
    await endStream(env, accountId, s.id);
    await env.db.sql.begin(async (tx) =>
      transitions.recordingReady(tx, (await lockStream(tx, accountId, s.id))!, env.clock.now(), {
        bytes: 10,
        durationSeconds: 1,
      }),
    );
    const kept = await createStream(env, key, { recording_retention_days: null });
    await goLive(env, accountId, kept.id);
    await endStream(env, accountId, kept.id);
    const keptRow = await env.db.sql.begin(async (tx) =>
      transitions.recordingReady(tx, (await lockStream(tx, accountId, kept.id))!, env.clock.now(), {
        bytes: 10,
        durationSeconds: 1,
      }),
    );
    assert.is(keptRow.recording_delete_at, null, 'null retention keeps it');
    env.clock.advance(86_399);
    assert.is(await env.api.recordings.expire(), 0);
    env.clock.advance(2);
    assert.is(await env.api.recordings.expire(), 1);
    const after = (await env.call('GET', `/v1/streams/${s.id}`, { key })).body;
    assert.is(after.recording.status, 'deleted');
    assert.is(after.recording.delete_reason, 'retention');
    assert.ok(after.recording.deleted_at);
    assert.is((await eventsOf(env, s.id)).filter((e) => e.type === 'recording.deleted').length, 1);
    assert.is((await env.call('GET', `/v1/streams/${kept.id}`, { key })).body.recording.status, 'ready');
  },
);

t(
  'deleting while recording: `deleting`, kept through the end, then deleted by the job',
  async ({ env, key, accountId }) => {
    const s = await createStream(env, key);
    await goLive(env, accountId, s.id);
    const res = await env.call('DELETE', `/v1/streams/${s.id}/recording`, { key });
    assert.is(res.body.recording.status, 'deleting');
    const ended = await endStream(env, accountId, s.id);
    assert.is(ended.recording_status, 'deleting');
    env.clock.advance(5);
    await env.api.recordings.processDue();
    const after = (await env.call('GET', `/v1/streams/${s.id}`, { key })).body;
    assert.is(after.recording.status, 'deleted');
    assert.is((await eventsOf(env, s.id)).filter((e) => e.type === 'recording.deleted').length, 1);
  },
);

t(
  'legacy (set by hand, never by the appliance): not downloadable, DELETE makes it deleted',
  async ({ env, key, accountId }) => {
    const s = await createStream(env, key);
    await goLive(env, accountId, s.id);
    await endStream(env, accountId, s.id);
    await env.db.sql`update streams set recording_status = 'legacy' where id = ${s.id}`;
    assert.is((await env.call('GET', `/v1/streams/${s.id}`, { key })).body.recording.status, 'legacy');
    const download = await env.call('POST', `/v1/streams/${s.id}/recording/download`, { key });
    assertError(download, 409, 'recording_not_ready');
    assert.is(download.body.error.details.status, 'legacy');
    const deleted = await env.call('DELETE', `/v1/streams/${s.id}/recording`, { key });
    assert.is(deleted.status, 200, deleted.text);
    assert.is(deleted.body.recording.status, 'deleted');
    assert.is((await eventsOf(env, s.id)).filter((e) => e.type === 'recording.deleted').length, 1);
  },
);

t('nothing to delete: pending or not recorded streams come back unchanged', async ({ env, key }) => {
  const pending = await createStream(env, key);
  const a = await env.call('DELETE', `/v1/streams/${pending.id}/recording`, { key });
  assert.is(a.status, 200);
  assert.is(a.body.recording, null);
  const unrecorded = await createStream(env, key, { record: false });
  await env.call('DELETE', `/v1/streams/${unrecorded.id}`, { key });
  const b = await env.call('DELETE', `/v1/streams/${unrecorded.id}/recording`, { key });
  assert.is(b.body.recording.status, 'not_recorded');
  assertError(await env.call('DELETE', '/v1/streams/str_aaaaaaaaaaaaaaaaaaaa/recording', { key }), 404, 'not_found');
});

t('three failed tries: failed with recording.failed; the job retries in between', async ({ env, key, accountId }) => {
  const s = await createStream(env, key);
  await goLive(env, accountId, s.id);
  await endStream(env, accountId, s.id);
  // Nothing was recorded from a publisher (none connected): every try fails.
  for (let i = 0; i < 3; i++) {
    env.clock.advance(120);
    await env.api.recordings.processDue();
  }
  const after = (await env.call('GET', `/v1/streams/${s.id}`, { key })).body;
  assert.is(after.recording.status, 'failed');
  const types = (await eventsOf(env, s.id)).map((e) => e.type);
  assert.equal(
    types.filter((t) => t.startsWith('recording.')),
    ['recording.failed'],
  );

  // Made again on request: three new tries (still nothing to make it from: failed again).
  const retried = await env.call('POST', `/v1/streams/${s.id}/recording/retry`, { key });
  assert.is(retried.status, 200, retried.text);
  assert.is(retried.body.recording.status, 'processing');
  assertError(await env.call('POST', `/v1/streams/${s.id}/recording/retry`, { key }), 409, 'recording_not_failed');
  for (let i = 0; i < 2; i++) {
    env.clock.advance(120);
    await env.api.recordings.processDue();
    assert.is((await env.call('GET', `/v1/streams/${s.id}`, { key })).body.recording.status, 'processing');
  }
  env.clock.advance(120);
  await env.api.recordings.processDue();
  assert.is((await env.call('GET', `/v1/streams/${s.id}`, { key })).body.recording.status, 'failed');
  const failures = (await eventsOf(env, s.id)).filter((e) => e.type === 'recording.failed');
  assert.is(failures.length, 2);
});

t('retry: only a failed recording; an unknown stream is 404', async ({ env, key, accountId }) => {
  const s = await createStream(env, key);
  const none = await env.call('POST', `/v1/streams/${s.id}/recording/retry`, { key });
  assertError(none, 409, 'recording_not_failed');
  assert.is(none.body.error.details.status, 'none');
  await goLive(env, accountId, s.id);
  const recording = await env.call('POST', `/v1/streams/${s.id}/recording/retry`, { key });
  assertError(recording, 409, 'recording_not_failed');
  assert.is(recording.body.error.details.status, 'recording');
  assertError(
    await env.call('POST', '/v1/streams/str_aaaaaaaaaaaaaaaaaaaa/recording/retry', { key }),
    404,
    'not_found',
  );
  assertInvalidField(await env.call('POST', `/v1/streams/${s.id}/recording/retry?force=1`, { key }), 'force');
});

t.run();
