import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import * as assert from 'uvu/assert';
import { apiSuite, type TestApi } from '../helpers/api.js';
import { createStream } from '../helpers/streams.js';
import { tamper, unsignedToken, viewerToken, type ViewerKey } from '../helpers/viewer-tokens.js';

/**
 * The attack matrix of issue 13: every forged, stale or malformed viewer token is refused with
 * `401 invalid_viewer_token` saying why, and never a 5xx.
 */
const t = apiSuite('identity: viewer tokens refused with 401 invalid_viewer_token, saying why');

interface World {
  key: ViewerKey;
  streamId: string;
  otherStreamId: string;
  /** A stream of another account, and that account's key. */
  foreignStreamId: string;
  foreignKey: ViewerKey;
}
let world: World;

t.before(async ({ env, key, accountId }) => {
  const viewerKey = await env.accounts.createViewerKey(accountId);
  const other = await env.newAccount();
  const foreignKey = await env.accounts.createViewerKey(other.id);
  world = {
    key: { id: viewerKey.id, secret: viewerKey.secret },
    streamId: (await createStream(env, key)).id,
    otherStreamId: (await createStream(env, key)).id,
    foreignStreamId: (await createStream(env, other.key)).id,
    foreignKey: { id: foreignKey.id, secret: foreignKey.secret },
  };
});

const open = (env: TestApi, streamId: string, token: string) =>
  env.call('POST', `/v1/embed/${streamId}/session`, { body: { viewer_token: token } });
const seconds = (env: TestApi, offset = 0) => Math.floor(env.clock.now().getTime() / 1000) + offset;

async function refused(env: TestApi, token: string, why: RegExp, streamId = world.streamId): Promise<void> {
  const res = await open(env, streamId, token);
  assert.is(res.status, 401, `${why}: ${res.text}`);
  assert.is(res.body.error.code, 'invalid_viewer_token');
  assert.match(res.body.error.message, why);
  assert.match(res.body.error.request_id, /^req_/);
}

t('a good token opens a session', async ({ env }) => {
  const res = await open(
    env,
    world.streamId,
    await viewerToken(world.key, env.clock.now(), { sub: 'pupil-7', name: 'Ada' }),
  );
  assert.is(res.status, 200, res.text);
  assert.equal(res.body.viewer, { id: 'pupil-7', name: 'Ada', role: 'viewer' });
});

t('algorithms: none, HS512 and RS256 are refused (HS256 only)', async ({ env }) => {
  const exp = seconds(env, 600);
  await refused(env, unsignedToken({ alg: 'none', kid: world.key.id }, { sub: 'x', exp }), /algorithm "none"/);
  await refused(env, await viewerToken(world.key, env.clock.now(), {}, { alg: 'HS512' }), /algorithm "HS512"/);
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  assert.ok(await exportJWK(publicKey));
  const rs = await new SignJWT({ sub: 'x' })
    .setProtectedHeader({ alg: 'RS256', kid: world.key.id })
    .setExpirationTime(exp)
    .sign(privateKey);
  await refused(env, rs, /algorithm "RS256"/);
});

t('keys: missing kid, unknown kid, another account’s key, a token for another account’s stream', async ({ env }) => {
  const now = env.clock.now();
  await refused(env, await viewerToken(world.key, now, {}, { kid: null }), /no `kid`/);
  await refused(
    env,
    await viewerToken({ id: 'vk_unknown00000000000000', secret: world.key.secret }, now),
    /not an active viewer key of this stream's account/,
  );
  await refused(env, await viewerToken(world.foreignKey, now), /not an active viewer key of this stream's account/);
  // A good token of this account, sent to another account's stream.
  await refused(
    env,
    await viewerToken(world.key, now),
    /not an active viewer key of this stream's account/,
    world.foreignStreamId,
  );
});

t('a deleted key: refused within a few seconds (each node believes a key for 2 s)', async ({ env, accountId }) => {
  const created = await env.accounts.createViewerKey(accountId);
  const key = { id: created.id, secret: created.secret };
  assert.is((await open(env, world.streamId, await viewerToken(key, env.clock.now()))).status, 200);
  await env.accounts.deleteViewerKey(accountId, key.id);
  env.clock.advance(2);
  await refused(env, await viewerToken(key, env.clock.now()), /not an active viewer key/);
});

t('exp: missing, past, more than 24 hours ahead (24 h is fine)', async ({ env }) => {
  const now = env.clock.now();
  await refused(env, await viewerToken(world.key, now, { exp: null }), /claim `exp`: required/);
  await refused(env, await viewerToken(world.key, now, { exp: seconds(env, -1) }), /expired/);
  await refused(env, await viewerToken(world.key, now, { exp: seconds(env, 25 * 3600) }), /more than 24 hours ahead/);
  assert.is(
    (await open(env, world.streamId, await viewerToken(world.key, now, { exp: seconds(env, 24 * 3600) }))).status,
    200,
  );
});

t('exp: far past any date (1e20, 8.64e12 + 1 seconds) is more than 24 hours ahead, not a 500', async ({ env }) => {
  const now = env.clock.now();
  // Such an exp times 1000 is past the last Date JavaScript can hold (8.64e15 ms): the comparison must not meet an Invalid Date.
  await refused(env, await viewerToken(world.key, now, { exp: 1e20 }), /more than 24 hours ahead/);
  await refused(env, await viewerToken(world.key, now, { exp: 8.64e12 + 1 }), /more than 24 hours ahead/);
});

t('claims: sub empty, missing or 65 characters; name 41; role not viewer or moderator', async ({ env }) => {
  const now = env.clock.now();
  await refused(env, await viewerToken(world.key, now, { sub: '' }), /`sub`/);
  await refused(env, await viewerToken(world.key, now, { sub: 'é'.repeat(65) }), /`sub` must be a string of 1-64/);
  await refused(env, await viewerToken(world.key, now, { sub: 42 as unknown as string }), /`sub`/);
  await refused(env, await viewerToken(world.key, now, { sub: 'a\u0000b' }), /`sub`/);
  await refused(env, await viewerToken(world.key, now, { name: 'n'.repeat(41) }), /`name` must be a string of 1-40/);
  await refused(env, await viewerToken(world.key, now, { role: 'admin' }), /`role` must be `viewer` or `moderator`/);
  // At the limits: 64 characters (counted as characters, not bytes) and 40.
  const ok = await open(
    env,
    world.streamId,
    await viewerToken(world.key, now, { sub: 'é'.repeat(64), name: 'n'.repeat(40) }),
  );
  assert.is(ok.status, 200, ok.text);
});

t('stream: a token for another stream is refused here; one for this stream opens', async ({ env }) => {
  const now = env.clock.now();
  await refused(env, await viewerToken(world.key, now, { stream: world.otherStreamId }), /not this stream/);
  assert.is(
    (await open(env, world.streamId, await viewerToken(world.key, now, { stream: world.streamId }))).status,
    200,
  );
});

t('a tampered payload and a wrong secret fail the signature; garbage is not a JWT', async ({ env }) => {
  const good = await viewerToken(world.key, env.clock.now(), { sub: 'pupil-1' });
  await refused(
    env,
    tamper(good, { sub: 'teacher', role: 'moderator', exp: seconds(env, 600) }),
    /signature does not match/,
  );
  await refused(
    env,
    await viewerToken({ id: world.key.id, secret: 'vks_not-the-secret' }, env.clock.now()),
    /signature does not match/,
  );
  await refused(env, 'not-a-jwt', /not a signed JWT/);
  await refused(env, 'a.b.c', /not a signed JWT/);
});

t('the body: viewer_token required, unknown fields refused (400 naming the field)', async ({ env }) => {
  const missing = await env.call('POST', `/v1/embed/${world.streamId}/session`, { body: {} });
  assert.is(missing.status, 400);
  assert.match(missing.text, /viewer_token/);
  const unknown = await env.call('POST', `/v1/embed/${world.streamId}/session`, {
    body: { viewer_token: 'x', extra: 1 },
  });
  assert.is(unknown.status, 400);
  assert.match(unknown.text, /extra/);
  const noStream = await open(env, 'str_00000000000000000000', await viewerToken(world.key, env.clock.now()));
  assert.is(noStream.status, 404);
});

t.run();
