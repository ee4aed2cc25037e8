import * as assert from 'uvu/assert';
import { apiSuite, type TestApi } from '../helpers/api.js';
import { assertError, createStream, goLive } from '../helpers/streams.js';
import { viewerToken, type ViewerKey } from '../helpers/viewer-tokens.js';

/** Sessions, members' personal addresses and their renewal, bans and the end of access (manual clock). */
const t = apiSuite('identity: sessions, personal playback, bans, access ended', {
  limits: { new: { pending_streams: 50, creations_per_hour: 500 } },
  viewers: { personal_playback_seconds: 300 },
});

let key: ViewerKey;
t.before(async ({ env, accountId }) => {
  const created = await env.accounts.createViewerKey(accountId);
  key = { id: created.id, secret: created.secret };
});

const PERSONAL = (streamId: string, sessionId: string) =>
  new RegExp(`^http://media\\.test:8081/[A-Za-z0-9_-]{22}\\.(\\d{10})/${sessionId}/${streamId}/master\\.m3u8$`);
const expiryOf = (url: string) => Number(/\.(\d{10})\//.exec(url)?.[1]) * 1000;

async function membersStream(env: TestApi, apiKey: string, accountId: string, live = true) {
  const s = await createStream(env, apiKey, { player: { require_viewer_token: true } });
  if (live) await goLive(env, accountId, s.id);
  return s.id as string;
}

const openSession = (env: TestApi, streamId: string, token: string) =>
  env.call('POST', `/v1/embed/${streamId}/session`, { body: { viewer_token: token } });
const renew = (env: TestApi, streamId: string, sessionToken: string) =>
  env.call('POST', `/v1/embed/${streamId}/playback`, { body: { session_token: sessionToken } });

t(
  'members-only: the embed has no address; a session brings a personal one for five minutes',
  async ({ env, key: apiKey, accountId }) => {
    const id = await membersStream(env, apiKey, accountId);
    env.clock.advance(1);
    const embed = await env.call('GET', `/v1/embed/${id}`);
    assert.is(embed.body.access, 'viewer_token');
    assert.is(embed.body.playback_url, null);
    const res = await openSession(env, id, await viewerToken(key, env.clock.now(), { sub: 'pupil-1', name: 'Ada' }));
    assert.is(res.status, 200, res.text);
    const s = res.body;
    assert.equal(
      Object.keys(s).sort(),
      [
        'access_until',
        'beacon',
        'expires_at',
        'id',
        'moderator',
        'object',
        'playback',
        'session_token',
        'stream_id',
        'viewer',
      ].sort(),
    );
    assert.is(s.object, 'viewer_session');
    assert.match(s.id, /^vsn_[a-z0-9]{20}$/);
    assert.is(s.stream_id, id);
    assert.equal(s.viewer, { id: 'pupil-1', name: 'Ada', role: 'viewer' });
    assert.is(s.moderator, null);
    assert.match(s.playback.url, PERSONAL(id, s.id));
    const now = env.clock.now().getTime();
    assert.is(new Date(s.playback.expires_at).getTime(), Math.floor((now + 300_000) / 1000) * 1000);
    assert.is(expiryOf(s.playback.url), new Date(s.playback.expires_at).getTime());
    assert.is(new Date(s.expires_at).getTime(), now + 24 * 3600_000);
    assert.is(new Date(s.access_until).getTime(), Math.floor(now / 1000) * 1000 + 3600_000);
    assert.equal(s.beacon, { rate: 1, interval_seconds: 30 });
    // Another viewer gets another address.
    const other = await openSession(env, id, await viewerToken(key, env.clock.now(), { sub: 'pupil-2' }));
    assert.is.not(other.body.playback.url, s.playback.url);
  },
);

t(
  'renewal: a new address for the same session, later expiry, only the signature changes',
  async ({ env, key: apiKey, accountId }) => {
    const id = await membersStream(env, apiKey, accountId);
    const s = (await openSession(env, id, await viewerToken(key, env.clock.now()))).body;
    env.clock.advance(200);
    const res = await renew(env, id, s.session_token);
    assert.is(res.status, 200, res.text);
    assert.equal(Object.keys(res.body).sort(), ['expires_at', 'object', 'url']);
    assert.is(res.body.object, 'playback');
    assert.match(res.body.url, PERSONAL(id, s.id));
    assert.ok(expiryOf(res.body.url) > expiryOf(s.playback.url));
    assert.is(res.body.url.replace(/^.*?\/vsn_/, ''), s.playback.url.replace(/^.*?\/vsn_/, ''));
    // The token may come as `t` too, but not both ways at once, and not at all is a 400.
    assert.is(
      (await env.call('POST', `/v1/embed/${id}/playback?t=${encodeURIComponent(s.session_token)}`)).status,
      200,
    );
    const both = await env.call('POST', `/v1/embed/${id}/playback?t=${encodeURIComponent(s.session_token)}`, {
      body: { session_token: s.session_token },
    });
    assertError(both, 400, 'invalid_request');
    assertError(await env.call('POST', `/v1/embed/${id}/playback`, { body: {} }), 400, 'invalid_request');
    assertError(
      await env.call('POST', `/v1/embed/${id}/playback`, { body: { session_token: s.session_token, extra: 1 } }),
      400,
      'invalid_request',
    );
  },
);

t(
  'renewal refused: forged or another stream’s session token (401), public stream (400), stream over (409)',
  async ({ env, key: apiKey, accountId }) => {
    const id = await membersStream(env, apiKey, accountId);
    const otherId = await membersStream(env, apiKey, accountId);
    const s = (await openSession(env, id, await viewerToken(key, env.clock.now()))).body;
    assertError(await renew(env, otherId, s.session_token), 401, 'invalid_viewer_token');
    const [h, p] = s.session_token.split('.');
    assertError(await renew(env, id, `${h}.${p}.${'A'.repeat(43)}`), 401, 'invalid_viewer_token');
    assertError(await renew(env, id, 'garbage'), 401, 'invalid_viewer_token');
    const publicId = (await createStream(env, apiKey)).id;
    const ps = (await openSession(env, publicId, await viewerToken(key, env.clock.now()))).body;
    assert.is(ps.playback, null);
    assertError(await renew(env, publicId, ps.session_token), 400, 'invalid_request');
    await env.call('DELETE', `/v1/streams/${id}`, { key: apiKey });
    env.clock.advance(1);
    assertError(await renew(env, id, s.session_token), 409, 'stream_ended');
  },
);

t(
  'access ends with the viewer token: the address never outlives exp, then viewer_access_ended',
  async ({ env, key: apiKey, accountId }) => {
    const id = await membersStream(env, apiKey, accountId);
    const exp = Math.floor(env.clock.now().getTime() / 1000) + 120;
    const s = (await openSession(env, id, await viewerToken(key, env.clock.now(), { exp }))).body;
    assert.is(new Date(s.playback.expires_at).getTime(), exp * 1000);
    env.clock.advance(121);
    const res = await renew(env, id, s.session_token);
    assertError(res, 403, 'viewer_access_ended');
    assert.match(res.body.error.message, /ended/);
  },
);

t(
  'bans: by viewer id, repeated is the same ban; renewal and new sessions refused; lifted, allowed again',
  async ({ env, key: apiKey, accountId }) => {
    const id = await membersStream(env, apiKey, accountId);
    const s = (await openSession(env, id, await viewerToken(key, env.clock.now(), { sub: 'troll' }))).body;
    const ban = await env.call('POST', `/v1/streams/${id}/chat/bans`, { key: apiKey, body: { viewer_id: 'troll' } });
    assert.is(ban.status, 201, ban.text);
    assert.equal(Object.keys(ban.body).sort(), [
      'channel_id',
      'created_at',
      'created_by',
      'id',
      'message_id',
      'object',
      'stream_id',
      'viewer_id',
    ]);
    assert.is(ban.body.object, 'ban');
    assert.match(ban.body.id, /^ban_[a-z0-9]{20}$/);
    assert.is(ban.body.viewer_id, 'troll');
    assert.equal([ban.body.stream_id, ban.body.channel_id], [id, null]);
    const again = await env.call('POST', `/v1/streams/${id}/chat/bans`, { key: apiKey, body: { viewer_id: 'troll' } });
    assert.is(again.status, 200);
    assert.is(again.body.id, ban.body.id);

    assertError(await renew(env, id, s.session_token), 403, 'viewer_removed');
    // A new browser, a new token for the same person: still refused.
    assertError(
      await openSession(env, id, await viewerToken(key, env.clock.now(), { sub: 'troll', name: 'New name' })),
      403,
      'viewer_removed',
    );
    // Someone else is not.
    assert.is((await openSession(env, id, await viewerToken(key, env.clock.now(), { sub: 'pupil' }))).status, 200);

    const list = await env.call('GET', `/v1/streams/${id}/chat/bans`, { key: apiKey });
    assert.is(list.status, 200);
    assert.equal(list.body, { object: 'list', data: [ban.body], has_more: false });
    assert.is((await env.call('DELETE', `/v1/streams/${id}/chat/bans/${ban.body.id}`, { key: apiKey })).status, 204);
    assertError(
      await env.call('DELETE', `/v1/streams/${id}/chat/bans/${ban.body.id}`, { key: apiKey }),
      404,
      'not_found',
    );
    assert.is((await renew(env, id, s.session_token)).status, 200);
  },
);

t(
  'bans: exactly one of viewer_id and message_id; an unknown message is 404; keyed and scoped to the account',
  async ({ env, key: apiKey, accountId }) => {
    const id = await membersStream(env, apiKey, accountId, false);
    const post = (body: unknown, k: string | undefined = apiKey) =>
      env.call('POST', `/v1/streams/${id}/chat/bans`, { key: k, body });
    assertError(await post({}), 400, 'invalid_request');
    assertError(await post({ viewer_id: 'a', message_id: 'msg_x' }), 400, 'invalid_request');
    assertError(await post({ viewer_id: '' }), 400, 'invalid_request');
    assertError(await post({ viewer_id: 'x'.repeat(65) }), 400, 'invalid_request');
    assertError(await post({ viewer_id: 'a', colour: 'red' }), 400, 'invalid_request');
    assertError(await post({ message_id: 'msg_00000000000000000000' }), 404, 'not_found');
    assertError(await post({ viewer_id: 'a' }, ''), 401, 'unauthorized');
    const other = await env.newAccount();
    assertError(await post({ viewer_id: 'a' }, other.key), 404, 'not_found');
    assertError(await env.call('GET', `/v1/streams/${id}/chat/bans`, { key: other.key }), 404, 'not_found');
  },
);

t('bans: listing pages newest first with starting_after', async ({ env, key: apiKey, accountId }) => {
  const id = await membersStream(env, apiKey, accountId, false);
  const made: string[] = [];
  for (let i = 0; i < 5; i++) {
    made.unshift(
      (await env.call('POST', `/v1/streams/${id}/chat/bans`, { key: apiKey, body: { viewer_id: `v${i}` } })).body.id,
    );
    env.clock.advance(1);
  }
  const first = await env.call('GET', `/v1/streams/${id}/chat/bans?limit=3`, { key: apiKey });
  assert.is(first.body.has_more, true);
  const second = await env.call('GET', `/v1/streams/${id}/chat/bans?limit=3&starting_after=${first.body.data[2].id}`, {
    key: apiKey,
  });
  assert.is(second.body.has_more, false);
  assert.equal(
    [...first.body.data, ...second.body.data].map((b: { id: string }) => b.id),
    made,
  );
});

t(
  'a public stream: a banned viewer still opens a session (bans are shadow there), no personal address',
  async ({ env, key: apiKey }) => {
    const id = (await createStream(env, apiKey)).id;
    await env.call('POST', `/v1/streams/${id}/chat/bans`, { key: apiKey, body: { viewer_id: 'shadow' } });
    const res = await openSession(env, id, await viewerToken(key, env.clock.now(), { sub: 'shadow' }));
    assert.is(res.status, 200, res.text);
    assert.is(res.body.playback, null);
  },
);

t('moderator-role token: a moderator for one day after each sign-in', async ({ env, key: apiKey }) => {
  const id = (await createStream(env, apiKey)).id;
  const res = await openSession(
    env,
    id,
    await viewerToken(key, env.clock.now(), { sub: 'mod-1', name: 'Grace', role: 'moderator' }),
  );
  assert.is(res.status, 200, res.text);
  assert.equal(res.body.viewer, { id: 'mod-1', name: 'Grace', role: 'moderator' });
  assert.is(res.body.moderator.object, 'moderator');
  assert.match(res.body.moderator.id, /^mod_[a-z0-9]{20}$/);
  assert.is(res.body.moderator.viewer_id, 'mod-1');
  assert.is(new Date(res.body.moderator.active_until).getTime(), env.clock.now().getTime() + 86_400_000);
  env.clock.advance(3600);
  const later = await openSession(
    env,
    id,
    await viewerToken(key, env.clock.now(), { sub: 'mod-1', role: 'moderator' }),
  );
  assert.is(later.body.moderator.id, res.body.moderator.id);
  assert.is(new Date(later.body.moderator.active_until).getTime(), env.clock.now().getTime() + 86_400_000);
});

t(
  'beats with t: a session token of this stream is accepted; forged or another stream’s is 401',
  async ({ env, key: apiKey }) => {
    const id = (await createStream(env, apiKey)).id;
    const otherId = (await createStream(env, apiKey)).id;
    const s = (await openSession(env, id, await viewerToken(key, env.clock.now()))).body;
    const beat = (streamId: string, t: string) =>
      env.call('POST', `/v1/embed/${streamId}/beat?s=page-load-1&st=w&u=0.5&t=${encodeURIComponent(t)}`);
    assert.is((await beat(id, s.session_token)).status, 204);
    assertError(await beat(otherId, s.session_token), 401, 'invalid_viewer_token');
    assertError(await beat(id, 'forged.token.here'), 401, 'invalid_viewer_token');
    // A session lasts 24 hours at most.
    env.clock.advance(24 * 3600 + 1);
    assertError(await beat(id, s.session_token), 401, 'invalid_viewer_token');
  },
);

t(
  'attendance through beats with t: playing time between reports, paused time not counted; anonymous beats never listed',
  async ({ env, key: apiKey }) => {
    const id = (await createStream(env, apiKey)).id;
    const s = (await openSession(env, id, await viewerToken(key, env.clock.now(), { sub: 'pupil-9', name: 'Lin' })))
      .body;
    const beat = (st: string, t?: string) =>
      env.call('POST', `/v1/embed/${id}/beat?s=page-load-9&st=${st}&u=0.9${t ? `&t=${encodeURIComponent(t)}` : ''}`);
    // Playing 60 s (two reports after the first), paused 60 s, playing 30 s.
    for (const st of ['p', 'p', 'p', 'z', 'z', 'p', 'p']) {
      assert.is((await beat(st, s.session_token)).status, 204);
      env.clock.advance(30);
    }
    // An anonymous page load beats too: counted as a viewer, never listed.
    await env.call('POST', `/v1/embed/${id}/beat?s=anonymous-1&st=p&u=0.1`);
    await env.api.attendance.flush();
    const res = await env.call('GET', `/v1/streams/${id}/attendance`, { key: apiKey });
    assert.is(res.status, 200, res.text);
    assert.is(res.body.total, 1);
    const [item] = res.body.data;
    assert.equal(
      { ...item, first_seen_at: null, last_seen_at: null },
      {
        object: 'attendance',
        viewer_id: 'pupil-9',
        name: 'Lin',
        watch_seconds: 60 + 30 + 30,
        first_seen_at: null,
        last_seen_at: null,
      },
    );
  },
);

t(
  'session rows are purged 7 days after the session ended, in batches; attendance and bans stay',
  async ({ env, key: apiKey, accountId }) => {
    const { sql } = env.db;
    const id = (await createStream(env, apiKey)).id;
    const old = (await openSession(env, id, await viewerToken(key, env.clock.now(), { sub: 'pupil-old', name: 'Old' })))
      .body;
    // Attendance and a ban of that viewer, which the API must keep showing.
    assert.is(
      (
        await env.call(
          'POST',
          `/v1/embed/${id}/beat?s=page-load-old&st=p&u=0.5&t=${encodeURIComponent(old.session_token)}`,
        )
      ).status,
      204,
    );
    env.clock.advance(30);
    assert.is(
      (
        await env.call(
          'POST',
          `/v1/embed/${id}/beat?s=page-load-old&st=p&u=0.5&t=${encodeURIComponent(old.session_token)}`,
        )
      ).status,
      204,
    );
    await env.api.attendance.flush();
    assert.is(
      (await env.call('POST', `/v1/streams/${id}/chat/bans`, { key: apiKey, body: { viewer_id: 'pupil-old' } })).status,
      201,
    );
    // A backlog of long-ended sessions, more than two batches.
    await sql`
    insert into viewer_sessions (id, stream_id, account_id, viewer_id, name, role, key_id, created_at, expires_at, access_until)
    select 'vsn_backlog' || lpad(g::text, 9, '0'), ${id}, ${accountId}, 'pupil-' || g, null, 'viewer', ${key.id},
           ${env.clock.now()}::timestamptz - interval '30 days', ${env.clock.now()}::timestamptz - interval '29 days', ${env.clock.now()}::timestamptz - interval '29 days'
    from generate_series(1, 12000) g`;
    env.clock.advance(24 * 3600);
    const recent = (await openSession(env, id, await viewerToken(key, env.clock.now(), { sub: 'pupil-new' }))).body;
    // The old session ended (24 h) 7 days and a second ago; the recent one ends in a day and so 6 days ago.
    env.clock.advance(7 * 86_400 + 1);
    const left = async () =>
      (await sql<{ id: string }[]>`select id from viewer_sessions where stream_id = ${id}`).map((r) => r.id);

    // An abandoned run stops after its current batch.
    const abandoned = new AbortController();
    abandoned.abort();
    assert.is(await env.api.identity.purgeSessions(abandoned.signal), 5000);
    assert.ok((await env.api.identity.purgeSessions()) >= 12000 + 1 - 5000);
    assert.equal(await left(), [recent.id]);
    assert.is(await env.api.identity.purgeSessions(), 0);

    const attendance = await env.call('GET', `/v1/streams/${id}/attendance`, { key: apiKey });
    assert.equal(
      attendance.body.data.map((a: { viewer_id: string; watch_seconds: number }) => [a.viewer_id, a.watch_seconds]),
      [['pupil-old', 30]],
    );
    const bans = await env.call('GET', `/v1/streams/${id}/chat/bans`, { key: apiKey });
    assert.equal(
      bans.body.data.map((b: { viewer_id: string }) => b.viewer_id),
      ['pupil-old'],
    );
  },
);

t.run();
