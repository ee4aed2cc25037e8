import { createHash } from 'node:crypto';
import * as assert from 'uvu/assert';
import { apiSuite, type TestApi } from '../helpers/api.js';
import { assertError, createStream, goLive } from '../helpers/streams.js';

const t = apiSuite('streams: key replacement', {
  limits: { new: { pending_streams: 1000, creations_per_hour: 1000 } },
});

const secretOf = (streamKey: string) => streamKey.split('?key=')[1] ?? '';
const sha256 = (s: string) => createHash('sha256').update(s).digest();
const storedHash = async (env: TestApi, id: string) =>
  (await env.db.sql<{ key_hash: Buffer }[]>`select key_hash from streams where id = ${id}`)[0]?.key_hash;

t(
  'a new key while pending: a CreatedStream with new secrets; only the new key hash is stored',
  async ({ env, key }) => {
    const s = await createStream(env, key, { name: 'rekey' });
    const oldSecret = secretOf(s.stream_key);
    assert.ok((await storedHash(env, s.id))?.equals(sha256(oldSecret)), 'the creation stored the hash of the secret');

    env.clock.advance(60);
    const res = await env.call('POST', `/v1/streams/${s.id}/stream-key`, { key });
    assert.is(res.status, 200, res.text);
    const r = res.body;
    const newSecret = secretOf(r.stream_key);
    assert.match(newSecret, /^[A-Za-z0-9]{32}$/);
    assert.is.not(newSecret, oldSecret);
    assert.is(r.stream_key, `${s.id}?key=${newSecret}`);
    assert.is(r.whip_url, `http://media.test:8080/live/${s.id}?direction=whip&key=${newSecret}`);
    assert.is(r.id, s.id);
    assert.is(r.status, 'pending');
    assert.is(r.name, 'rekey');
    assert.is(r.reservation_expires_at, s.reservation_expires_at, 'the reservation is not extended');
    assert.is(r.reservation_expires_in_seconds, 1740);
    assert.is(r.cost, undefined);
    assert.is(r.viewers, undefined);

    const hash = await storedHash(env, s.id);
    assert.ok(hash?.equals(sha256(newSecret)));
    assert.not.ok(hash?.equals(sha256(oldSecret)), 'the old key no longer matches');
    const anyOld = await env.db.sql`select 1 from streams where key_hash = ${sha256(oldSecret)}`;
    assert.is(anyOld.length, 0, 'the old key hash is stored nowhere');

    const again = await env.call('POST', `/v1/streams/${s.id}/stream-key`, { key });
    assert.is.not(secretOf(again.body.stream_key), newSecret);
    assert.is((await env.call('GET', `/v1/streams/${s.id}`, { key })).body.stream_key, undefined);
  },
);

t(
  '409 stream_not_pending once cancelled, live, ended or expired; the key is unchanged',
  async ({ env, key, accountId }) => {
    const cancelled = await createStream(env, key);
    await env.call('DELETE', `/v1/streams/${cancelled.id}`, { key });
    const live = await createStream(env, key);
    await goLive(env, accountId, live.id);
    const ended = await createStream(env, key);
    await goLive(env, accountId, ended.id);
    await env.call('DELETE', `/v1/streams/${ended.id}`, { key });

    for (const [s, status] of [
      [cancelled, 'cancelled'],
      [live, 'live'],
      [ended, 'ended'],
    ] as const) {
      const before = await storedHash(env, s.id);
      const res = await env.call('POST', `/v1/streams/${s.id}/stream-key`, { key });
      assertError(res, 409, 'stream_not_pending');
      assert.is(res.body.error.details.status, status);
      assert.ok((await storedHash(env, s.id))?.equals(before!), `${status}: key unchanged`);
      assert.ok(before?.equals(sha256(secretOf(s.stream_key))));
    }

    const expiring = await createStream(env, key);
    env.clock.advance(1800);
    // Due but not yet swept by the expiry job: the reservation is over, so no new key.
    assertError(await env.call('POST', `/v1/streams/${expiring.id}/stream-key`, { key }), 409, 'stream_not_pending');
    await env.api.streams.expireReservations();
    const expired = await env.call('POST', `/v1/streams/${expiring.id}/stream-key`, { key });
    assertError(expired, 409, 'stream_not_pending');
    assert.is(expired.body.error.details.status, 'expired');
  },
);

t('404 for an unknown stream or one of another account; 401 without a key', async ({ env, key }) => {
  assertError(await env.call('POST', '/v1/streams/str_aaaaaaaaaaaaaaaaaaaa/stream-key', { key }), 404, 'not_found');
  const other = await env.newAccount();
  const theirs = await createStream(env, other.key);
  const before = await storedHash(env, theirs.id);
  assertError(await env.call('POST', `/v1/streams/${theirs.id}/stream-key`, { key }), 404, 'not_found');
  assert.ok((await storedHash(env, theirs.id))?.equals(before!));
  assertError(await env.call('POST', `/v1/streams/${theirs.id}/stream-key`), 401, 'unauthorized');
});

t.run();
