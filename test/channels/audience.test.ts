import * as assert from 'uvu/assert';
import { apiSuite, type TestApi } from '../helpers/api.js';
import { insertChannel, setStreamChannel } from '../helpers/channels.js';
import { assertError, assertInvalidField, createStream, goLive } from '../helpers/streams.js';
import { viewerToken, type ViewerKey } from '../helpers/viewer-tokens.js';

/**
 * A channel as the spec's moderation group: viewer tokens scoped to it, its moderators and bans
 * following the person across its streams, and its attendance (manual clock; channels made in
 * the database until `/v1/channels` lands).
 */
const t = apiSuite('channels: viewer tokens, moderators, bans, attendance across its streams', {
  limits: { new: { pending_streams: 50, creations_per_hour: 500 } },
});

let key: ViewerKey;
t.before(async ({ env, accountId }) => {
  const created = await env.accounts.createViewerKey(accountId);
  key = { id: created.id, secret: created.secret };
});

/** A live stream of the account in `channelId` (null: in none). */
async function streamIn(
  env: TestApi,
  apiKey: string,
  accountId: string,
  channelId: string | null,
  membersOnly = true,
): Promise<string> {
  const s = await createStream(env, apiKey, { player: { require_viewer_token: membersOnly } });
  await setStreamChannel(env.db.sql, s.id, channelId);
  await goLive(env, accountId, s.id);
  return s.id;
}

const token = (env: TestApi, claims: Record<string, unknown>) => viewerToken(key, env.clock.now(), claims);
const openSession = (env: TestApi, streamId: string, viewerToken: string) =>
  env.call('POST', `/v1/embed/${streamId}/session`, { body: { viewer_token: viewerToken } });
const post = (env: TestApi, streamId: string, sessionToken: string, text: string) =>
  env.call('POST', `/v1/embed/${streamId}/chat/messages`, { body: { session_token: sessionToken, text } });
const ownerMessages = async (env: TestApi, apiKey: string, streamId: string) =>
  (await env.call('GET', `/v1/streams/${streamId}/chat/messages?limit=100`, { key: apiKey })).body.data as {
    id: string;
    text: string;
    hidden: boolean;
    deleted_by: string | null;
  }[];
const publicTexts = async (env: TestApi, streamId: string) =>
  ((await env.call('GET', `/v1/embed/${streamId}/chat/messages`)).body.data as { text: string }[]).map((m) => m.text);
type Method = Parameters<TestApi['call']>[0];
const channelCall = (env: TestApi, apiKey: string, method: Method, path: string, body?: unknown) =>
  env.call(method, `/v1/channels${path}`, { key: apiKey, ...(body === undefined ? {} : { body }) });

/** Opens a session and returns its body, asserting 200. */
async function session(env: TestApi, streamId: string, claims: Record<string, unknown>) {
  const res = await openSession(env, streamId, await token(env, claims));
  assert.is(res.status, 200, res.text);
  return res.body;
}

t(
  "a channel-scoped token opens sessions on the channel's streams, and is refused elsewhere",
  async ({ env, key: apiKey, accountId }) => {
    const channel = await insertChannel(env.db.sql, accountId);
    const [a, b] = [await streamIn(env, apiKey, accountId, channel), await streamIn(env, apiKey, accountId, channel)];
    const outside = await streamIn(env, apiKey, accountId, null);
    const otherChannel = await insertChannel(env.db.sql, accountId);
    const elsewhere = await streamIn(env, apiKey, accountId, otherChannel);

    const scoped = await token(env, { sub: 'pupil-1', name: 'Ada', stream: channel });
    for (const id of [a, b]) {
      const res = await openSession(env, id, scoped);
      assert.is(res.status, 200, res.text);
      assert.is(res.body.stream_id, id);
      assert.equal(res.body.viewer, { id: 'pupil-1', name: 'Ada', role: 'viewer' });
      // Members-only: the personal address and its renewal work on each stream of the channel.
      assert.ok(res.body.playback?.url, res.text);
      const renewed = await env.call('POST', `/v1/embed/${id}/playback`, {
        body: { session_token: res.body.session_token },
      });
      assert.is(renewed.status, 200, renewed.text);
      assert.is((await post(env, id, res.body.session_token, `hello ${id}`)).status, 201);
      const beat = `/v1/embed/${id}/beat?s=page-${id}&st=p&u=0.5&t=${encodeURIComponent(res.body.session_token)}`;
      assert.is((await env.call('POST', beat)).status, 204);
    }
    for (const id of [outside, elsewhere]) {
      const res = await openSession(env, id, scoped);
      assertError(res, 401, 'invalid_viewer_token');
      assert.match(
        res.body.error.message,
        `Viewer token refused: the token is for channel "${channel}", and this stream is not in that channel.`,
      );
    }
    // A stream's own id still scopes a token to that stream alone, in a channel or not.
    const streamScoped = await token(env, { sub: 'pupil-1', stream: a });
    assert.is((await openSession(env, a, streamScoped)).status, 200);
    const refused = await openSession(env, b, streamScoped);
    assertError(refused, 401, 'invalid_viewer_token');
    assert.match(refused.body.error.message, `the token is for "${a}", not this stream`);
    // A session of one stream of the channel is not a session of the other.
    const onA = await session(env, a, { sub: 'pupil-2', stream: channel });
    assertError(await post(env, b, onA.session_token, 'cross'), 401, 'invalid_viewer_token');
  },
);

t(
  'a channel ban follows the person onto the next stream: chat shadowed, members-only playback refused',
  async ({ env, key: apiKey, accountId }) => {
    const channel = await insertChannel(env.db.sql, accountId);
    const members = await streamIn(env, apiKey, accountId, channel);
    const open = await streamIn(env, apiKey, accountId, channel, false);
    const outside = await streamIn(env, apiKey, accountId, null);

    const before = await session(env, members, { sub: 'troll', name: 'Troll' });
    const trollOpen = await session(env, open, { sub: 'troll', name: 'Troll' });
    const earlier = await post(env, open, trollOpen.session_token, 'posted before the ban');
    assert.is(earlier.status, 201);

    const ban = await channelCall(env, apiKey, 'POST', `/${channel}/chat/bans`, { viewer_id: 'troll' });
    assert.is(ban.status, 201, ban.text);
    assert.equal(
      [ban.body.object, ban.body.stream_id, ban.body.channel_id, ban.body.viewer_id, ban.body.created_by],
      ['ban', null, channel, 'troll', 'owner'],
    );
    assert.match(ban.body.id, /^ban_[a-z0-9]{20}$/);
    const again = await channelCall(env, apiKey, 'POST', `/${channel}/chat/bans`, { viewer_id: 'troll' });
    assert.equal([again.status, again.body.id], [200, ban.body.id]);

    // Chat: the earlier post is shadowed, a later one is answered 201 and shown to nobody else.
    assert.is((await post(env, open, trollOpen.session_token, 'posted after the ban')).status, 201);
    const shown = await publicTexts(env, open);
    assert.not.ok(shown.includes('posted before the ban') || shown.includes('posted after the ban'), `${shown}`);
    assert.ok((await ownerMessages(env, apiKey, open)).every((m) => m.hidden));
    // Members-only: renewal and new sessions refused, on a stream made after the ban too.
    assertError(
      await env.call('POST', `/v1/embed/${members}/playback`, { body: { session_token: before.session_token } }),
      403,
      'viewer_removed',
    );
    assertError(await openSession(env, members, await token(env, { sub: 'troll' })), 403, 'viewer_removed');
    const next = await streamIn(env, apiKey, accountId, channel);
    assertError(
      await openSession(env, next, await token(env, { sub: 'troll', stream: channel })),
      403,
      'viewer_removed',
    );
    // Outside the channel the ban does not apply.
    assert.is((await openSession(env, outside, await token(env, { sub: 'troll' }))).status, 200);

    // Listed on the channel, not on its streams; lifted, the person is back.
    const listed = await channelCall(env, apiKey, 'GET', `/${channel}/chat/bans`);
    assert.equal(
      listed.body.data.map((b: { id: string }) => b.id),
      [ban.body.id],
    );
    assert.equal((await env.call('GET', `/v1/streams/${members}/chat/bans`, { key: apiKey })).body.data, []);
    assert.is((await channelCall(env, apiKey, 'DELETE', `/${channel}/chat/bans/${ban.body.id}`)).status, 204);
    assertError(await channelCall(env, apiKey, 'DELETE', `/${channel}/chat/bans/${ban.body.id}`), 404, 'not_found');
    assert.is((await openSession(env, next, await token(env, { sub: 'troll' }))).status, 200);

    // By message: a message of any stream of the channel; the author's posts on every stream are shadowed.
    const loudA = await session(env, open, { sub: 'loud', name: 'Loud' });
    const loudB = await session(env, next, { sub: 'loud', name: 'Loud' });
    const onA = (await post(env, open, loudA.session_token, 'loud on open')).body;
    assert.is((await post(env, next, loudB.session_token, 'loud on next')).status, 201);
    const byMessage = await channelCall(env, apiKey, 'POST', `/${channel}/chat/bans`, { message_id: onA.id });
    assert.is(byMessage.status, 201, byMessage.text);
    assert.equal([byMessage.body.viewer_id, byMessage.body.message_id], ['loud', onA.id]);
    assert.not.ok((await publicTexts(env, next)).includes('loud on next'));
    assert.not.ok((await publicTexts(env, open)).includes('loud on open'));
    // A message of a stream outside the channel is not one of the channel's.
    const outsider = await session(env, outside, { sub: 'outsider', name: 'Outsider' });
    const farPost = await post(env, outside, outsider.session_token, 'far away');
    assert.is(farPost.status, 201, farPost.text);
    const far = farPost.body;
    assertError(
      await channelCall(env, apiKey, 'POST', `/${channel}/chat/bans`, { message_id: far.id }),
      404,
      'not_found',
    );
  },
);

t(
  "a channel's moderator moderates every stream of it; its bans are the channel's; removed, no token restores it",
  async ({ env, key: apiKey, accountId }) => {
    const channel = await insertChannel(env.db.sql, accountId);
    const a = await streamIn(env, apiKey, accountId, channel, false);
    const b = await streamIn(env, apiKey, accountId, channel);
    const outside = await streamIn(env, apiKey, accountId, null, false);

    assertInvalidField(
      await channelCall(env, apiKey, 'POST', `/${channel}/chat/moderators`, { name: 'M' }),
      'viewer_id',
    );
    const invited = await channelCall(env, apiKey, 'POST', `/${channel}/chat/moderators`, {
      viewer_id: 'mod-1',
      name: 'Grace',
      active_days: 7,
    });
    assert.is(invited.status, 201, invited.text);
    const m = invited.body;
    assert.equal(
      [m.object, m.stream_id, m.channel_id, m.viewer_id, m.source, m.link],
      ['moderator', null, channel, 'mod-1', 'invitation', null],
    );
    assert.is(new Date(m.active_until).getTime(), env.clock.now().getTime() + 7 * 86_400_000);

    // Their ordinary token opens a moderator session on each stream of the channel, not outside it.
    const modA = await session(env, a, { sub: 'mod-1', stream: channel });
    const modB = await session(env, b, { sub: 'mod-1' });
    for (const s of [modA, modB]) {
      assert.is(s.viewer.role, 'moderator');
      assert.equal(s.moderator?.id, m.id);
    }
    assert.is((await session(env, outside, { sub: 'mod-1' })).moderator, null);

    // Deletes a message on each stream.
    for (const [id, viewer] of [
      [a, 'chatty-a'],
      [b, 'chatty-b'],
    ] as const) {
      const chatty = await session(env, id, { sub: viewer, name: viewer });
      const msg = (await post(env, id, chatty.session_token, `from ${viewer}`)).body;
      const del = await env.call('POST', `/v1/embed/${id}/mod/delete`, {
        body: { session_token: id === a ? modA.session_token : modB.session_token, message_id: msg.id },
      });
      assert.is(del.status, 200, del.text);
      assert.is(del.body.deleted_by, m.id);
    }
    // A ban made on stream b reaches stream a: the channel is the moderation group.
    const spammer = await session(env, b, { sub: 'spammer', name: 'Spam' });
    const spam = (await post(env, b, spammer.session_token, 'buy now')).body;
    const ban = await env.call('POST', `/v1/embed/${b}/mod/ban`, {
      body: { session_token: modB.session_token, message_id: spam.id },
    });
    assert.is(ban.status, 201, ban.text);
    assert.equal([ban.body.stream_id, ban.body.channel_id, ban.body.created_by], [null, channel, m.id]);
    const spammerA = await session(env, a, { sub: 'spammer', name: 'Spam' });
    assert.is((await post(env, a, spammerA.session_token, 'buy now on a')).status, 201);
    assert.not.ok((await publicTexts(env, a)).includes('buy now on a'));

    // A moderator-role token on a stream of a channel makes a moderator of the channel, listed there.
    const signedIn = await session(env, a, { sub: 'mod-2', name: 'Tokened', role: 'moderator' });
    assert.is(signedIn.viewer.role, 'moderator');
    const listed = await channelCall(env, apiKey, 'GET', `/${channel}/chat/moderators`);
    const tokened = listed.body.data.find((x: { viewer_id: string }) => x.viewer_id === 'mod-2');
    assert.equal([tokened?.source, tokened?.channel_id, tokened?.stream_id], ['token', channel, null]);
    assert.equal((await env.call('GET', `/v1/streams/${a}/chat/moderators`, { key: apiKey })).body.data, []);
    assert.is((await session(env, b, { sub: 'mod-2' })).viewer.role, 'moderator');

    // Removed on the channel: refused on both streams, and later moderator-role tokens do not restore it.
    assert.is((await channelCall(env, apiKey, 'DELETE', `/${channel}/chat/moderators/${tokened.id}`)).status, 204);
    assertError(
      await channelCall(env, apiKey, 'DELETE', `/${channel}/chat/moderators/${tokened.id}`),
      404,
      'not_found',
    );
    env.clock.advance(2);
    const victim = (await post(env, a, spammerA.session_token, 'still here')).body;
    assertError(
      await env.call('POST', `/v1/embed/${a}/mod/delete`, {
        body: { session_token: signedIn.session_token, message_id: victim.id },
      }),
      403,
      'not_a_moderator',
    );
    for (const id of [a, b]) {
      const later = await session(env, id, { sub: 'mod-2', role: 'moderator', stream: channel });
      assert.equal([later.viewer.role, later.moderator], ['viewer', null]);
    }
    // The owner invites them on one stream only: that stream's moderator, not the other's.
    const onB = await env.call('POST', `/v1/streams/${b}/chat/moderators`, {
      key: apiKey,
      body: { viewer_id: 'mod-2', name: 'Only b' },
    });
    assert.is(onB.status, 201, onB.text);
    assert.is((await session(env, b, { sub: 'mod-2', role: 'moderator' })).moderator?.id, onB.body.id);
    assert.is((await session(env, a, { sub: 'mod-2', role: 'moderator' })).moderator, null);
  },
);

t(
  "attendance of a channel: each viewer's watch time summed over its streams",
  async ({ env, key: apiKey, accountId }) => {
    const channel = await insertChannel(env.db.sql, accountId);
    const a = await streamIn(env, apiKey, accountId, channel);
    const b = await streamIn(env, apiKey, accountId, channel);
    const outside = await streamIn(env, apiKey, accountId, null);
    const t0 = env.clock.now();

    /** A session that plays for `seconds` (reports every 30 s) from now. */
    async function watch(streamId: string, claims: Record<string, unknown>, seconds: number): Promise<void> {
      const s = await session(env, streamId, claims);
      for (let at = 0; at <= seconds; at += 30) {
        if (at > 0) env.clock.advance(30);
        const beat = `/v1/embed/${streamId}/beat?s=${s.id}&st=p&u=0.5&t=${encodeURIComponent(s.session_token)}`;
        assert.is((await env.call('POST', beat)).status, 204);
      }
    }
    await watch(a, { sub: 'pupil-1', name: 'Ada' }, 60);
    await watch(a, { sub: 'pupil-2' }, 30);
    env.clock.advance(600);
    await watch(b, { sub: 'pupil-1', name: 'Ada L.' }, 90);
    await watch(b, { sub: 'pupil-2' }, 30);
    await watch(outside, { sub: 'pupil-1', name: 'Elsewhere' }, 300);
    await env.api.attendance.flush();

    const res = await channelCall(env, apiKey, 'GET', `/${channel}/attendance`);
    assert.is(res.status, 200, res.text);
    assert.equal(Object.keys(res.body), ['object', 'data', 'has_more', 'next_after', 'total']);
    assert.equal([res.body.total, res.body.has_more, res.body.next_after], [2, false, null]);
    const [ada, other] = res.body.data;
    assert.equal(ada, {
      object: 'attendance',
      viewer_id: 'pupil-1',
      name: 'Ada L.',
      watch_seconds: 150,
      first_seen_at: t0.toISOString(),
      // Its last report on b: 60 s on a, then 30 s on a, 600 s, then 90 s on b.
      last_seen_at: new Date(t0.getTime() + (60 + 30 + 600 + 90) * 1000).toISOString(),
    });
    assert.equal([other.viewer_id, other.name, other.watch_seconds], ['pupil-2', null, 60]);
    // Each stream keeps its own.
    const onA = await env.call('GET', `/v1/streams/${a}/attendance`, { key: apiKey });
    assert.equal(
      onA.body.data.map((x: { watch_seconds: number }) => x.watch_seconds),
      [60, 30],
    );
    // Paging: the same keyset as a stream's.
    const first = await channelCall(env, apiKey, 'GET', `/${channel}/attendance?limit=1`);
    assert.equal(
      [first.body.data.length, first.body.has_more, first.body.next_after, first.body.total],
      [1, true, 'pupil-1', 2],
    );
    const second = await channelCall(env, apiKey, 'GET', `/${channel}/attendance?limit=1&after=pupil-1`);
    assert.equal(
      [second.body.data[0].viewer_id, second.body.has_more, second.body.next_after],
      ['pupil-2', false, null],
    );
    // An empty channel: an empty list.
    const empty = await insertChannel(env.db.sql, accountId);
    assert.equal((await channelCall(env, apiKey, 'GET', `/${empty}/attendance`)).body, {
      object: 'list',
      data: [],
      has_more: false,
      next_after: null,
      total: 0,
    });
  },
);

t(
  "another account's channel and unknown ids are 404 on every route; bad input 400 naming the field",
  async ({ env, key: apiKey, accountId }) => {
    const other = await env.newAccount();
    const theirs = await insertChannel(env.db.sql, other.id);
    const mine = await insertChannel(env.db.sql, accountId);
    const routes: [Method, string, unknown?][] = [
      ['POST', '/chat/moderators', { viewer_id: 'v', name: 'M' }],
      ['GET', '/chat/moderators'],
      ['DELETE', '/chat/moderators/mod_aaaaaaaaaaaaaaaaaaaa'],
      ['POST', '/chat/bans', { viewer_id: 'v' }],
      ['GET', '/chat/bans'],
      ['DELETE', '/chat/bans/ban_aaaaaaaaaaaaaaaaaaaa'],
      ['GET', '/attendance'],
    ];
    for (const id of [theirs, 'chn_doesnotexist0000000', 'str_aaaaaaaaaaaaaaaaaaaa', 'nonsense'])
      for (const [method, path, body] of routes)
        assertError(await channelCall(env, apiKey, method, `/${id}${path}`, body), 404, 'not_found');
    for (const [method, path, body] of routes)
      assertError(
        await env.call(method, `/v1/channels/${mine}${path}`, { ...(body === undefined ? {} : { body }) }),
        401,
        'unauthorized',
      );
    // The owner of the other account reaches theirs.
    assert.is((await channelCall(env, other.key, 'GET', `/${theirs}/chat/bans`)).status, 200);

    const ban = (body: unknown) => channelCall(env, apiKey, 'POST', `/${mine}/chat/bans`, body);
    assertInvalidField(await ban({}), 'viewer_id');
    assertInvalidField(await ban({ viewer_id: 'v', message_id: 'msg_aaaaaaaaaaaaaaaaaaaa' }), 'message_id');
    assertInvalidField(await ban({ viewer_id: 'x'.repeat(65) }), 'viewer_id');
    assertError(await ban({ viewer_id: 'v', colour: 'red' }), 400, 'invalid_request');
    const invite = (body: unknown) => channelCall(env, apiKey, 'POST', `/${mine}/chat/moderators`, body);
    assertInvalidField(await invite({ viewer_id: 'v' }), 'name');
    for (const days of [0, 31, 1.5, '7'])
      assertInvalidField(await invite({ viewer_id: 'v', name: 'M', active_days: days }), 'active_days');
    assertError(await invite({ viewer_id: 'v', name: 'M', role: 'admin' }), 400, 'invalid_request');
    for (const query of ['?limit=0', '?limit=1001', '?colour=red', '?after='])
      assertError(await channelCall(env, apiKey, 'GET', `/${mine}/attendance${query}`), 400, 'invalid_request');
    assertError(await channelCall(env, apiKey, 'GET', `/${mine}/chat/bans?limit=101`), 400, 'invalid_request');
    assertError(
      await channelCall(env, apiKey, 'GET', `/${mine}/chat/moderators?starting_after=x`),
      400,
      'invalid_request',
    );
  },
);

t.run();
