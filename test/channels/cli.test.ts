import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestApi } from '../helpers/api.js';
import { ok, svc } from '../helpers/cli.js';
import { listeningApiWithStream } from '../helpers/streams.js';

interface Ctx {
  env: TestApi;
  flags: string[];
}

/** `svc channels ...` and `svc streams create --channel` as thin clients of a listening API. */
const t = suite<Ctx>('channels: svc channels create|list|get|update|delete, svc streams create --channel');
t.before(async (ctx) => {
  Object.assign(ctx, await listeningApiWithStream());
});
t.after(async (ctx) => {
  await ctx.env.close();
});

t('the round trip: --json is the API document; people get a record and a table', async (ctx) => {
  const { flags } = ctx;
  const created = ok(
    await svc([
      'channels',
      'create',
      '--name',
      'Town hall',
      '--chat',
      '{"slow_mode_seconds":10}',
      '--player',
      '{"show_name":false}',
      '--json',
      ...flags,
    ]),
  ).json;
  assert.is(created.object, 'channel');
  assert.match(created.id, /^chn_[a-z0-9]{20}$/);
  assert.is(created.name, 'Town hall');
  assert.is(created.chat.slow_mode_seconds, 10);
  assert.is(created.player.show_name, false);

  const human = ok(await svc(['channels', 'get', created.id, ...flags])).stdout;
  assert.match(human, /^name\s+Town hall$/m);
  assert.match(human, new RegExp(`^page_url\\s+\\S+/c/${created.id}$`, 'm'));
  assert.match(human, /^live_stream_id\s+-$/m);

  // A stream created in it: the channel's settings, its id on the stream.
  const stream = ok(await svc(['streams', 'create', '--channel', created.id, '--json', ...flags])).json;
  assert.is(stream.channel_id, created.id);
  assert.is(stream.chat.slow_mode_seconds, 10);
  assert.is(stream.player.show_name, false);

  const table = ok(await svc(['channels', 'list', ...flags])).stdout;
  assert.match(table, new RegExp(`^${created.id}\\s+Town hall\\s+-\\s+\\S+/c/${created.id}$`, 'm'));
  const list = ok(await svc(['channels', 'list', '--limit', '1', '--json', ...flags])).json;
  assert.equal(list.data, [created]);

  const updated = ok(
    await svc(['channels', 'update', created.id, '--clear-name', '--metadata', '{"team":"comms"}', '--json', ...flags]),
  ).json;
  assert.is(updated.name, null);
  assert.equal(updated.metadata, { team: 'comms' });

  // Refused while its stream is pending; then deleted.
  const refused = await svc(['channels', 'delete', created.id, '--json', ...flags]);
  assert.is(refused.code, 1, refused.stdout);
  assert.is(refused.json.error.code, 'channel_not_empty');
  ok(await svc(['streams', 'end', stream.id, ...flags]));
  const deleted = ok(await svc(['channels', 'delete', created.id, '--json', ...flags])).json;
  assert.is(deleted.id, created.id);
  assert.is(deleted.deleted, true);
  assert.match(ok(await svc(['channels', 'list', ...flags])).stdout, /no channels/);
});

t("refusals come back as the API's error, with a failing exit code", async (ctx) => {
  const { flags } = ctx;
  const missing = await svc(['channels', 'get', 'chn_aaaaaaaaaaaaaaaaaaaa', '--json', ...flags]);
  assert.is(missing.code, 1);
  assert.is(missing.json.error.code, 'not_found');
  const nowhere = await svc(['streams', 'create', '--channel', 'chn_aaaaaaaaaaaaaaaaaaaa', '--json', ...flags]);
  assert.is(nowhere.code, 1);
  assert.is(nowhere.json.error.code, 'not_found');
  const empty = await svc(['channels', 'update', 'chn_aaaaaaaaaaaaaaaaaaaa', '--json', ...flags]);
  assert.is(empty.json.error.code, 'invalid_request');
  const bad = await svc(['channels', 'create', '--chat', '[1]', '--json', ...flags]);
  assert.is(bad.code, 2);
  assert.is(bad.json.error.code, 'invalid_usage');
});

t.run();
