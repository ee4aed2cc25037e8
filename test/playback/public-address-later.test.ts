import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REFUSALS_EVERY_MS } from '../../src/domains/streams/public-playback.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';

/**
 * The embed read's shared address, through the real nginx with a real publisher, when the player
 * closes with no patch at that moment: its `closed_at` passes, or its watch minutes run out. The
 * shared address is refused within the refusals' period; the owner's keeps working.
 */
let app: TestAppliance;
let key: string;
let publisher: Publisher | null = null;
let stream: { id: string; owner: string; shared: string };

/** Sampled every second, so that a few seconds of beats add up to a watch minute. */
test.before(async () => {
  app = await startTestAppliance({ viewers: { sample_seconds: 1 } });
  ({ key } = await app.newAccount());
});
test.after(async () => {
  await publisher?.kill();
  await app.close();
});

const status = async (url: string) => (await fetch(url)).status;
const media = (url: string) => url.replace('master.m3u8', 'source.m3u8');
const patchPlayer = async (id: string, player: Record<string, unknown>) => {
  const res = await app.call('PATCH', `/v1/streams/${id}`, { key, body: { player } });
  assert.is(res.status, 200, res.text);
};
/** Slack over the period for a loaded machine (one rebuild is a query and a few file operations). */
const BOUND_MS = REFUSALS_EVERY_MS + 2000;

test('a closed_at that passes after the patch stops the shared address within the period; the owner’s keeps working', async () => {
  const clip = await makeClip({ width: 426, height: 240, seconds: 12, gopSeconds: 1 });
  const created = (await app.call('POST', '/v1/streams', { key, body: { max_resolution: 480 } })).body;
  publisher = publish(app.rtmpUrl(created.stream_key), clip, { loop: true });
  const owner = await waitFor('live', async () => {
    const s = (await app.call('GET', `/v1/streams/${created.id}`, { key })).body;
    return s.status === 'live' && s;
  });
  await waitFor('a playable master', async () => (await status(owner.playback_url)) === 200, 30_000);
  const shared: string = (await app.call('GET', `/v1/embed/${created.id}`)).body.playback_url ?? '';
  assert.ok(shared && shared !== owner.playback_url, 'the embed read has its own address');
  await waitFor('a media playlist', async () => (await status(media(shared))) === 200);
  stream = { id: created.id, owner: owner.playback_url, shared };

  const closesAt = Date.now() + 3000;
  await patchPlayer(created.id, { closed_at: new Date(closesAt).toISOString() });
  assert.is(await status(media(shared)), 200, 'open until closed_at');
  await new Promise((r) => setTimeout(r, Math.max(0, closesAt - Date.now())));
  await waitFor('the shared address refused', async () => (await status(media(shared))) === 403, BOUND_MS, 100);
  const after = (Date.now() - closesAt) / 1000;
  console.log(`    shared address refused ${after.toFixed(3)} s after closed_at`);
  assert.ok(after * 1000 <= BOUND_MS, `within the bound: ${after} s`);
  assert.is(await status(shared), 403);
  assert.is((await app.call('GET', `/v1/embed/${created.id}`)).body.status, 'closed', 'the embed read agrees');
  assert.is(await status(owner.playback_url), 200);
  assert.is(await status(media(owner.playback_url)), 200);

  // Reopened by its owner: at once, as any patch.
  await patchPlayer(created.id, { closed_at: null });
  assert.is(await status(media(shared)), 200);
});

test('watch minutes that run out stop the shared address within the period; a patch of other settings keeps it stopped; raising the limit reopens it', async () => {
  const { id, owner, shared } = stream;
  await patchPlayer(id, { watch_minutes_limit: 1 });
  assert.is(await status(media(shared)), 200);
  // The public side reads a stream at most once a second: beats count once it knows the player reopened.
  await waitFor(
    'the reopened embed read',
    async () => (await app.call('GET', `/v1/embed/${id}`)).body.status === 'live',
  );
  // Three households of ten: the largest address is left out of the limit's figure, the other two
  // make 20 viewer-seconds a second, a minute (rounded) within two seconds of samples.
  for (const address of ['198.51.100.41', '198.51.100.42', '198.51.100.43']) {
    for (let i = 0; i < 10; i++) {
      const res = await fetch(
        `${app.config.publicUrls.base_url}/v1/embed/${id}/beat?s=home-${address.replaceAll('.', '_')}-${i}&st=p&u=0.01`,
        { method: 'POST', headers: { 'x-forwarded-for': address } },
      );
      assert.is(res.status, 204, await res.text());
    }
  }
  const beatsSent = Date.now();
  await waitFor(
    'the embed read closed',
    async () => (await app.call('GET', `/v1/embed/${id}`)).body.status === 'closed',
    10_000,
  );
  const closedAt = Date.now();
  await waitFor('the shared address refused', async () => (await status(media(shared))) === 403, BOUND_MS, 100);
  console.log(
    `    shared address refused ${((Date.now() - closedAt) / 1000).toFixed(3)} s after the embed read closed (${((closedAt - beatsSent) / 1000).toFixed(1)} s of beats)`,
  );
  assert.is(await status(owner), 200);
  assert.is(await status(media(owner)), 200);

  // A patch that does not touch the limit leaves the refusal (the patch counts the minutes too).
  await patchPlayer(id, { show_name: false });
  assert.is(await status(media(shared)), 403);
  await patchPlayer(id, { watch_minutes_limit: 1000 });
  assert.is(await status(media(shared)), 200);
});

test.run();
