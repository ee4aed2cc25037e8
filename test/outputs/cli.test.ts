import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { TestApi } from '../helpers/api.js';
import { ok, svc } from '../helpers/cli.js';
import { listeningApiWithStream } from '../helpers/streams.js';

interface Ctx {
  env: TestApi;
  flags: string[];
  streamId: string;
}

const KEY = 'abcd-efgh-ijkl-mnop-qrst';

/** `svc streams outputs ...` as thin clients of a listening API (`--base-url`, `--api-key`). */
const t = suite<Ctx>('outputs: svc streams outputs create|list|get|update|delete');
t.before(async (ctx) => {
  Object.assign(ctx, await listeningApiWithStream());
});
t.after(async (ctx) => {
  await ctx.env.close();
});

t('the round trip: --json is the API document, the key masked; people get a record and a table', async (ctx) => {
  const { streamId, flags } = ctx;
  const created = ok(
    await svc([
      'streams',
      'outputs',
      'create',
      streamId,
      '--url',
      'rtmp://1.1.1.1/live2',
      '--stream-key',
      KEY,
      '--name',
      'YouTube',
      '--json',
      ...flags,
    ]),
  );
  const o = created.json;
  assert.is(o.object, 'stream_output');
  assert.match(o.id, /^out_[a-z0-9]{20}$/);
  assert.is(o.stream_key, '••••qrst');
  assert.is(o.name, 'YouTube');
  assert.not.ok(created.stdout.includes(KEY));

  // The key from the environment: it need not be on the command line.
  const human = ok(
    await svc(['streams', 'outputs', 'create', streamId, '--url', 'srt://1.1.1.1:9000', '--no-enabled', ...flags], {
      env: { SVC_OUTPUT_STREAM_KEY: 'srt-streamid-0042' },
    }),
  ).stdout;
  assert.match(human, /^url\s+srt:\/\/1\.1\.1\.1:9000$/m);
  assert.match(human, /^stream_key\s+••••0042$/m);
  assert.match(human, /^enabled\s+false$/m);
  assert.not.ok(human.includes('srt-streamid-0042'));

  const list = ok(await svc(['streams', 'outputs', 'list', streamId, '--json', ...flags])).json;
  assert.is(list.object, 'list');
  assert.is(list.data.length, 2);
  assert.is(list.data[0].id, o.id);
  const table = ok(await svc(['streams', 'outputs', 'list', streamId, ...flags])).stdout;
  assert.match(table, new RegExp(`^${o.id}\\s+YouTube\\s+true\\s+idle\\s+0\\s+rtmp://1\\.1\\.1\\.1/live2$`, 'm'));

  const got = ok(await svc(['streams', 'outputs', 'get', streamId, o.id, '--json', ...flags])).json;
  assert.equal(got, o);

  const updated = ok(
    await svc(['streams', 'outputs', 'update', streamId, o.id, '--no-enabled', '--clear-name', '--json', ...flags]),
  ).json;
  assert.is(updated.enabled, false);
  assert.is(updated.name, null);
  assert.is(updated.stream_key, '••••qrst');

  const deleted = ok(await svc(['streams', 'outputs', 'delete', streamId, o.id, '--json', ...flags])).json;
  assert.equal(deleted, { id: o.id, object: 'stream_output', stream_id: streamId, deleted: true });
  assert.is(ok(await svc(['streams', 'outputs', 'list', streamId, '--json', ...flags])).json.data.length, 1);
});

t("refusals come back as the API's error, with a failing exit code", async (ctx) => {
  const { streamId, flags } = ctx;
  for (const args of [
    ['create', streamId, '--url', 'http://1.1.1.1/live', '--stream-key', KEY],
    ['create', streamId, '--url', 'rtmp://10.0.0.1/live', '--stream-key', KEY],
    ['create', streamId, '--url', 'rtmp://1.1.1.1/live', '--stream-key', 'k'.repeat(10_000)],
    ['update', streamId, 'out_aaaaaaaaaaaaaaaaaaaa'],
  ]) {
    const res = await svc(['streams', 'outputs', ...args, '--json', ...flags]);
    assert.is.not(res.code, 0, `${args.join(' ').slice(0, 80)}: ${res.stdout}`);
    assert.is(res.json.error.code, 'invalid_request', res.stdout);
  }
  const missing = await svc(['streams', 'outputs', 'get', streamId, 'out_aaaaaaaaaaaaaaaaaaaa', '--json', ...flags]);
  assert.is.not(missing.code, 0);
  assert.is(missing.json.error.code, 'not_found');
});

t.run();
