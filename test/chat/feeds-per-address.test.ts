import * as assert from 'uvu/assert';
import { apiSuite } from '../helpers/api.js';
import { FeedReader, serveChat } from '../helpers/chat.js';
import { createStream } from '../helpers/streams.js';

/** Issue 27, item 8: one address cannot take a node's chat readers; a feed that closes frees its place. */
const t = apiSuite('chat: feeds per address', { chat: { max_readers_per_address: 3 } });

let base = '';
let stop: () => Promise<void> = async () => {};
t.before(async ({ env }) => {
  ({ base, stop } = await serveChat(env));
});
t.after(async () => {
  await stop();
});

const from = (address: string) => ({ 'x-forwarded-for': address });
/** Every feed a test opens, closed after it even when it fails (an open feed keeps the server up). */
const opened: FeedReader[] = [];
const open = async (url: string, address: string) => {
  const reader = await FeedReader.open(url, from(address));
  opened.push(reader);
  return reader;
};
/** A feed that should be refused: its answer's head, and its body when it is not an event stream. */
const refusal = async (url: string, address: string) => {
  const reader = await open(url, address);
  await reader.until((r) => r.closed || r.status !== 200, 'the refusal', 2000).catch(() => undefined);
  return reader;
};
t.after.each(() => {
  for (const r of opened.splice(0)) r.close();
});

t(
  'past max_readers_per_address one address gets 429 rate_limited with Retry-After; other addresses are served; a closed feed frees its place',
  async ({ env, key }) => {
    const { id } = await createStream(env, key);
    const url = `${base}/v1/embed/${id}/chat/feed`;
    const held = await Promise.all([1, 2, 3].map(() => open(url, '203.0.113.70')));
    for (const r of held) assert.is(r.status, 200);
    const refused = await fetch(url, { headers: from('203.0.113.70'), signal: AbortSignal.timeout(5000) });
    assert.is(refused.status, 429);
    assert.is(refused.headers.get('retry-after'), '30');
    assert.is(refused.headers.get('access-control-allow-origin'), '*');
    const body = (await refused.json()) as { error: { code: string; message: string; details: { limit: number } } };
    assert.is(body.error.code, 'rate_limited');
    assert.is(body.error.details.limit, 3);
    // Another stream does not help: the cap is the address's on this node.
    const other = await createStream(env, key);
    assert.is((await refusal(`${base}/v1/embed/${other.id}/chat/feed`, '203.0.113.70')).status, 429);
    // The same /64 is the same household.
    for (const i of [1, 2, 3]) assert.is((await open(url, `2001:db8:5:6::${i}`)).status, 200);
    assert.is((await refusal(url, '2001:db8:5:6::99')).status, 429);
    // Another address is served.
    assert.is((await open(url, '198.51.100.71')).status, 200);
    held[0]?.close();
    await new Promise((r) => setTimeout(r, 300));
    const again = await open(url, '203.0.113.70');
    assert.is(again.status, 200);
    await again.until((r) => r.named('settings').length === 1, 'settings');
  },
);

t('the default lets an office behind one address read chat: 250 feeds per address per node', async ({ env }) => {
  // Sized for an office of 200 with chat open, plus reconnections that overlap the old connection.
  assert.is((await import('../../src/config/config.js')).DEFAULT_CHAT_CONFIG.max_readers_per_address, 250);
  assert.is(env.config.chat.max_readers_per_address, 3);
});

t.run();
