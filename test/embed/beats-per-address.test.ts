import * as assert from 'uvu/assert';
import { apiSuite } from '../helpers/api.js';
import { assertError, createStream, goLive } from '../helpers/streams.js';

/**
 * Issue 27, item 1: beats with made-up `s` ids from one address cannot inflate `viewers_now`
 * past the address's budget, nor close a player on `watch_minutes_limit`; an office behind one
 * address still counts.
 */
const t = apiSuite('embed: beats per address', { limits: { new: { pending_streams: 50, creations_per_hour: 500 } } });

const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });

t(
  '300 made-up ids from one address: the first 250 (an office arriving) count, the rest get 429 rate_limited with Retry-After; other addresses count',
  async ({ env, key, accountId }) => {
    const s = await createStream(env, key);
    await goLive(env, accountId, s.id);
    const statuses: number[] = [];
    let limited = null;
    for (let i = 0; i < 300; i++) {
      const res = await env.call('POST', `/v1/embed/${s.id}/beat?s=forged-id-${i}&st=p&u=0.01`, from('203.0.113.50'));
      statuses.push(res.status);
      if (res.status !== 204) limited ??= res;
    }
    assert.is(statuses.filter((x) => x === 204).length, 250);
    assert.ok(limited, 'the excess is refused');
    assertError(limited, 429, 'rate_limited');
    const retry = Number(limited.headers['retry-after']);
    assert.ok(retry >= 1 && retry <= 60, String(retry));
    // IPv6: the budget is the /64's (a household picks any address in it), not one address's.
    for (let i = 0; i < 250; i++)
      assert.is(
        (await env.call('POST', `/v1/embed/${s.id}/beat?s=v6-forged-${i}&st=p&u=0.01`, from('2001:db8:1:2::1'))).status,
        204,
      );
    assertError(
      await env.call('POST', `/v1/embed/${s.id}/beat?s=v6-forged-x&st=p&u=0.01`, from('2001:db8:1:2::99')),
      429,
      'rate_limited',
    );
    assert.is(
      (await env.call('POST', `/v1/embed/${s.id}/beat?s=v6-other-0&st=p&u=0.01`, from('2001:db8:1:3::1'))).status,
      204,
    );
    // A counted player's own beats are never refused.
    assert.is(
      (await env.call('POST', `/v1/embed/${s.id}/beat?s=forged-id-0&st=z&u=0.01`, from('203.0.113.50'))).status,
      204,
    );
    for (let i = 0; i < 20; i++)
      assert.is(
        (await env.call('POST', `/v1/embed/${s.id}/beat?s=home-viewer-${i}&st=p&u=0.5`, from('198.51.100.20'))).status,
        204,
      );
    const read = await env.call('GET', `/v1/streams/${s.id}`, { key });
    assert.is(read.body.viewers_now, 250 + 250 + 1 + 20);
  },
);

t(
  'one address cannot close a player on watch_minutes_limit; watching from other addresses does',
  async ({ env, key, accountId }) => {
    const s = await createStream(env, key, { player: { watch_minutes_limit: 5 } });
    await goLive(env, accountId, s.id);
    const counter = env.api.counter;
    const beat = (id: string, address: string) =>
      env.call('POST', `/v1/embed/${s.id}/beat?s=${id}&st=p&u=0.01`, from(address));
    // 100 forged viewers for a minute: 100 watch minutes, all from one address.
    for (let second = 0; second < 60; second += 5) {
      if (second % 15 === 0)
        for (let i = 0; i < 100; i++) assert.is((await beat(`forged-${i}`, '203.0.113.60')).status, 204);
      counter.sample();
      env.clock.advance(5);
    }
    env.clock.advance(1);
    const open = await env.call('GET', `/v1/embed/${s.id}`, from('198.51.100.30'));
    assert.is(open.body.status, 'live', 'one address alone does not close the player');
    const read = await env.call('GET', `/v1/streams/${s.id}`, { key });
    assert.ok(read.body.viewers.watch_minutes >= 100, 'its minutes are still counted and shown');
    // Two other households watch for a minute and a half: 6 minutes from elsewhere close it.
    for (let second = 0; second < 90; second += 5) {
      if (second % 15 === 0) {
        for (let i = 0; i < 100; i++) await beat(`forged-${i}`, '203.0.113.60');
        for (let i = 0; i < 2; i++) await beat(`home-a-${i}`, '198.51.100.31');
        for (let i = 0; i < 2; i++) await beat(`home-b-${i}`, '198.51.100.32');
      }
      counter.sample();
      env.clock.advance(5);
    }
    env.clock.advance(1);
    assert.is((await env.call('GET', `/v1/embed/${s.id}`, from('198.51.100.30'))).body.status, 'closed');
  },
);

t.run();
