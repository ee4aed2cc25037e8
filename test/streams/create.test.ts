import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestApi, type TestApi } from '../helpers/api.js';

const t = suite<{ env: TestApi }>('streams: create');
t.before(async (ctx) => {
  ctx.env = await createTestApi();
});
t.after(async (ctx) => {
  await ctx.env.close();
});

t('creates a pending stream with every field and the defaults', async ({ env }) => {
  const { key } = await env.newAccount();
  const res = await env.call('POST', '/v1/streams', { key, body: { name: 'Town hall' } });
  assert.is(res.status, 201, res.text);
  const s = res.body;
  assert.match(s.id, /^str_[a-z0-9]{20}$/);
  assert.is(s.object, 'stream');
  assert.is(s.status, 'pending');
  assert.is(s.profile, 'abr_basic');
  assert.is(s.max_ingest_resolution, 720);
  assert.is(s.record, true);
  assert.is(s.recording, null);
  assert.is(s.reservation_expires_in_seconds, 1800);
  assert.is(s.max_duration_seconds, 14400);
  assert.equal(s.renditions, ['source', '480p']);
  assert.is(s.stream_key.split('?key=')[0], s.id);
  assert.match(s.whip_url, new RegExp(`^https://media\\.test:8080/live/${s.id}\\?direction=whip&key=`));
  assert.is(s.embed_url, `http://media.test:8082/${s.id}`);
  assert.is(s.rtmp_url, 'rtmp://media.test:1935/live');
  assert.match(String(res.headers['x-request-id']), /^req_/);
});

t.run();
