import * as assert from 'uvu/assert';
import { apiSuite } from '../helpers/api.js';
import { assertError, createStream } from '../helpers/streams.js';
import { fits, ladderBudget, streamCost } from '../../src/domains/streams/model.js';
import { resolveConfig } from '../../src/config/config.js';

// One core less 0.3 for the rest: 0.7 cores of ladders, two 720p ABR ladders at 0.3 each.
const t = apiSuite('capacity', {
  capacity: { cores: 1, reserved_cores: 0.3, stream_cost: { abr_720: 0.3, abr_1080: 0.8, copy_only: 0.02 } },
});

t(
  'creation reserves ladder capacity: 503 no_capacity with Retry-After when full; freed by cancelling',
  async ({ env }) => {
    const { key } = await env.newAccount({ trusted: true });
    const a = await createStream(env, key);
    await createStream(env, key);
    const full = await env.call('POST', '/v1/streams', { key, body: {} });
    assertError(full, 503, 'no_capacity');
    assert.is(full.headers['retry-after'], '30');
    assert.is(full.body.error.details.retry_after_seconds, 30);
    // A copy-only ladder still fits; a 1080p one never does.
    await createStream(env, key, { profile: 'passthrough' });
    assertError(await env.call('POST', '/v1/streams', { key, body: { max_resolution: 1080 } }), 503, 'no_capacity');
    await env.call('DELETE', `/v1/streams/${a.id}`, { key });
    await createStream(env, key);
  },
);

const NO_RELAYS = { srt_relays: 0, rtmps_relays: 0, whip_relays: 0 };

t('costs by what the ladder encodes', () => {
  const { capacity } = resolveConfig('/x', { capacity: { cores: 2, reserved_cores: 0.3 } });
  assert.is(ladderBudget(capacity), 1.7);
  assert.is(streamCost(capacity, 'passthrough', 1080), capacity.streamCost.copy_only);
  assert.is(streamCost(capacity, 'abr_basic', 480), capacity.streamCost.copy_only);
  assert.is(streamCost(capacity, 'abr_basic', 720), capacity.streamCost.abr_720);
  assert.is(streamCost(capacity, 'abr_basic', 1080), capacity.streamCost.abr_1080);
  // On two cores at the default costs: one 1080p ladder, or three 720p ones.
  assert.ok(fits(capacity, [], 'abr_basic', 1080));
  assert.not.ok(
    fits(capacity, [{ profile: 'abr_basic', max_resolution: 1080, count: 1, ...NO_RELAYS }], 'abr_basic', 1080),
  );
  assert.ok(fits(capacity, [{ profile: 'abr_basic', max_resolution: 720, count: 2, ...NO_RELAYS }], 'abr_basic', 720));
  assert.not.ok(
    fits(capacity, [{ profile: 'abr_basic', max_resolution: 720, count: 3, ...NO_RELAYS }], 'abr_basic', 720),
  );
});

for (const relay of ['srt', 'rtmps', 'whip'] as const)
  t(`a ${relay} relay adds its cost, to the live streams it serves and to the publisher it admits`, () => {
    const { capacity } = resolveConfig('/x', {
      capacity: { cores: 1, reserved_cores: 0, stream_cost: { abr_720: 0.45, [`${relay}_relay`]: 0.1 } },
    });
    const relayed = [
      { profile: 'abr_basic' as const, max_resolution: 720, count: 1, ...NO_RELAYS, [`${relay}_relays`]: 1 },
    ];
    assert.ok(fits(capacity, relayed, 'abr_basic', 720));
    assert.not.ok(fits(capacity, relayed, 'abr_basic', 720, relay));
    assert.ok(fits(capacity, [], 'abr_basic', 720, relay));
  });

t.run();
