import * as assert from 'uvu/assert';
import { apiSuite, type ApiSuiteContext } from '../helpers/api.js';
import {
  assertError,
  assertInvalidField,
  assertStreamEvent,
  createStream,
  eventsOf,
  goLive,
} from '../helpers/streams.js';

const t = apiSuite('channels: the channels API and streams created in a channel');
// An account per test, trusted: several streams may wait to go live at once.
t.before.each(async (ctx) => {
  const { id, key } = await ctx.env.newAccount({ trusted: true });
  ctx.key = key;
  ctx.accountId = id;
});

const CHANNEL_KEYS = [
  'chat',
  'created_at',
  'id',
  'live_stream_id',
  'metadata',
  'name',
  'object',
  'page_url',
  'player',
  'updated_at',
];
const DEFAULT_PLAYER = {
  show_name: true,
  require_viewer_token: false,
  enabled: true,
  allowed_domains: null,
  watch_minutes_limit: null,
  closed_at: null,
};
const DEFAULT_CHAT = { enabled: true, anonymous_posting: true, slow_mode_seconds: 0, reaction_sampling: null };

async function newChannel(ctx: ApiSuiteContext, body: unknown = {}, key = ctx.key) {
  const res = await ctx.env.call('POST', '/v1/channels', { key, body });
  assert.is(res.status, 201, res.text);
  return res.body;
}

t('round trip: create with defaults, get, list, patch, delete', async (ctx) => {
  const { env, key } = ctx;
  const res = await env.call('POST', '/v1/channels', { key });
  assert.is(res.status, 201, res.text);
  const c = res.body;
  assert.equal(Object.keys(c).sort(), CHANNEL_KEYS);
  assert.is(c.object, 'channel');
  assert.match(c.id, /^chn_[a-z0-9]{20}$/);
  assert.is(c.name, null);
  assert.is(c.metadata, null);
  assert.equal(c.player, DEFAULT_PLAYER);
  assert.equal(c.chat, DEFAULT_CHAT);
  assert.is(c.page_url, `${env.config.publicUrls.player_url}/c/${c.id}`);
  assert.is(c.live_stream_id, null);
  assert.is(c.created_at, env.clock.now().toISOString());
  assert.is(c.updated_at, c.created_at);

  const got = await env.call('GET', `/v1/channels/${c.id}`, { key });
  assert.is(got.status, 200, got.text);
  assert.equal(got.body, c);

  env.clock.advance(60);
  const patched = await env.call('PATCH', `/v1/channels/${c.id}`, {
    key,
    body: {
      name: 'Town hall',
      metadata: { team: 'comms' },
      player: { show_name: false },
      chat: { slow_mode_seconds: 5 },
    },
  });
  assert.is(patched.status, 200, patched.text);
  assert.is(patched.body.name, 'Town hall');
  assert.equal(patched.body.metadata, { team: 'comms' });
  assert.equal(patched.body.player, { ...DEFAULT_PLAYER, show_name: false });
  assert.equal(patched.body.chat, { ...DEFAULT_CHAT, slow_mode_seconds: 5 });
  assert.is(patched.body.updated_at, env.clock.now().toISOString());
  assert.is(patched.body.created_at, c.created_at);

  // Blank is no name; null clears; left-out fields stay.
  const blank = await env.call('PATCH', `/v1/channels/${c.id}`, { key, body: { name: '  ', metadata: null } });
  assert.is(blank.status, 200, blank.text);
  assert.is(blank.body.name, null);
  assert.is(blank.body.metadata, null);
  assert.equal(blank.body.chat, patched.body.chat);

  const list = await env.call('GET', '/v1/channels', { key });
  assert.is(list.status, 200, list.text);
  assert.equal(Object.keys(list.body).sort(), ['data', 'has_more', 'object']);
  assert.is(list.body.object, 'list');
  assert.equal(list.body.data, [blank.body]);
  assert.is(list.body.has_more, false);

  const deleted = await env.call('DELETE', `/v1/channels/${c.id}`, { key });
  assert.is(deleted.status, 200, deleted.text);
  assert.equal(deleted.body, { ...blank.body, deleted: true });
  assertError(await env.call('GET', `/v1/channels/${c.id}`, { key }), 404, 'not_found');
  assertError(await env.call('DELETE', `/v1/channels/${c.id}`, { key }), 404, 'not_found');
});

t('list: newest first, limit and starting_after like the stream list', async (ctx) => {
  const { env, key } = ctx;
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) ids.push((await newChannel(ctx, { name: `c${i}` })).id);
  const newest = [...ids].reverse();
  const first = await env.call('GET', '/v1/channels?limit=2', { key });
  assert.is(first.status, 200, first.text);
  assert.equal(
    first.body.data.map((c: { id: string }) => c.id),
    newest.slice(0, 2),
  );
  assert.is(first.body.has_more, true);
  const rest = await env.call('GET', `/v1/channels?limit=100&starting_after=${newest[1]}`, { key });
  assert.equal(
    rest.body.data.map((c: { id: string }) => c.id),
    newest.slice(2),
  );
  assert.is(rest.body.has_more, false);
  assertInvalidField(await env.call('GET', '/v1/channels?limit=0', { key }), 'limit');
  assertInvalidField(await env.call('GET', '/v1/channels?limit=101', { key }), 'limit');
  assertInvalidField(await env.call('GET', '/v1/channels?starting_after=str_x', { key }), 'starting_after');
  assertInvalidField(
    await env.call('GET', '/v1/channels?starting_after=chn_00000000000000000000', { key }),
    'starting_after',
  );
  assertInvalidField(await env.call('GET', '/v1/channels?colour=red', { key }), 'colour');
});

t('validation: unknown fields, bad settings, long names and metadata are 400 naming the field', async (ctx) => {
  const { env, key } = ctx;
  const post = (body: unknown) => env.call('POST', '/v1/channels', { key, body });
  assertInvalidField(await post({ colour: 'red' }), 'colour');
  assertInvalidField(await post({ name: 'x'.repeat(101) }), 'name');
  assertInvalidField(await post({ metadata: { blob: 'x'.repeat(2100) } }), 'metadata');
  assertInvalidField(await post({ player: { bogus: true } }), 'player.bogus');
  assertInvalidField(await post({ chat: { slow_mode_seconds: 3601 } }), 'chat.slow_mode_seconds');
  const c = await newChannel(ctx);
  const patch = (body: unknown) => env.call('PATCH', `/v1/channels/${c.id}`, { key, body });
  assertError(await patch({}), 400, 'invalid_request');
  assertInvalidField(await patch({ live_stream_id: null }), 'live_stream_id');
  assertInvalidField(await patch({ player: { enabled: 'yes' } }), 'player.enabled');
  const unchanged = await env.call('GET', `/v1/channels/${c.id}`, { key });
  assert.equal(unchanged.body, c);
});

t("another account's channel is 404: read, change, delete, and as a stream's channel_id", async (ctx) => {
  const { env, key } = ctx;
  const other = await env.newAccount({ trusted: true });
  const theirs = await newChannel(ctx, { name: 'theirs' }, other.key);
  assertError(await env.call('GET', `/v1/channels/${theirs.id}`, { key }), 404, 'not_found');
  assertError(await env.call('PATCH', `/v1/channels/${theirs.id}`, { key, body: { name: 'x' } }), 404, 'not_found');
  assertError(await env.call('DELETE', `/v1/channels/${theirs.id}`, { key }), 404, 'not_found');
  assertError(await env.call('GET', '/v1/channels/not-an-id', { key }), 404, 'not_found');
  assert.equal((await env.call('GET', '/v1/channels', { key })).body.data, []);

  const created = await env.call('POST', '/v1/streams', { key, body: { channel_id: theirs.id } });
  assertError(created, 404, 'not_found');
  assert.ok(created.body.error.message.includes(theirs.id), created.text);
  assertError(
    await env.call('POST', '/v1/streams', { key, body: { channel_id: 'chn_00000000000000000000' } }),
    404,
    'not_found',
  );
  assertInvalidField(await env.call('POST', '/v1/streams', { key, body: { channel_id: 'str_x' } }), 'channel_id');
  assertError(await env.call('GET', `/v1/streams?channel_id=${theirs.id}`, { key }), 404, 'not_found');
  assertInvalidField(await env.call('GET', '/v1/streams?channel_id=nope', { key }), 'channel_id');
  const [row] = await env.db.sql<{ n: number }[]>`
    select count(*)::int as n from streams where account_id = ${ctx.accountId}`;
  assert.is(row?.n, 0, 'no stream was created by the refused requests');
});

t("a stream created in a channel starts with its settings, the body's own fields over them", async (ctx) => {
  const { env, key } = ctx;
  const c = await newChannel(ctx, {
    name: 'Town hall',
    player: { show_name: false, allowed_domains: ['example.com'] },
    chat: { slow_mode_seconds: 10, anonymous_posting: false },
  });
  const plain = await createStream(env, key, { channel_id: c.id });
  assert.is(plain.channel_id, c.id);
  assert.equal(plain.player, { ...DEFAULT_PLAYER, show_name: false, allowed_domains: ['example.com'] });
  assert.equal(plain.chat, { ...DEFAULT_CHAT, slow_mode_seconds: 10, anonymous_posting: false });
  assert.is(plain.name, null, 'the channel gives settings, not its name');

  const own = await createStream(env, key, {
    channel_id: c.id,
    player: { allowed_domains: null, require_viewer_token: true },
    chat: { slow_mode_seconds: 0 },
  });
  assert.equal(own.player, { ...DEFAULT_PLAYER, show_name: false, require_viewer_token: true });
  assert.equal(own.chat, { ...DEFAULT_CHAT, slow_mode_seconds: 0, anonymous_posting: false });

  const outside = await createStream(env, key, {});
  assert.is(outside.channel_id, null);
  assert.equal(outside.player, DEFAULT_PLAYER);

  // A later change of the channel leaves its existing streams as they are.
  await env.call('PATCH', `/v1/channels/${c.id}`, { key, body: { chat: { slow_mode_seconds: 60 } } });
  const read = await env.call('GET', `/v1/streams/${plain.id}`, { key });
  assert.is(read.body.chat.slow_mode_seconds, 10);
  assert.is(read.body.channel_id, c.id);
  const next = await createStream(env, key, { channel_id: c.id });
  assert.is(next.chat.slow_mode_seconds, 60);

  // The list carries channel_id, and filters by it.
  const all = await env.call('GET', '/v1/streams', { key });
  assert.equal(
    all.body.data.map((s: { id: string; channel_id: string | null }) => [s.id, s.channel_id]),
    [
      [next.id, c.id],
      [outside.id, null],
      [own.id, c.id],
      [plain.id, c.id],
    ],
  );
  const inChannel = await env.call('GET', `/v1/streams?channel_id=${c.id}&limit=2`, { key });
  assert.is(inChannel.status, 200, inChannel.text);
  assert.equal(
    inChannel.body.data.map((s: { id: string }) => s.id),
    [next.id, own.id],
  );
  assert.is(inChannel.body.has_more, true);
  const page2 = await env.call('GET', `/v1/streams?channel_id=${c.id}&status=pending&starting_after=${own.id}`, {
    key,
  });
  assert.equal(
    page2.body.data.map((s: { id: string }) => s.id),
    [plain.id],
  );
});

t('webhook events carry channel_id; the channel names its live stream', async (ctx) => {
  const { env, key, accountId } = ctx;
  const c = await newChannel(ctx);
  const s = await createStream(env, key, { channel_id: c.id });
  await goLive(env, accountId, s.id);
  const live = await env.call('GET', `/v1/streams/${s.id}`, { key });
  const [event] = (await eventsOf(env, s.id)).filter((e) => e.type === 'stream.live');
  assert.ok(event, 'a stream.live event');
  assertStreamEvent(event, 'stream.live', live.body);
  assert.is(event.payload.data.channel_id, c.id);
  const channel = await env.call('GET', `/v1/channels/${c.id}`, { key });
  assert.is(channel.body.live_stream_id, s.id);
  assert.is((await env.call('GET', '/v1/channels', { key })).body.data[0].live_stream_id, s.id);
});

t('delete: refused with 409 while a stream is pending or live; allowed once they end', async (ctx) => {
  const { env, key, accountId } = ctx;
  const c = await newChannel(ctx, { name: 'weekly' });
  const finished = await createStream(env, key, { channel_id: c.id });
  await env.call('DELETE', `/v1/streams/${finished.id}`, { key });
  const pending = await createStream(env, key, { channel_id: c.id });

  const refused = await env.call('DELETE', `/v1/channels/${c.id}`, { key });
  assertError(refused, 409, 'channel_not_empty');
  assert.equal(refused.body.error.details.stream_ids, [pending.id]);
  assert.ok(refused.body.error.message.includes('end or cancel'), refused.text);

  await goLive(env, accountId, pending.id);
  assertError(await env.call('DELETE', `/v1/channels/${c.id}`, { key }), 409, 'channel_not_empty');

  const ended = await env.call('DELETE', `/v1/streams/${pending.id}`, { key });
  assert.is(ended.body.status, 'ended', ended.text);
  const deleted = await env.call('DELETE', `/v1/channels/${c.id}`, { key });
  assert.is(deleted.status, 200, deleted.text);
  assert.is(deleted.body.deleted, true);
  assert.is(deleted.body.live_stream_id, null);

  // Its streams keep existing, without the link.
  for (const id of [finished.id, pending.id]) {
    const read = await env.call('GET', `/v1/streams/${id}`, { key });
    assert.is(read.status, 200, read.text);
    assert.is(read.body.channel_id, null);
  }
  assertError(await env.call('POST', '/v1/streams', { key, body: { channel_id: c.id } }), 404, 'not_found');
});

t(
  'Idempotency-Key: a retry answers the first channel; a stream creation key is not a channel creation key',
  async (ctx) => {
    const { env, key } = ctx;
    const headers = { 'idempotency-key': 'chn-retry-1' };
    const first = await env.call('POST', '/v1/channels', { key, body: { name: 'once' }, headers });
    assert.is(first.status, 201, first.text);
    const again = await env.call('POST', '/v1/channels', { key, body: { name: 'once' }, headers });
    assert.is(again.status, 201, again.text);
    assert.is(again.headers['idempotent-replayed'], 'true');
    assert.equal(again.body, first.body);
    assert.is((await env.call('GET', '/v1/channels', { key })).body.data.length, 1);

    const streamKey = { 'idempotency-key': 'str-then-chn' };
    assert.is((await env.call('POST', '/v1/streams', { key, body: { name: 'x' }, headers: streamKey })).status, 201);
    const reused = await env.call('POST', '/v1/channels', { key, body: { name: 'x' }, headers: streamKey });
    assertError(reused, 422, 'idempotency_key_reused');
  },
);

t('at most 1000 channels per account: the next is 429 limit_channels; deleting one frees a place', async (ctx) => {
  const { env, key, accountId } = ctx;
  const now = env.clock.now();
  await env.db.sql`
    insert into channels (id, account_id, player, chat, created_at, updated_at)
    select 'chn_' || lpad(i::text, 20, '0'), ${accountId}, '{}'::jsonb, '{}'::jsonb, ${now}, ${now}
    from generate_series(1, 999) i`;
  const last = await newChannel(ctx);
  const refused = await env.call('POST', '/v1/channels', { key });
  assertError(refused, 429, 'limit_channels');
  assert.equal(refused.body.error.details, { limit: 1000, current: 1000 });
  assert.is((await env.call('DELETE', `/v1/channels/${last.id}`, { key })).status, 200);
  await newChannel(ctx);
});

t('a pending or suspended account creates no channel', async (ctx) => {
  const { env } = ctx;
  const pending = await env.newAccount({ pending: true });
  assertError(await env.call('POST', '/v1/channels', { key: pending.key }), 403, 'account_pending');
  assertError(await env.call('GET', '/v1/channels'), 401, 'unauthorized');
});

t.run();
