import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { svc, ok } from '../helpers/cli.js';
import type { TestApi } from '../helpers/api.js';
import { listeningApiWithStream } from '../helpers/streams.js';

interface Ctx {
  env: TestApi;
  flags: string[];
  streamId: string;
}

/** `svc chat bans` and `svc chat moderators` as thin clients of a listening API (`--base-url`, `--api-key`). */
const t = suite<Ctx>('moderators: svc chat bans and svc chat moderators');
t.before(async (ctx) => {
  Object.assign(ctx, await listeningApiWithStream());
});
t.after(async (ctx) => {
  await ctx.env.close();
});

t('moderators: invite prints the link, list shows it, remove takes it out; --json is the API document', async (ctx) => {
  const { streamId, flags } = ctx;
  const human = ok(
    await svc([
      'chat',
      'moderators',
      'invite',
      streamId,
      '--name',
      'Ms Rivera',
      '--viewer-id',
      'teacher-17',
      '--days',
      '7',
      ...flags,
    ]),
  ).stdout;
  const link = /^link\s+(\S+)$/m.exec(human)?.[1];
  assert.ok(link, human);
  assert.match(
    link,
    new RegExp(`^${ctx.env.config.publicUrls.player_url}/${streamId}#mod=mod_[a-z0-9]{20}\\.[A-Za-z0-9_-]{43}$`),
  );
  assert.match(human, /^name\s+Ms Rivera$/m);
  assert.match(human, /Send the link privately/);

  const linkOnly = ok(
    await svc(['chat', 'moderators', 'invite', streamId, '--name', 'Helper', '--json', ...flags]),
  ).json;
  assert.is(linkOnly.object, 'moderator');
  assert.is(linkOnly.viewer_id, linkOnly.id);
  assert.is(new Date(linkOnly.active_until).getTime(), ctx.env.clock.now().getTime() + 30 * 86_400_000);

  const list = ok(await svc(['chat', 'moderators', 'list', streamId, '--json', ...flags])).json;
  assert.is(list.object, 'list');
  assert.equal(list.data.map((m: { name: string }) => m.name).sort(), ['Helper', 'Ms Rivera']);
  const rivera = list.data.find((m: { name: string }) => m.name === 'Ms Rivera');
  assert.is(rivera.link, link);
  const table = ok(await svc(['chat', 'moderators', 'list', streamId, ...flags])).stdout;
  assert.match(table, /^ID\s+NAME\s+VIEWER_ID\s+SOURCE\s+ACTIVE_UNTIL\n/);
  assert.match(table, new RegExp(`\\n${rivera.id}\\s+Ms Rivera\\s+teacher-17\\s+invitation\\s`));

  const removed = ok(await svc(['chat', 'moderators', 'remove', streamId, rivera.id, '--json', ...flags])).json;
  assert.equal(removed, { id: rivera.id, object: 'moderator', stream_id: streamId, removed: true });
  const after = ok(await svc(['chat', 'moderators', 'list', streamId, '--json', ...flags])).json;
  assert.equal(
    after.data.map((m: { id: string }) => m.id),
    [linkOnly.id],
  );
  const again = await svc(['chat', 'moderators', 'remove', streamId, rivera.id, '--json', ...flags]);
  assert.is(again.code, 1);
  assert.is(again.json.error.code, 'not_found');
});

t(
  "moderators: --name is required, --days 1-30 (checked before any request), the API's refusals come through",
  async (ctx) => {
    const { streamId, flags } = ctx;
    assert.is.not((await svc(['chat', 'moderators', 'invite', streamId, ...flags])).code, 0);
    assert.is.not(
      (await svc(['chat', 'moderators', 'invite', streamId, '--name', 'A', '--days', '31', ...flags])).code,
      0,
    );
    const blank = await svc(['chat', 'moderators', 'invite', streamId, '--name', ' ', '--json', ...flags]);
    assert.is(blank.code, 1);
    assert.equal([blank.json.error.code, blank.json.error.details.field], ['invalid_request', 'name']);
    const missing = await svc(['chat', 'moderators', 'list', 'str_doesnotexist00000000', '--json', ...flags]);
    assert.is(missing.json.error.code, 'not_found');
  },
);

t(
  'bans: create by viewer id (again: the same ban), list, delete; exactly one of --viewer-id and --message-id',
  async (ctx) => {
    const { streamId, flags } = ctx;
    const ban = ok(await svc(['chat', 'bans', 'create', streamId, '--viewer-id', 'troll-1', '--json', ...flags])).json;
    assert.is(ban.object, 'ban');
    assert.match(ban.id, /^ban_[a-z0-9]{20}$/);
    assert.is(ban.viewer_id, 'troll-1');
    assert.is(
      ok(await svc(['chat', 'bans', 'create', streamId, '--viewer-id', 'troll-1', '--json', ...flags])).json.id,
      ban.id,
    );
    const human = ok(await svc(['chat', 'bans', 'create', streamId, '--viewer-id', 'troll-2', ...flags])).stdout;
    assert.match(human, /^viewer_id\s+troll-2$/m);

    const list = ok(await svc(['chat', 'bans', 'list', streamId, '--json', '--limit', '1', ...flags])).json;
    assert.is(list.data.length, 1);
    assert.is(list.has_more, true);
    const table = ok(await svc(['chat', 'bans', 'list', streamId, '--limit', '1', ...flags])).stdout;
    assert.match(table, /^ID\s+VIEWER_ID\s+MESSAGE_ID\s+CREATED_BY\s+CREATED_AT\n/);
    assert.match(table, new RegExp(`\\nMore: svc chat bans list ${streamId} --starting-after ban_[a-z0-9]{20}$`));

    const deleted = ok(await svc(['chat', 'bans', 'delete', streamId, ban.id, '--json', ...flags])).json;
    assert.equal(deleted, { id: ban.id, object: 'ban', stream_id: streamId, deleted: true });
    const rest = ok(await svc(['chat', 'bans', 'list', streamId, '--json', ...flags])).json;
    assert.equal(
      rest.data.map((b: { viewer_id: string }) => b.viewer_id),
      ['troll-2'],
    );

    assert.is.not((await svc(['chat', 'bans', 'create', streamId, ...flags])).code, 0);
    assert.is.not(
      (await svc(['chat', 'bans', 'create', streamId, '--viewer-id', 'a', '--message-id', 'msg_x', ...flags])).code,
      0,
    );
    const unknown = await svc([
      'chat',
      'bans',
      'create',
      streamId,
      '--message-id',
      'msg_00000000000000000000',
      '--json',
      ...flags,
    ]);
    assert.is(unknown.code, 1);
    assert.is(unknown.json.error.code, 'not_found');
  },
);

t(
  'messages: newest first with viewer ids and states; a ban by --message-id hides its author; paging hint',
  async (ctx) => {
    const { streamId, flags, env } = ctx;
    const post = (text: string, client: string) =>
      env.call('POST', `/v1/embed/${streamId}/chat/messages`, { body: { text, nickname: 'Ann', client_id: client } });
    const first = await post('first words', 'client-cli-1');
    assert.is(first.status, 201, first.text);
    env.clock.advance(1);
    assert.is((await post('second words', 'client-cli-2')).status, 201);
    const list = ok(await svc(['chat', 'messages', streamId, '--json', ...flags])).json;
    assert.is(list.object, 'list');
    assert.equal(
      list.data.map((m: { text: string }) => m.text),
      ['second words', 'first words'],
    );
    assert.is(list.data[1].viewer_id, 'anon:client-cli-1');
    const ban = ok(
      await svc(['chat', 'bans', 'create', streamId, '--message-id', first.body.id, '--json', ...flags]),
    ).json;
    assert.is(ban.viewer_id, 'anon:client-cli-1');
    const table = ok(await svc(['chat', 'messages', streamId, '--limit', '1', ...flags])).stdout;
    assert.match(table, /^ID\s+CREATED_AT\s+VIEWER_ID\s+NAME\s+STATE\s+TEXT\n/);
    assert.match(table, /More: svc chat messages str_[a-z0-9]{20} --starting-after msg_[a-z0-9]{20}/);
    const hidden = ok(await svc(['chat', 'messages', streamId, '--json', ...flags])).json;
    // The banned author's post is shadowed; the other viewer's earlier post on the same network is not.
    assert.equal(
      hidden.data.map((m: { hidden: boolean }) => m.hidden),
      [false, true],
    );
  },
);

t.run();
