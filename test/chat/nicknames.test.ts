import * as assert from 'uvu/assert';
import { apiSuite, type TestApi } from '../helpers/api.js';
import { clientId } from '../helpers/chat.js';
import { assertInvalidField, createStream } from '../helpers/streams.js';
import { viewerToken, type ViewerKey } from '../helpers/viewer-tokens.js';

/** Issue 27, item 10: an anonymous nickname cannot pass for a verified viewer, a role, or nobody. */
const t = apiSuite('chat: nicknames cannot impersonate', {
  limits: { new: { pending_streams: 50, creations_per_hour: 500 } },
});

let key: ViewerKey;
t.before(async ({ env, accountId }) => {
  const created = await env.accounts.createViewerKey(accountId);
  key = { id: created.id, secret: created.secret };
});

const post = (env: TestApi, id: string, nickname: string, client = 'anon') =>
  env.call('POST', `/v1/embed/${id}/chat/messages`, { body: { text: 'hello', nickname, client_id: clientId(client) } });

/** Refused with 400 invalid_request naming `nickname`, with `why` in the message. */
async function refused(env: TestApi, id: string, nickname: string, why: RegExp) {
  const res = await post(env, id, nickname);
  assertInvalidField(res, 'nickname');
  assert.match(res.body.error.message, why, `${JSON.stringify(nickname)}: ${res.body.error.message}`);
}

t(
  "a verified viewer's name, in any case, width or look-alike letters, is refused to anonymous posters and nameless tokens",
  async ({ env, key: apiKey }) => {
    const { id } = await createStream(env, apiKey);
    const session = await env.call('POST', `/v1/embed/${id}/session`, {
      body: { viewer_token: await viewerToken(key, env.clock.now(), { sub: 'ada', name: 'Ada Lovelace' }) },
    });
    assert.is(session.status, 200, session.text);
    // The verified viewer posts under her name.
    const own = await env.call('POST', `/v1/embed/${id}/chat/messages`, {
      body: { text: 'hi', session_token: session.body.session_token },
    });
    assert.equal(own.body.author, { name: 'Ada Lovelace', verified: true, role: 'viewer' });
    for (const nickname of [
      'Ada Lovelace',
      'ada lovelace',
      'ADA  LOVELACE',
      'Ａｄａ Ｌｏｖｅｌａｃｅ',
      '\u0410da Lovelace',
      'Ada.Lovelace',
    ])
      await refused(env, id, nickname, /verified viewer/);
    const nameless = await env.call('POST', `/v1/embed/${id}/session`, {
      body: { viewer_token: await viewerToken(key, env.clock.now(), { sub: 'someone' }) },
    });
    const chosen = await env.call('POST', `/v1/embed/${id}/chat/messages`, {
      body: { text: 'hi', nickname: 'Ada Lovelace', session_token: nameless.body.session_token },
    });
    assertInvalidField(chosen, 'nickname');
    // Another stream has no verified Ada.
    const other = await createStream(env, apiKey);
    assert.is((await post(env, other.id, 'Ada Lovelace')).status, 201);
  },
);

t(
  'check marks, role words and invisible characters are refused, each saying why; ordinary names pass, NFKC-normalised',
  async ({ env, key: apiKey }) => {
    const { id } = await createStream(env, apiKey);
    for (const nickname of ['Bob ✓', 'Bob ✔', '✅ Bob', 'Bob ☑']) await refused(env, id, nickname, /check mark/);
    for (const nickname of [
      'Moderator',
      'mod',
      'Bob (mod)',
      'ModBob',
      'Admin',
      'the owner',
      'Verified',
      'TheModerator',
      'M0D',
      'Ｍｏｄ',
    ])
      await refused(env, id, nickname, /role/);
    for (const nickname of ['\u200b', 'Bob\u200b', '\u200e\u200f', '\u3164', '\u2800', 'Bob\u202e', 'B\u00adob'])
      await refused(env, id, nickname, /invisible|empty/);
    for (const [nickname, shown] of [
      ['Bob', 'Bob'],
      ['Ｂｏｂ', 'Bob'],
      ['José', 'José'],
      ['Badminton fan', 'Badminton fan'],
      ['Commodore', 'Commodore'],
      ['👨‍👩‍👧 family', '👨‍👩‍👧 family'],
      ['❤️ fan', '❤️ fan'],
    ]) {
      env.clock.advance(10);
      const res = await post(env, id, nickname as string, 'ok-poster');
      assert.is(res.status, 201, res.text);
      assert.is(res.body.author.name, shown);
    }
  },
);

t.run();
