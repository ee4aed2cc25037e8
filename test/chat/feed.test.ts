import * as assert from 'uvu/assert';
import { apiSuite, type TestApi } from '../helpers/api.js';
import { clientId, FeedReader, serveChat } from '../helpers/chat.js';
import { createStream } from '../helpers/streams.js';
import { viewerToken, type ViewerKey } from '../helpers/viewer-tokens.js';

/** The chat feed over real sockets: fan-out, resume, shadow bans seen from both sides, deletion, reactions, settings. */
const t = apiSuite('chat: the feed (server-sent events)', {
  limits: { new: { pending_streams: 100, creations_per_hour: 1000 } },
  chat: { fanout_ms: 20 },
});

let key: ViewerKey;
let base = '';
let stopChat: () => Promise<void> = async () => {};
const readers: FeedReader[] = [];

t.before(async ({ env, accountId }) => {
  const created = await env.accounts.createViewerKey(accountId);
  key = { id: created.id, secret: created.secret };
  ({ base, stop: stopChat } = await serveChat(env));
});
t.after.each(() => {
  for (const r of readers.splice(0)) r.close();
});
t.after(async () => {
  await stopChat();
});

const open = async (id: string, query = '', headers: Record<string, string> = {}) => {
  const r = await FeedReader.open(`${base}/v1/embed/${id}/chat/feed${query}`, headers);
  readers.push(r);
  return r;
};
const post = (env: TestApi, id: string, body: Record<string, unknown>) =>
  env.call('POST', `/v1/embed/${id}/chat/messages`, { body });
const anon = (name: string, text: string) => ({ text, nickname: name, client_id: clientId(name) });
async function session(env: TestApi, id: string, claims: Record<string, unknown>): Promise<string> {
  const res = await env.call('POST', `/v1/embed/${id}/session`, {
    body: { viewer_token: await viewerToken(key, env.clock.now(), claims) },
  });
  assert.is(res.status, 200, res.text);
  return res.body.session_token;
}

t(
  'a fresh reader gets reset, the newest messages and the settings; new posts reach every reader once',
  async ({ env, key: apiKey }) => {
    const { id } = await createStream(env, apiKey);
    for (let i = 0; i < 3; i++) await post(env, id, anon(`early${i}`, `early ${i}`));
    const a = await open(id, `?c=${clientId('a')}`);
    assert.is(a.status, 200);
    assert.match(String(a.headers['content-type']), /^text\/event-stream/);
    assert.is(a.headers['access-control-allow-origin'], '*');
    await a.until((r) => r.named('settings').length === 1, 'settings');
    assert.is(a.events[0]?.event, 'reset');
    assert.equal(a.shown(), ['early 0', 'early 1', 'early 2']);
    const settings = JSON.parse(a.named('settings')[0]?.data ?? '{}');
    assert.equal(settings, {
      enabled: true,
      anonymous_posting: true,
      slow_mode_seconds: 0,
      reactions: { emojis: ['👍', '❤️', '😂', '😮', '👏', '🔥', '🎉', '😢'], rate: 1 },
    });
    // Members-only and closed chats say so in their settings.
    const members = await createStream(env, apiKey, { player: { require_viewer_token: true } });
    const closed = await createStream(env, apiKey, { chat: { enabled: false } });
    for (const [streamId, key, value] of [
      [members.id, 'anonymous_posting', false],
      [closed.id, 'enabled', false],
    ] as const) {
      const r = await open(streamId);
      await r.until((x) => x.named('settings').length === 1, 'settings');
      assert.is(JSON.parse(r.named('settings')[0]?.data ?? '{}')[key], value, `${key} of ${streamId}`);
    }
    const b = await open(id);
    await b.until((r) => r.named('settings').length === 1, 'settings');
    await post(env, id, anon('bob', 'live one'));
    await post(env, id, anon('eve', 'live two'));
    for (const r of [a, b]) await r.until((x) => x.shown().length === 5, 'two new posts');
    assert.equal(b.shown(), ['early 0', 'early 1', 'early 2', 'live one', 'live two']);
    // Ids are feed positions, increasing; nothing came twice.
    const ids = b.named('message').map((e) => Number(e.id));
    assert.equal(
      ids,
      [...ids].sort((x, y) => x - y),
    );
    assert.is(new Set(ids).size, ids.length);
  },
);

t('a reader that reconnects with Last-Event-ID gets exactly what it missed', async ({ env, key: apiKey }) => {
  const { id } = await createStream(env, apiKey);
  await post(env, id, anon('v1', 'one'));
  const first = await open(id);
  await first.until((r) => r.shown().length === 1, 'one');
  const last = first.lastId() as string;
  first.close();
  await post(env, id, anon('v2', 'two'));
  await post(env, id, anon('v3', 'three'));
  const again = await open(id, '', { 'last-event-id': last });
  await again.until((r) => r.named('message').length === 2, 'the two missed');
  assert.equal(
    again.messages().map((m) => m.text),
    ['two', 'three'],
  );
  assert.is(again.named('reset').length, 0);
  // `after` does the same for clients that cannot set headers.
  const byQuery = await open(id, `?after=${last}`);
  await byQuery.until((r) => r.named('message').length === 2, 'the two missed');
  await new Promise((r) => setTimeout(r, 100));
  assert.is(byQuery.named('message').length, 2);
});

t(
  'shadow ban seen from both sides: the banned viewer sees their post, another viewer does not',
  async ({ env, key: apiKey }) => {
    const { id } = await createStream(env, apiKey);
    const troll = await session(env, id, { sub: 'troll-1', name: 'Troll' });
    const early = await post(env, id, { text: 'before the ban', session_token: troll });
    const trollFeed = await open(id, `?t=${encodeURIComponent(troll)}`);
    const other = await open(id, `?c=${clientId('other')}`);
    for (const r of [trollFeed, other]) await r.until((x) => x.shown().includes('before the ban'), 'the early post');
    assert.is(
      (await env.call('POST', `/v1/streams/${id}/chat/bans`, { key: apiKey, body: { message_id: early.body.id } }))
        .status,
      201,
    );
    // Everyone else loses the banned viewer's earlier posts; the banned viewer keeps them.
    await other.until((r) => !r.shown().includes('before the ban'), 'the banned post hidden');
    const sent = await post(env, id, { text: 'after the ban', session_token: troll });
    assert.is(sent.status, 201);
    assert.is(sent.body.text, 'after the ban');
    await post(env, id, anon('other', 'a normal post'));
    await other.until((r) => r.shown().includes('a normal post'), 'the normal post');
    await trollFeed.until((r) => r.shown().includes('a normal post'), 'the normal post');
    assert.equal(trollFeed.shown(), ['before the ban', 'after the ban', 'a normal post']);
    assert.equal(other.shown(), ['a normal post']);
    // A fresh reader as the banned viewer still sees their own post; a fresh anonymous one does not.
    const trollAgain = await open(id, `?t=${encodeURIComponent(troll)}`);
    const fresh = await open(id);
    for (const r of [trollAgain, fresh]) await r.until((x) => x.named('settings').length === 1, 'settings');
    assert.ok(trollAgain.shown().includes('after the ban'));
    assert.not.ok(fresh.shown().includes('after the ban'));
  },
);

t(
  'a deleted message disappears from every feed; slow mode changes reach readers as settings',
  async ({ env, key: apiKey }) => {
    const { id } = await createStream(env, apiKey);
    const a = await open(id);
    const b = await open(id);
    const m = await post(env, id, anon('bob', 'oops'));
    for (const r of [a, b]) await r.until((x) => x.shown().includes('oops'), 'the post');
    assert.is((await env.call('DELETE', `/v1/streams/${id}/chat/messages/${m.body.id}`, { key: apiKey })).status, 200);
    for (const r of [a, b]) await r.until((x) => x.named('delete').length === 1, 'the deletion');
    assert.equal(JSON.parse(a.named('delete')[0]?.data ?? '{}'), {
      object: 'chat_deletion',
      message_ids: [m.body.id],
      deleted_by: 'owner',
    });
    assert.equal(b.shown(), []);
    assert.is(
      (await env.call('PATCH', `/v1/streams/${id}`, { key: apiKey, body: { chat: { slow_mode_seconds: 20 } } })).status,
      200,
    );
    await a.until((r) => r.named('settings').some((e) => JSON.parse(e.data).slow_mode_seconds === 20), 'slow mode 20');
  },
);

t('reactions are counted and announced to readers', async ({ env, key: apiKey }) => {
  const { id } = await createStream(env, apiKey);
  const r = await open(id);
  await r.until((x) => x.named('settings').length === 1, 'settings');
  for (let i = 0; i < 3; i++)
    assert.is(
      (
        await env.call('POST', `/v1/embed/${id}/chat/reactions`, {
          body: { emoji: '🔥', client_id: clientId(`fan${i}`) },
        })
      ).status,
      204,
    );
  await env.call('POST', `/v1/embed/${id}/chat/reactions`, { body: { emoji: '👏', client_id: clientId('fan9') } });
  await r.until((x) => x.named('reactions').length > 0, 'reactions', 4000);
  const total: Record<string, number> = {};
  await new Promise((res) => setTimeout(res, 1200));
  for (const e of r.named('reactions'))
    for (const [emoji, n] of Object.entries(JSON.parse(e.data).counts as Record<string, number>))
      total[emoji] = (total[emoji] ?? 0) + n;
  assert.equal(total, { '🔥': 3, '👏': 1 });
  assert.is(JSON.parse(r.named('reactions')[0]?.data ?? '{}').rate, 1);
});

t(
  'a forged session token is refused before the stream starts; an unknown stream is 404',
  async ({ env, key: apiKey }) => {
    const { id } = await createStream(env, apiKey);
    const forged = await env.call('GET', `/v1/embed/${id}/chat/feed?t=forged`);
    assert.is(forged.status, 401);
    assert.is(forged.body.error.code, 'invalid_viewer_token');
    const unknown = await open('str_00000000000000000000');
    assert.is(unknown.status, 404);
  },
);

t(
  'the feed carries X-Request-Id like every other response (its headers are written outside Fastify)',
  async ({ env, key: apiKey }) => {
    const { id } = await createStream(env, apiKey);
    const [a, b] = [await open(id), await open(id)];
    for (const r of [a, b]) assert.match(String(r.headers['x-request-id']), /^req_[a-z0-9]{20}$/);
    assert.is.not(a.headers['x-request-id'], b.headers['x-request-id']);
    assert.match(String(a.headers['content-type']), /^text\/event-stream/);
  },
);

t.run();
