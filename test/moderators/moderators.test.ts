import * as assert from 'uvu/assert';
import { apiSuite, type TestApi } from '../helpers/api.js';
import { assertError, assertInvalidField, createStream, goLive } from '../helpers/streams.js';
import { viewerToken, type ViewerKey } from '../helpers/viewer-tokens.js';

/** Chat moderators: invitations and their links, moderator sessions, token moderators (manual clock). */
const t = apiSuite('moderators: invitations, links, moderator sessions', {
  limits: { new: { pending_streams: 50, creations_per_hour: 500 } },
});

let key: ViewerKey;
t.before(async ({ env, accountId }) => {
  const created = await env.accounts.createViewerKey(accountId);
  key = { id: created.id, secret: created.secret };
});

const DAY = 86_400_000;
const invite = (env: TestApi, apiKey: string, streamId: string, body: unknown) =>
  env.call('POST', `/v1/streams/${streamId}/chat/moderators`, { key: apiKey, body });
const list = (env: TestApi, apiKey: string, streamId: string, query = '') =>
  env.call('GET', `/v1/streams/${streamId}/chat/moderators${query}`, { key: apiKey });
const remove = (env: TestApi, apiKey: string, streamId: string, modId: string) =>
  env.call('DELETE', `/v1/streams/${streamId}/chat/moderators/${modId}`, { key: apiKey });
const openSession = (env: TestApi, streamId: string, token: string) =>
  env.call('POST', `/v1/embed/${streamId}/session`, { body: { viewer_token: token } });
const modSession = (env: TestApi, streamId: string, token: string) =>
  env.call('POST', `/v1/embed/${streamId}/mod/session`, { body: { moderator_token: token } });
const tokenOf = (link: string): string => link.slice(link.indexOf('#mod=') + 5);
const stream = async (env: TestApi, apiKey: string, body: unknown = {}): Promise<string> =>
  (await createStream(env, apiKey, body)).id;

t(
  'invite: 201 with a link; again with the same viewer id: 200, the same moderator, reset to now + active_days',
  async ({ env, key: apiKey }) => {
    const id = await stream(env, apiKey);
    const res = await invite(env, apiKey, id, { viewer_id: 'teacher-17', name: 'Ms Rivera' });
    assert.is(res.status, 201, res.text);
    const m = res.body;
    assert.equal(Object.keys(m).sort(), [
      'active_until',
      'channel_id',
      'created_at',
      'id',
      'link',
      'name',
      'object',
      'source',
      'stream_id',
      'viewer_id',
    ]);
    assert.is(m.object, 'moderator');
    assert.match(m.id, /^mod_[a-z0-9]{20}$/);
    assert.equal([m.stream_id, m.viewer_id, m.name, m.source], [id, 'teacher-17', 'Ms Rivera', 'invitation']);
    assert.is(m.created_at, env.clock.now().toISOString());
    assert.is(new Date(m.active_until).getTime(), env.clock.now().getTime() + 30 * DAY);
    assert.match(m.link, new RegExp(`^${env.config.publicUrls.player_url}/${id}#mod=${m.id}\\.[A-Za-z0-9_-]{43}$`));

    env.clock.advance(3600);
    const again = await invite(env, apiKey, id, { viewer_id: 'teacher-17', name: 'Ana Rivera', active_days: 7 });
    assert.is(again.status, 200, again.text);
    assert.equal(
      [again.body.id, again.body.name, again.body.created_at, again.body.link],
      [m.id, 'Ana Rivera', m.created_at, m.link],
    );
    assert.is(new Date(again.body.active_until).getTime(), env.clock.now().getTime() + 7 * DAY);

    // Without a viewer id: a link-only moderator whose viewer id is its own id, new every time.
    const linkOnly = await invite(env, apiKey, id, { name: 'Helper', active_days: 1 });
    assert.is(linkOnly.status, 201, linkOnly.text);
    assert.is(linkOnly.body.viewer_id, linkOnly.body.id);
    assert.is(new Date(linkOnly.body.active_until).getTime(), env.clock.now().getTime() + DAY);
    assert.is((await invite(env, apiKey, id, { name: 'Helper' })).status, 201);
  },
);

t(
  'invite: name required (1-40, not blank), active_days 1-30, nothing else; keyed and scoped to the account',
  async ({ env, key: apiKey }) => {
    const id = await stream(env, apiKey);
    for (const days of [0, 31, 1.5, '7', null])
      assertInvalidField(await invite(env, apiKey, id, { name: 'A', active_days: days }), 'active_days');
    assertInvalidField(await invite(env, apiKey, id, {}), 'name');
    for (const name of ['', ' \t', 'x'.repeat(41), 'a\u0000b', 'two\nlines', 7])
      assertInvalidField(await invite(env, apiKey, id, { name }), 'name');
    assertInvalidField(await invite(env, apiKey, id, { name: 'A', viewer_id: '' }), 'viewer_id');
    assertInvalidField(await invite(env, apiKey, id, { name: 'A', viewer_id: 'x'.repeat(65) }), 'viewer_id');
    assertError(await invite(env, apiKey, id, { name: 'A', role: 'admin' }), 400, 'invalid_request');
    assert.is((await invite(env, apiKey, id, { name: 'x'.repeat(40), active_days: 30 })).status, 201);
    assert.is((await invite(env, apiKey, id, { name: 'Ünïcødé 直播', active_days: 1 })).status, 201);

    assertError(await invite(env, '', id, { name: 'A' }), 401, 'unauthorized');
    const other = await env.newAccount();
    assertError(await invite(env, other.key, id, { name: 'A' }), 404, 'not_found');
    assertError(await list(env, other.key, id), 404, 'not_found');
    assertError(await invite(env, apiKey, 'str_aaaaaaaaaaaaaaaaaaaa', { name: 'A' }), 404, 'not_found');
  },
);

t(
  'list: newest first, pages with starting_after, removed ones left out; remove is 204, then 404',
  async ({ env, key: apiKey }) => {
    const id = await stream(env, apiKey);
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      made.unshift((await invite(env, apiKey, id, { viewer_id: `v${i}`, name: `Mod ${i}` })).body.id);
      env.clock.advance(1);
    }
    const first = await list(env, apiKey, id, '?limit=3');
    assert.is(first.status, 200, first.text);
    assert.is(first.body.object, 'list');
    assert.is(first.body.has_more, true);
    const second = await list(env, apiKey, id, `?limit=3&starting_after=${first.body.data[2].id}`);
    assert.is(second.body.has_more, false);
    assert.equal(
      [...first.body.data, ...second.body.data].map((m: { id: string }) => m.id),
      made,
    );
    // Each listed moderator reads the same as when it was made, link included.
    assert.is(first.body.data[0].link, (await invite(env, apiKey, id, { viewer_id: 'v4', name: 'Mod 4' })).body.link);

    assert.is((await remove(env, apiKey, id, made[1] as string)).status, 204);
    assertError(await remove(env, apiKey, id, made[1] as string), 404, 'not_found');
    assertError(await remove(env, apiKey, id, 'mod_aaaaaaaaaaaaaaaaaaaa'), 404, 'not_found');
    const after = await list(env, apiKey, id, '?limit=100');
    assert.equal(
      after.body.data.map((m: { id: string }) => m.id),
      made.filter((m) => m !== made[1]),
    );
    for (const bad of ['?limit=0', '?limit=101', '?colour=red'])
      assertError(await list(env, apiKey, id, bad), 400, 'invalid_request');

    // Another stream's moderator is not this stream's.
    const otherStream = await stream(env, apiKey);
    assertError(await remove(env, apiKey, otherStream, made[0] as string), 404, 'not_found');
  },
);

t(
  "a link opens a moderator session: the invitation's viewer id and name, 24 hours at most",
  async ({ env, key: apiKey, accountId }) => {
    const id = await stream(env, apiKey, { player: { require_viewer_token: true } });
    await goLive(env, accountId, id);
    const m = (await invite(env, apiKey, id, { name: 'Grace' })).body;
    const res = await modSession(env, id, tokenOf(m.link));
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
    assert.equal(s.viewer, { id: m.id, name: 'Grace', role: 'moderator' });
    assert.equal(s.moderator, {
      object: 'moderator',
      id: m.id,
      viewer_id: m.id,
      name: 'Grace',
      active_until: m.active_until,
    });
    const now = env.clock.now().getTime();
    assert.is(new Date(s.expires_at).getTime(), now + DAY);
    assert.is(new Date(s.access_until).getTime(), now + DAY);
    // Members-only: the moderator watches with a personal address, and its session token works on beats.
    assert.ok(s.playback?.url);
    assert.is(
      (await env.call('POST', `/v1/embed/${id}/playback`, { body: { session_token: s.session_token } })).status,
      200,
    );
    assert.is(
      (await env.call('POST', `/v1/embed/${id}/beat?s=mod-page-1&st=p&u=0.5&t=${encodeURIComponent(s.session_token)}`))
        .status,
      204,
    );
    assert.equal(await env.api.moderators.active({ id: id, channel_id: null }, m.id), {
      id: m.id,
      name: 'Grace',
      channelId: null,
    });

    // An invitation that ends sooner ends the session with it.
    const short = (await invite(env, apiKey, id, { viewer_id: 'teacher', name: 'Short', active_days: 1 })).body;
    env.clock.advance(23 * 3600);
    const late = await modSession(env, id, tokenOf(short.link));
    assert.is(late.status, 200, late.text);
    assert.equal(late.body.viewer, { id: 'teacher', name: 'Short', role: 'moderator' });
    assert.is(late.body.expires_at, short.active_until);
    assert.is(late.body.access_until, short.active_until);
  },
);

t(
  'a link is refused (401, saying why) when forged, of another stream, removed or run out; inviting again revives it',
  async ({ env, key: apiKey }) => {
    const id = await stream(env, apiKey);
    const otherId = await stream(env, apiKey);
    const m = (await invite(env, apiKey, id, { viewer_id: 'helper', name: 'Helper', active_days: 2 })).body;
    const token = tokenOf(m.link);
    const refused = async (streamId: string, t: string, why: RegExp) => {
      const res = await modSession(env, streamId, t);
      assertError(res, 401, 'invalid_viewer_token');
      assert.match(res.body.error.message, why);
    };
    const [modId, mac] = token.split('.') as [string, string];
    await refused(id, `${modId}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`, /not issued by this service/);
    await refused(id, `${modId}.${mac}=`, /not issued by this service/);
    await refused(id, `mod_aaaaaaaaaaaaaaaaaaaa.${mac}`, /not issued by this service/);
    await refused(id, 'garbage', /not issued by this service/);
    await refused(otherId, token, /another stream/);
    assertError(await modSession(env, id, ''), 400, 'invalid_request');
    assertError(await modSession(env, 'str_aaaaaaaaaaaaaaaaaaaa', token), 404, 'not_found');

    assert.is((await modSession(env, id, token)).status, 200);
    assert.is((await remove(env, apiKey, id, m.id)).status, 204);
    await refused(id, token, /removed/);
    assert.is(await env.api.moderators.active({ id: id, channel_id: null }, 'helper'), null);

    assert.is((await invite(env, apiKey, id, { viewer_id: 'helper', name: 'Helper', active_days: 2 })).status, 200);
    assert.is((await modSession(env, id, token)).status, 200);
    env.clock.advance(2 * 86_400 + 1);
    await refused(id, token, /ran out/);
  },
);

t(
  'a plain viewer token of an invited viewer opens a moderator session; not once removed or run out',
  async ({ env, key: apiKey }) => {
    const id = await stream(env, apiKey);
    const m = (await invite(env, apiKey, id, { viewer_id: 'teacher-1', name: 'Invited name', active_days: 1 })).body;
    const res = await openSession(
      env,
      id,
      await viewerToken(key, env.clock.now(), { sub: 'teacher-1', name: 'Token name' }),
    );
    assert.is(res.status, 200, res.text);
    assert.equal(res.body.viewer, { id: 'teacher-1', name: 'Token name', role: 'moderator' });
    assert.equal(res.body.moderator, {
      object: 'moderator',
      id: m.id,
      viewer_id: 'teacher-1',
      name: 'Invited name',
      active_until: m.active_until,
    });
    // Anyone else stays a viewer.
    const pupil = await openSession(env, id, await viewerToken(key, env.clock.now(), { sub: 'pupil-1' }));
    assert.equal([pupil.body.viewer.role, pupil.body.moderator], ['viewer', null]);

    env.clock.advance(86_400);
    const expired = await openSession(env, id, await viewerToken(key, env.clock.now(), { sub: 'teacher-1' }));
    assert.equal([expired.body.viewer.role, expired.body.moderator], ['viewer', null]);

    await invite(env, apiKey, id, { viewer_id: 'teacher-1', name: 'Invited name' });
    assert.is(
      (await openSession(env, id, await viewerToken(key, env.clock.now(), { sub: 'teacher-1' }))).body.viewer.role,
      'moderator',
    );
    await remove(env, apiKey, id, m.id);
    const removed = await openSession(env, id, await viewerToken(key, env.clock.now(), { sub: 'teacher-1' }));
    assert.equal([removed.body.viewer.role, removed.body.moderator], ['viewer', null]);
  },
);

t(
  'moderator-role tokens: one day per sign-in, never shortening an invitation; a removed one is not restored',
  async ({ env, key: apiKey }) => {
    const id = await stream(env, apiKey);
    const modToken = (sub: string) => viewerToken(key, env.clock.now(), { sub, name: 'Grace', role: 'moderator' });

    const first = await openSession(env, id, await modToken('mod-1'));
    assert.is(first.status, 200, first.text);
    assert.equal(first.body.viewer, { id: 'mod-1', name: 'Grace', role: 'moderator' });
    assert.is(new Date(first.body.moderator.active_until).getTime(), env.clock.now().getTime() + DAY);
    const listed = (await list(env, apiKey, id)).body.data[0];
    assert.equal([listed.id, listed.source, listed.link], [first.body.moderator.id, 'token', null]);

    // An invitation for 30 days is not cut to one by a later moderator-role sign-in.
    const invited = (await invite(env, apiKey, id, { viewer_id: 'mod-2', name: 'Invited' })).body;
    env.clock.advance(3600);
    const signedIn = await openSession(env, id, await modToken('mod-2'));
    assert.is(signedIn.body.viewer.role, 'moderator');
    assert.is(signedIn.body.moderator.id, invited.id);
    assert.is(signedIn.body.moderator.active_until, invited.active_until);
    // The invitation's name stays (the owner chose it); the session's viewer name is the token's.
    assert.equal([signedIn.body.moderator.name, signedIn.body.viewer.name], ['Invited', 'Grace']);

    // Removed: later moderator-role tokens open viewer sessions, and the listing leaves it out.
    assert.is((await remove(env, apiKey, id, first.body.moderator.id)).status, 204);
    env.clock.advance(60);
    const again = await openSession(env, id, await modToken('mod-1'));
    assert.is(again.status, 200, again.text);
    assert.equal(again.body.viewer, { id: 'mod-1', name: 'Grace', role: 'viewer' });
    assert.is(again.body.moderator, null);
    assert.equal(
      (await list(env, apiKey, id)).body.data.map((m: { id: string }) => m.id),
      [invited.id],
    );
    assert.is(await env.api.moderators.active({ id: id, channel_id: null }, 'mod-1'), null);
    // Only the owner brings it back: invited again, it is the same moderator, now an invitation with a link.
    const back = await invite(env, apiKey, id, { viewer_id: 'mod-1', name: 'Grace' });
    assert.is(back.status, 200, back.text);
    assert.equal([back.body.id, back.body.source], [first.body.moderator.id, 'invitation']);
    assert.ok(back.body.link);
  },
);

t(
  'active(): what chat asks on every moderator action, read at most once per 2 s per viewer',
  async ({ env, key: apiKey }) => {
    const id = await stream(env, apiKey);
    const { moderators } = env.api;
    assert.is(await moderators.active({ id: id, channel_id: null }, 'nobody'), null);
    const m = (await invite(env, apiKey, id, { viewer_id: 'nobody', name: 'Now somebody' })).body;
    // Invited on this node: known at once.
    assert.equal(await moderators.active({ id: id, channel_id: null }, 'nobody'), {
      id: m.id,
      name: 'Now somebody',
      channelId: null,
    });
    // Removed on another node (straight in the database): believed for up to 2 s here.
    await env.db.sql`update moderators set removed_at = ${env.clock.now()} where id = ${m.id}`;
    assert.equal(await moderators.active({ id: id, channel_id: null }, 'nobody'), {
      id: m.id,
      name: 'Now somebody',
      channelId: null,
    });
    env.clock.advance(2);
    assert.is(await moderators.active({ id: id, channel_id: null }, 'nobody'), null);
    // Another stream's moderator is not this stream's.
    const otherId = await stream(env, apiKey);
    const o = (await invite(env, apiKey, otherId, { viewer_id: 'elsewhere', name: 'Elsewhere' })).body;
    assert.is(await moderators.active({ id: id, channel_id: null }, 'elsewhere'), null);
    assert.equal(await moderators.active({ id: otherId, channel_id: null }, 'elsewhere'), {
      id: o.id,
      name: 'Elsewhere',
      channelId: null,
    });
  },
);

t.run();
