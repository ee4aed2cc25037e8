import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { streamOf } from '../helpers/broadcast.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';
import {
  makeOffer,
  postOffer,
  simulcastOffer,
  vp8Offer,
  whipPublish,
  type WhipPublisher,
} from '../helpers/whip-client.js';

/**
 * What the WHIP endpoint refuses, with the RTMP path's rules: a wrong secret, a simulcast offer
 * (refused while pending, the stream ended while live), VP8 only, a second publisher, RTMP and
 * WHIP at once; and what it speaks: CORS preflight, no PATCH.
 */
let app: TestAppliance;
let key: string;
const whips: WhipPublisher[] = [];
const rtmps: Publisher[] = [];

test.before(async () => {
  app = await startTestAppliance();
  ({ key } = await app.newAccount({ trusted: true }));
});
test.after(async () => {
  await Promise.all([...whips.map((p) => p.vanish()), ...rtmps.map((p) => p.kill())]);
  await app.close();
});

const create = async () => (await app.call('POST', '/v1/streams', { key, body: { max_resolution: 480 } })).body;
const offer = async () => {
  const { pc, offer: sdp } = await makeOffer();
  await pc.close();
  return sdp;
};
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;
const isLive = (id: string) => waitFor('live', async () => (await streamOf(app, key, id)).status === 'live');

test('wrong or missing secret: 401; unknown stream: 404; not SDP: 415; the stream stays pending', async () => {
  const s = await create();
  const wrong = await postOffer(s.whip_url.replace(/key=[^&]+/, 'key=not-the-key'), await offer());
  assert.is(wrong.status, 401);
  assert.is(await errorOf(wrong), 'unauthorized');
  assert.is((await postOffer(s.whip_url.replace(/&key=[^&]+/, ''), await offer())).status, 401);
  const unknown = await postOffer(s.whip_url.replace(s.id, 'str_aaaaaaaaaaaaaaaaaaaa'), await offer());
  assert.is(unknown.status, 404);
  const json = await fetch(s.whip_url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  assert.is(json.status, 415);
  // The key in an Authorization header works like the one in the URL (RFC 9725's bearer token).
  const bearer = await postOffer(s.whip_url.replace(/&key=[^&]+/, ''), await offer(), {
    authorization: 'Bearer wrong',
  });
  assert.is(bearer.status, 401);
  assert.is((await streamOf(app, key, s.id)).status, 'pending');
});

test('CORS: a page on another origin may publish and read Location; PATCH (trickle) is 405', async () => {
  const s = await create();
  const pre = await fetch(s.whip_url, {
    method: 'OPTIONS',
    headers: {
      origin: 'https://elsewhere.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    },
  });
  assert.is(pre.status, 204);
  assert.is(pre.headers.get('access-control-allow-origin'), '*');
  assert.match(pre.headers.get('access-control-allow-methods') ?? '', /POST/);
  assert.match(pre.headers.get('access-control-allow-methods') ?? '', /DELETE/);
  const refused = await postOffer(s.whip_url, 'v=0', { origin: 'https://elsewhere.example' });
  assert.is(refused.headers.get('access-control-allow-origin'), '*');
  assert.match(refused.headers.get('access-control-expose-headers') ?? '', /location/i);
  const patch = await fetch(`${s.whip_url.split('?')[0]}/sessions/x`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/trickle-ice-sdpfrag' },
    body: 'a=x',
  });
  assert.is(patch.status, 405);
});

test('VP8 only: refused (H.264 is needed), the stream stays pending', async () => {
  const s = await create();
  const res = await postOffer(s.whip_url, await vp8Offer());
  assert.is(res.status, 422);
  assert.is(await errorOf(res), 'codec_not_supported');
  assert.is((await streamOf(app, key, s.id)).status, 'pending');
});

test('simulcast: refused while pending (stays pending); a live stream ends simulcast_not_supported', async () => {
  const s = await create();
  const pending = await postOffer(s.whip_url, simulcastOffer(await offer()));
  assert.is(pending.status, 422);
  assert.is(await errorOf(pending), 'simulcast_not_supported');
  assert.is((await streamOf(app, key, s.id)).status, 'pending');

  // Live, its publisher gone (within the reconnect window): a simulcast offer ends it.
  const clip = await makeClip({ width: 320, height: 180, seconds: 6, gopSeconds: 1 });
  const rtmp = publish(app.rtmpUrl(s.stream_key), clip, { loop: true });
  rtmps.push(rtmp);
  await isLive(s.id);
  await rtmp.kill();
  await waitFor(
    'publisher gone',
    async () =>
      (await app.db.sql`select 1 from streams where id = ${s.id} and publisher_left_at is not null`).length > 0,
  );
  const live = await postOffer(s.whip_url, simulcastOffer(await offer()));
  assert.is(live.status, 422);
  const ended = await streamOf(app, key, s.id);
  assert.is(ended.status, 'ended');
  assert.is(ended.end_reason, 'simulcast_not_supported');
});

test('one publisher at a time: a second WHIP, and RTMP and WHIP exclude each other', async () => {
  // WHIP first: a second WHIP and an RTMP publisher are refused.
  const a = await create();
  const first = await whipPublish(a.whip_url);
  whips.push(first);
  assert.is(first.status, 201, first.body);
  await isLive(a.id);
  const second = await postOffer(a.whip_url, await offer());
  assert.is(second.status, 409);
  assert.is(await errorOf(second), 'already_publishing');
  const clip = await makeClip({ width: 320, height: 180, seconds: 6, gopSeconds: 1 });
  const rtmp = publish(app.rtmpUrl(a.stream_key), clip, { loop: true });
  rtmps.push(rtmp);
  assert.is.not(await rtmp.exited, 0, 'RTMP refused while WHIP publishes');
  assert.ok(app.running.whip.publishes(a.id), 'the WHIP session goes on');

  // Ending the stream ends the browser's session.
  assert.is((await app.call('DELETE', `/v1/streams/${a.id}`, { key })).status, 200);
  await waitFor('WHIP session closed', async () => !app.running.whip.publishes(a.id));

  // RTMP first: WHIP is refused.
  const b = await create();
  const obs = publish(app.rtmpUrl(b.stream_key), clip, { loop: true });
  rtmps.push(obs);
  await isLive(b.id);
  const refused = await postOffer(b.whip_url, await offer());
  assert.is(refused.status, 409);
  assert.is(await errorOf(refused), 'already_publishing');
  assert.is(obs.proc.exitCode, null, 'the RTMP publisher goes on');
});

test('two offers at once for a pending stream: one session, the other 409', async () => {
  const s = await create();
  const offers = [await offer(), await offer()];
  const answers = await Promise.all(offers.map((o) => postOffer(s.whip_url, o)));
  assert.equal(answers.map((r) => r.status).sort(), [201, 409]);
  const session = answers.find((r) => r.status === 201)?.headers.get('location');
  assert.ok(session);
  assert.is((await fetch(session, { method: 'DELETE' })).status, 200);
  assert.is((await fetch(session, { method: 'DELETE' })).status, 404, 'a session ends once');
  assert.not.ok(app.running.whip.publishes(s.id));
});

test.run();
