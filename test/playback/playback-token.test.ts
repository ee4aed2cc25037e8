import * as assert from 'uvu/assert';
import { apiSuite } from '../helpers/api.js';
import { assertError, assertInvalidField, createStream, goLive } from '../helpers/streams.js';

const t = apiSuite('playback tokens', { limits: { new: { pending_streams: 50, creations_per_hour: 100 } } });

const EXPIRY = /\/([A-Za-z0-9_-]{22})\.(\d{10})\/(str_[a-z0-9]{20})\/master\.m3u8$/;

t('a pending stream: signed URL until it could no longer be live, plus an hour', async ({ env, key }) => {
  const s = await createStream(env, key);
  const res = await env.call('POST', `/v1/streams/${s.id}/playback-token`, { key });
  assert.is(res.status, 200, res.text);
  assert.equal(Object.keys(res.body).sort(), ['expires_at', 'object', 'playback_url', 'stream_id']);
  assert.is(res.body.object, 'playback_token');
  const expected = new Date(new Date(s.reservation_expires_at).getTime() + (s.max_duration_seconds + 3600) * 1000);
  assert.is(res.body.expires_at, expected.toISOString());
  const m = EXPIRY.exec(res.body.playback_url);
  assert.ok(m, res.body.playback_url);
  assert.is(Number(m[2]), Math.floor(expected.getTime() / 1000));
  assert.is(m[3], s.id);
  // The stream read carries the same default URL, re-signed on every read.
  assert.is(s.playback_url, res.body.playback_url);
  assert.is(s.playback_url_expires_at, res.body.expires_at);
});

t('expires_in sets the expiry; out of range is refused naming the field', async ({ env, key }) => {
  const s = await createStream(env, key);
  const res = await env.call('POST', `/v1/streams/${s.id}/playback-token`, { key, body: { expires_in: 600 } });
  assert.is(res.status, 200, res.text);
  assert.is(res.body.expires_at, new Date(env.clock.now().getTime() + 600_000).toISOString());
  for (const bad of [59, 604_801, 1.5, '600', null]) {
    assertInvalidField(
      await env.call('POST', `/v1/streams/${s.id}/playback-token`, { key, body: { expires_in: bad } }),
      'expires_in',
    );
  }
  assertInvalidField(
    await env.call('POST', `/v1/streams/${s.id}/playback-token`, { key, body: { expires: 600 } }),
    'expires',
  );
});

t('a live stream: until went_live_at + maximum duration + 1 h', async ({ env, key, accountId }) => {
  const s = await createStream(env, key);
  const row = await goLive(env, accountId, s.id);
  const res = await env.call('POST', `/v1/streams/${s.id}/playback-token`, { key });
  const expected = new Date((row.went_live_at as Date).getTime() + (row.max_duration_seconds + 3600) * 1000);
  assert.is(res.body.expires_at, expected.toISOString());
});

t('finished streams: 409 stream_ended, and playback_url is null', async ({ env, key }) => {
  const s = await createStream(env, key);
  const cancelled = await env.call('DELETE', `/v1/streams/${s.id}`, { key });
  assert.is(cancelled.body.playback_url, null);
  assert.is(cancelled.body.playback_url_expires_at, null);
  assertError(await env.call('POST', `/v1/streams/${s.id}/playback-token`, { key }), 409, 'stream_ended');
});

t('another account’s stream or no stream: 404', async ({ env, key }) => {
  const other = await env.newAccount();
  const s = await createStream(env, other.key);
  assertError(await env.call('POST', `/v1/streams/${s.id}/playback-token`, { key }), 404, 'not_found');
  assertError(await env.call('POST', '/v1/streams/str_aaaaaaaaaaaaaaaaaaaa/playback-token', { key }), 404, 'not_found');
  assertError(await env.call('POST', `/v1/streams/${s.id}/playback-token`, {}), 401, 'unauthorized');
});

t.run();
