import * as assert from 'uvu/assert';
import { apiSuite } from '../helpers/api.js';
import { clientId, FeedReader, serveChat } from '../helpers/chat.js';
import { assertError, createStream } from '../helpers/streams.js';

/** Shedding load: past its readers or posts in flight, a node answers 503 chat_busy with Retry-After, and recovers. */
const t = apiSuite('chat: chat_busy when a node is full', { chat: { max_readers: 2, max_posts_in_flight: 1 } });

let base = '';
let stop: () => Promise<void> = async () => {};
t.before(async ({ env }) => {
  ({ base, stop } = await serveChat(env));
});
t.after(async () => {
  await stop();
});

t(
  'past max_readers a feed is refused with 503 chat_busy and Retry-After; a reader leaving makes room',
  async ({ env, key }) => {
    const { id } = await createStream(env, key);
    const url = `${base}/v1/embed/${id}/chat/feed`;
    const a = await FeedReader.open(url);
    const b = await FeedReader.open(url);
    await b.until((r) => r.named('settings').length === 1, 'settings');
    const refused = await fetch(url);
    assert.is(refused.status, 503);
    assert.is(refused.headers.get('retry-after'), '5');
    assert.is(((await refused.json()) as { error: { code: string } }).error.code, 'chat_busy');
    a.close();
    await new Promise((r) => setTimeout(r, 200));
    const c = await FeedReader.open(url);
    assert.is(c.status, 200);
    b.close();
    c.close();
  },
);

t(
  'posts past max_posts_in_flight get 503 chat_busy with Retry-After; none is lost or half-written',
  async ({ env, key }) => {
    const { id } = await createStream(env, key);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        env.call('POST', `/v1/embed/${id}/chat/messages`, {
          body: { text: `m${i}`, nickname: 'N', client_id: clientId(`busy${i}`) },
        }),
      ),
    );
    const accepted = answers.filter((a) => a.status === 201);
    const busy = answers.filter((a) => a.status === 503);
    assert.ok(accepted.length >= 1, 'some were taken');
    assert.ok(busy.length >= 1, `some were shed (${answers.map((a) => a.status).join(',')})`);
    assert.is(accepted.length + busy.length, 8);
    for (const b of busy) {
      assertError(b, 503, 'chat_busy');
      assert.is(b.headers['retry-after'], '2');
    }
    const history = (await env.call('GET', `/v1/embed/${id}/chat/messages`)).body.data as { id: string }[];
    assert.equal(history.map((m) => m.id).sort(), accepted.map((a) => a.body.id as string).sort());
  },
);

t.run();
