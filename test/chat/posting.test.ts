import * as assert from 'uvu/assert';
import { apiSuite, type TestApi } from '../helpers/api.js';
import { clientId } from '../helpers/chat.js';
import { assertError, assertInvalidField, createStream } from '../helpers/streams.js';
import { viewerToken, type ViewerKey } from '../helpers/viewer-tokens.js';

/** Chat rules through the API (manual clock): names, members-only, limits, origins, history, bans, deletion, moderators. */
const t = apiSuite('chat: posting, limits, origins, history, bans and moderators', {
  limits: { new: { pending_streams: 100, creations_per_hour: 1000 } },
});

let key: ViewerKey;
t.before(async ({ env, accountId }) => {
  const created = await env.accounts.createViewerKey(accountId);
  key = { id: created.id, secret: created.secret };
});

const post = (env: TestApi, id: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  env.call('POST', `/v1/embed/${id}/chat/messages`, { body, headers });
const anon = (name: string, text: string) => ({ text, nickname: name, client_id: clientId(name) });
const history = async (env: TestApi, id: string) =>
  ((await env.call('GET', `/v1/embed/${id}/chat/messages`)).body.data as { text: string }[]).map((m) => m.text);
async function session(env: TestApi, id: string, claims: Record<string, unknown>): Promise<string> {
  const res = await env.call('POST', `/v1/embed/${id}/session`, {
    body: { viewer_token: await viewerToken(key, env.clock.now(), claims) },
  });
  assert.is(res.status, 200, res.text);
  return res.body.session_token;
}

t(
  'an anonymous post: nickname, not verified, one line of text; its fields are checked',
  async ({ env, key: apiKey }) => {
    const { id } = await createStream(env, apiKey);
    const res = await post(env, id, { text: '  hello\n  there  ', nickname: ' Bob ', client_id: clientId('bob') });
    assert.is(res.status, 201, res.text);
    const m = res.body;
    assert.equal(Object.keys(m).sort(), [
      'author',
      'created_at',
      'deleted_at',
      'deleted_by',
      'id',
      'object',
      'stream_id',
      'text',
    ]);
    assert.is(m.object, 'chat_message');
    assert.match(m.id, /^msg_[a-z0-9]{20}$/);
    assert.is(m.stream_id, id);
    assert.is(m.text, 'hello there');
    assert.equal(m.author, { name: 'Bob', verified: false, role: 'viewer' });
    assert.is(m.created_at, env.clock.now().toISOString());
    assert.is(m.deleted_at, null);
    assertInvalidField(await post(env, id, { text: 'x', nickname: 'Bob' }), 'client_id');
    assertInvalidField(await post(env, id, { text: 'x', client_id: clientId('bob') }), 'nickname');
    assertInvalidField(await post(env, id, { text: '   ', nickname: 'Bob', client_id: clientId('bob') }), 'text');
    assertInvalidField(await post(env, id, { text: 'a\u0007b', nickname: 'Bob', client_id: clientId('bob') }), 'text');
    assertInvalidField(
      await post(env, id, { text: 'x'.repeat(501), nickname: 'Bob', client_id: clientId('bob') }),
      'text',
    );
    assertInvalidField(
      await post(env, id, { text: 'x', nickname: 'B'.repeat(41), client_id: clientId('bob') }),
      'nickname',
    );
    assertInvalidField(await post(env, id, { text: 'x', nickname: 'Bob', client_id: 'short' }), 'client_id');
    assertError(await post(env, id, { ...anon('bob', 'x'), colour: 'red' }), 400, 'invalid_request');
    assertError(await post(env, 'str_00000000000000000000', anon('bob', 'x')), 404, 'not_found');
  },
);

t(
  "a token session posts under the token's name, verified; a nameless token needs a nickname",
  async ({ env, key: apiKey }) => {
    const { id } = await createStream(env, apiKey);
    const named = await session(env, id, { sub: 'pupil-1', name: 'Ada Lovelace' });
    const res = await post(env, id, { text: 'hi', nickname: 'Impostor', session_token: named });
    assert.is(res.status, 201, res.text);
    assert.equal(res.body.author, { name: 'Ada Lovelace', verified: true, role: 'viewer' });
    const nameless = await session(env, id, { sub: 'pupil-2' });
    assertInvalidField(await post(env, id, { text: 'hi', session_token: nameless }), 'nickname');
    const chosen = await post(env, id, { text: 'hi', nickname: 'Grace', session_token: nameless });
    assert.equal(chosen.body.author, { name: 'Grace', verified: false, role: 'viewer' });
    assertError(await post(env, id, { text: 'hi', session_token: 'forged' }), 401, 'invalid_viewer_token');
  },
);

t(
  'members-only streams and anonymous_posting false refuse anonymous posts (401 viewer_token_required)',
  async ({ env, key: apiKey }) => {
    const members = await createStream(env, apiKey, { player: { require_viewer_token: true } });
    assertError(await post(env, members.id, anon('bob', 'hi')), 401, 'viewer_token_required');
    const member = await session(env, members.id, { sub: 'm-1', name: 'Member' });
    assert.is((await post(env, members.id, { text: 'hi', session_token: member })).status, 201);
    // Messages stay readable by anyone with the stream id.
    assert.equal(await history(env, members.id), ['hi']);
    const closed = await createStream(env, apiKey, { chat: { anonymous_posting: false } });
    assertError(await post(env, closed.id, anon('bob', 'hi')), 401, 'viewer_token_required');
    assertError(
      await env.call('POST', `/v1/embed/${closed.id}/chat/reactions`, {
        body: { emoji: '👍', client_id: clientId('bob') },
      }),
      401,
      'viewer_token_required',
    );
  },
);

t(
  'slow mode: one post per viewer per slow_mode_seconds, 429 chat_slow_mode with Retry-After; moderators exempt',
  async ({ env, key: apiKey }) => {
    const { id } = await createStream(env, apiKey, { chat: { slow_mode_seconds: 30 } });
    assert.is((await post(env, id, anon('bob', 'one'))).status, 201);
    env.clock.advance(10);
    const early = await post(env, id, anon('bob', 'two'));
    assertError(early, 429, 'chat_slow_mode');
    assert.is(early.headers['retry-after'], '20');
    assert.is(early.body.error.details.retry_after_seconds, 20);
    // Another viewer is not held back by Bob's post.
    assert.is((await post(env, id, anon('eve', 'mine'))).status, 201);
    env.clock.advance(20);
    assert.is((await post(env, id, anon('bob', 'two'))).status, 201);
    const mod = await session(env, id, { sub: 'mod-1', name: 'Mo', role: 'moderator' });
    assert.is((await post(env, id, { text: 'a', session_token: mod })).status, 201);
    const again = await post(env, id, { text: 'b', session_token: mod });
    assert.is(again.status, 201, again.text);
    assert.is(again.body.author.role, 'moderator');
  },
);

t(
  'rate limit: five posts per ten seconds per viewer, then 429 chat_rate_limited with Retry-After',
  async ({ env, key: apiKey }) => {
    const { id } = await createStream(env, apiKey);
    for (let i = 0; i < 5; i++) {
      assert.is((await post(env, id, anon('bob', `m${i}`))).status, 201);
      env.clock.advance(1);
    }
    const sixth = await post(env, id, anon('bob', 'm5'));
    assertError(sixth, 429, 'chat_rate_limited');
    assert.is(sixth.headers['retry-after'], '5');
    env.clock.advance(5);
    assert.is((await post(env, id, anon('bob', 'm5'))).status, 201);
  },
);

t(
  'closed chat: 403 chat_disabled; stream over: 409 stream_ended; the history stays readable',
  async ({ env, key: apiKey }) => {
    const off = await createStream(env, apiKey, { chat: { enabled: false } });
    assertError(await post(env, off.id, anon('bob', 'hi')), 403, 'chat_disabled');
    const s = await createStream(env, apiKey);
    assert.is((await post(env, s.id, anon('bob', 'before'))).status, 201);
    assert.is((await env.call('DELETE', `/v1/streams/${s.id}`, { key: apiKey })).status, 200);
    env.clock.advance(2);
    assertError(await post(env, s.id, anon('bob', 'after')), 409, 'stream_ended');
    assert.equal(await history(env, s.id), ['before']);
  },
);

t(
  'allowed_domains: other sites get 403 origin_not_allowed; listed sites, subdomains, the player site and no Origin pass',
  async ({ env, key: apiKey }) => {
    const { id } = await createStream(env, apiKey, {
      player: { allowed_domains: ['school.example', '*.club.example', 'dev.example:8443'] },
    });
    const from = (origin: string) => ({ origin });
    const refused = await post(env, id, anon('bob', 'x'), from('https://evil.example'));
    assertError(refused, 403, 'origin_not_allowed');
    assertError(await post(env, id, anon('bob', 'x'), from('https://club.example')), 403, 'origin_not_allowed');
    assertError(await post(env, id, anon('bob', 'x'), from('https://dev.example')), 403, 'origin_not_allowed');
    assertError(await post(env, id, anon('bob', 'x'), from('null')), 403, 'origin_not_allowed');
    assertError(
      await env.call('GET', `/v1/embed/${id}/chat/messages`, { headers: from('https://evil.example') }),
      403,
      'origin_not_allowed',
    );
    assert.is((await post(env, id, anon('a1', 'x'), from('https://school.example'))).status, 201);
    assert.is((await post(env, id, anon('a2', 'x'), from('http://www.club.example'))).status, 201);
    assert.is((await post(env, id, anon('a3', 'x'), from('https://dev.example:8443'))).status, 201);
    assert.is(
      (await post(env, id, anon('a4', 'x'), from(new URL(env.config.publicUrls.player_url).origin))).status,
      201,
    );
    assert.is((await post(env, id, anon('a5', 'x'))).status, 201);
    // Without a list, any site.
    const open = await createStream(env, apiKey);
    assert.is((await post(env, open.id, anon('bob', 'x'), from('https://evil.example'))).status, 201);
  },
);

t('history: oldest first, paged back with before; deleted messages are gone', async ({ env, key: apiKey }) => {
  const { id } = await createStream(env, apiKey);
  const ids: string[] = [];
  for (let i = 0; i < 5; i++) {
    ids.push((await post(env, id, anon(`v${i}`, `m${i}`))).body.id);
    env.clock.advance(1);
  }
  const page = await env.call('GET', `/v1/embed/${id}/chat/messages?limit=2`);
  assert.is(page.status, 200);
  assert.is(page.headers['cache-control'], 'public, max-age=1');
  assert.equal(
    page.body.data.map((m: { text: string }) => m.text),
    ['m3', 'm4'],
  );
  assert.is(page.body.has_more, true);
  const older = await env.call('GET', `/v1/embed/${id}/chat/messages?limit=5&before=${page.body.data[0].id}`);
  assert.equal(
    older.body.data.map((m: { text: string }) => m.text),
    ['m0', 'm1', 'm2'],
  );
  assert.is(older.body.has_more, false);
  assertInvalidField(await env.call('GET', `/v1/embed/${id}/chat/messages?before=msg_nope`), 'before');
  const del = await env.call('DELETE', `/v1/streams/${id}/chat/messages/${ids[2]}`, { key: apiKey });
  assert.is(del.status, 200, del.text);
  assert.is(del.body.deleted_by, 'owner');
  assert.is(del.body.deleted_at, env.clock.now().toISOString());
  assert.equal(await history(env, id), ['m0', 'm1', 'm3', 'm4']);
  // Deleting again answers the same; an unknown message is 404.
  assert.is(
    (await env.call('DELETE', `/v1/streams/${id}/chat/messages/${ids[2]}`, { key: apiKey })).body.deleted_by,
    'owner',
  );
  assertError(
    await env.call('DELETE', `/v1/streams/${id}/chat/messages/msg_00000000000000000000`, { key: apiKey }),
    404,
    'not_found',
  );
  // The owner sees everything, newest first, with the author's viewer id.
  const owner = await env.call('GET', `/v1/streams/${id}/chat/messages?limit=10`, { key: apiKey });
  assert.is(owner.status, 200, owner.text);
  assert.equal(
    owner.body.data.map((m: { text: string }) => m.text),
    ['m4', 'm3', 'm2', 'm1', 'm0'],
  );
  assert.is(owner.body.data[2].deleted_by, 'owner');
  assert.is(owner.body.data[0].viewer_id, `anon:${clientId('v4')}`);
  assert.is(owner.body.data[0].hidden, false);
  assertError(await env.call('GET', `/v1/streams/${id}/chat/messages`), 401, 'unauthorized');
});

t(
  'ban by message_id: the author is shadowed (history, owner list), also from a new client id on the same network',
  async ({ env, key: apiKey }) => {
    const { id } = await createStream(env, apiKey);
    const troll = await post(env, id, anon('troll', 'bad'));
    // Everyone here posts from the same address: the kind viewer is a member (bans by network touch anonymous posts only).
    await post(env, id, { text: 'good', session_token: await session(env, id, { sub: 'kind', name: 'Kind' }) });
    const ban = await env.call('POST', `/v1/streams/${id}/chat/bans`, {
      key: apiKey,
      body: { message_id: troll.body.id },
    });
    assert.is(ban.status, 201, ban.text);
    assert.is(ban.body.viewer_id, `anon:${clientId('troll')}`);
    assert.is(ban.body.message_id, troll.body.id);
    assert.is(ban.body.created_by, 'owner');
    assert.equal(await history(env, id), ['good']);
    // A post after the ban is answered like any other…
    const after = await post(env, id, anon('troll', 'still here?'));
    assert.is(after.status, 201);
    // …and so is one from a fresh browser on the same network: neither reaches anyone else.
    env.clock.advance(1);
    const fresh = await post(env, id, {
      text: 'new browser',
      nickname: 'Nice person',
      client_id: clientId('fresh-browser'),
    });
    assert.is(fresh.status, 201);
    assert.equal(await history(env, id), ['good']);
    const owner = (await env.call('GET', `/v1/streams/${id}/chat/messages`, { key: apiKey })).body.data as {
      text: string;
      hidden: boolean;
    }[];
    assert.equal(
      owner
        .filter((m) => m.hidden)
        .map((m) => m.text)
        .sort(),
      ['bad', 'new browser', 'still here?'],
    );
    assertError(
      await env.call('POST', `/v1/streams/${id}/chat/bans`, {
        key: apiKey,
        body: { message_id: 'msg_00000000000000000000' },
      }),
      404,
      'not_found',
    );
  },
);

t('a ban follows the token sub into a new session', async ({ env, key: apiKey }) => {
  const { id } = await createStream(env, apiKey);
  const ban = await env.call('POST', `/v1/streams/${id}/chat/bans`, { key: apiKey, body: { viewer_id: 'pupil-9' } });
  assert.is(ban.status, 201, ban.text);
  const fresh = await session(env, id, { sub: 'pupil-9', name: 'Same Person' });
  assert.is((await post(env, id, { text: 'from a new browser', session_token: fresh })).status, 201);
  const other = await session(env, id, { sub: 'pupil-10', name: 'Other' });
  assert.is((await post(env, id, { text: 'visible', session_token: other })).status, 201);
  assert.equal(await history(env, id), ['visible']);
  // Lifting the ban: later posts are seen again.
  await env.call('DELETE', `/v1/streams/${id}/chat/bans/${ban.body.id}`, { key: apiKey });
  env.clock.advance(1);
  assert.is((await post(env, id, { text: 'back', session_token: fresh })).status, 201);
  assert.equal(await history(env, id), ['visible', 'back']);
});

t(
  'moderators: a moderator-role session deletes, bans and sets slow mode; others get 403 not_a_moderator; powers end after a day',
  async ({ env, key: apiKey }) => {
    const { id } = await createStream(env, apiKey);
    const mod = await session(env, id, { sub: 'mod-1', name: 'Mo', role: 'moderator' });
    const viewer = await session(env, id, { sub: 'v-1', name: 'Vi' });
    const victim = (await post(env, id, anon('spam', 'spam'))).body.id;
    const other = (await post(env, id, anon('spam2', 'more spam'))).body.id;
    assertError(
      await env.call('POST', `/v1/embed/${id}/mod/delete`, { body: { session_token: viewer, message_id: victim } }),
      403,
      'not_a_moderator',
    );
    const del = await env.call('POST', `/v1/embed/${id}/mod/delete`, {
      body: { session_token: mod, message_id: victim },
    });
    assert.is(del.status, 200, del.text);
    assert.match(del.body.deleted_by, /^mod_[a-z0-9]{20}$/);
    const ban = await env.call('POST', `/v1/embed/${id}/mod/ban`, { body: { session_token: mod, message_id: other } });
    assert.is(ban.status, 201, ban.text);
    assert.is(ban.body.created_by, del.body.deleted_by);
    assert.is(
      (await env.call('POST', `/v1/embed/${id}/mod/ban`, { body: { session_token: mod, message_id: other } })).status,
      200,
    );
    const slow = await env.call('POST', `/v1/embed/${id}/mod/slow-mode`, { body: { session_token: mod, seconds: 15 } });
    assert.is(slow.status, 200, slow.text);
    assert.is(slow.body.slow_mode_seconds, 15);
    const stream = await env.call('GET', `/v1/streams/${id}`, { key: apiKey });
    assert.is(stream.body.chat.slow_mode_seconds, 15);
    assertInvalidField(
      await env.call('POST', `/v1/embed/${id}/mod/slow-mode`, { body: { session_token: mod, seconds: 3601 } }),
      'seconds',
    );
    assert.equal(await history(env, id), []);
    // One day after the sign-in the powers are gone (the session itself lasts 24 hours: use a fresh one).
    env.clock.advance(86_401);
    const later = await session(env, id, { sub: 'v-2', name: 'Later' });
    const m = (await post(env, id, { text: 'hello', session_token: later })).body.id;
    const stale = await session(env, id, { sub: 'mod-1', name: 'Mo' });
    assertError(
      await env.call('POST', `/v1/embed/${id}/mod/delete`, { body: { session_token: stale, message_id: m } }),
      403,
      'not_a_moderator',
    );
  },
);

t('reactions: 204 for the set, 400 otherwise, 20 per ten seconds per viewer', async ({ env, key: apiKey }) => {
  const { id } = await createStream(env, apiKey);
  const react = (emoji: string, who = 'fan') =>
    env.call('POST', `/v1/embed/${id}/chat/reactions`, { body: { emoji, client_id: clientId(who) } });
  assert.is((await react('🔥')).status, 204);
  assertInvalidField(await react('💩'), 'emoji');
  for (let i = 1; i < 20; i++) assert.is((await react('👍')).status, 204);
  const over = await react('👍');
  assertError(over, 429, 'chat_rate_limited');
  assert.ok(Number(over.headers['retry-after']) >= 1);
  assert.is((await react('👍', 'other-fan')).status, 204);
});

t.run();
