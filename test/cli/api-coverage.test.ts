import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Config } from '@oclif/core';
import { execa } from 'execa';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { packageRoot } from '../../src/core/package-root.js';
import { lockStream } from '../../src/domains/streams/model.js';
import * as transitions from '../../src/domains/streams/transitions.js';
import { watchFrame } from '../../src/cli/streams.js';
import { createTestApi, type TestApi } from '../helpers/api.js';
import { ok, svc } from '../helpers/cli.js';
import { createStream, goLive } from '../helpers/streams.js';

/**
 * Operations of the OpenAPI description that are not an operator's: no `svc` command calls them.
 * Everything else must have one (the table below).
 */
const EXCLUDED: { match: (method: string, path: string) => boolean; why: string }[] = [
  {
    match: (_m, path) => path.startsWith('/v1/embed/'),
    why: 'public player and viewer side (no API key): the hosted player, chat and moderator links call them, not operators',
  },
  {
    match: (_m, path) => ['/', '/openapi.json', '/docs', '/index.txt'].includes(path),
    why: 'the API describing itself, for browsers and tools (this test reads /openapi.json)',
  },
  {
    match: (_m, path) => path === '/healthz',
    why: "the health probe: `svc status` and `svc up --detach` read it at the data dir's address (test/cli/lifecycle.test.ts), not through --base-url",
  },
];

const STREAM = 'str_cov00000000000000000';
const ENDPOINT = 'whk_cov00000000000000000';
const OUTPUT = 'out_cov00000000000000000';
const CHANNEL = 'chn_cov00000000000000000';

/**
 * Every operator operation → the `svc` command that calls it, with arguments that make it send
 * the request (unknown ids are fine: a 404 still shows the command called the operation).
 */
const COMMANDS: Record<string, [command: string, ...args: string[]]> = {
  'POST /v1/streams': ['streams create'],
  'GET /v1/streams': ['streams list'],
  'GET /v1/streams/{id}': ['streams get', STREAM],
  'POST /v1/channels': ['channels create'],
  'GET /v1/channels': ['channels list'],
  'GET /v1/channels/{id}': ['channels get', CHANNEL],
  'PATCH /v1/channels/{id}': ['channels update', CHANNEL, '--name', 'x'],
  'DELETE /v1/channels/{id}': ['channels delete', CHANNEL],
  'PATCH /v1/streams/{id}': ['streams update', STREAM, '--name', 'x'],
  'DELETE /v1/streams/{id}': ['streams end', STREAM],
  'POST /v1/streams/{id}/stream-key': ['streams rotate-key', STREAM],
  'GET /v1/streams/{id}/viewers': ['streams viewers', STREAM],
  'POST /v1/streams/{id}/playback-token': ['streams playback-token', STREAM],
  'GET /v1/streams/{id}/attendance': ['streams attendance', STREAM],
  'DELETE /v1/streams/{id}/recording': ['streams recording delete', STREAM],
  'POST /v1/streams/{id}/recording/download': ['streams recording download', STREAM],
  'POST /v1/streams/{id}/recording/retry': ['streams recording retry', STREAM],
  'GET /v1/streams/{id}/thumbnail': ['streams thumbnail', STREAM],
  'GET /v1/streams/{id}/recording/thumbnail': ['streams recording thumbnail', STREAM, '--time', '1'],
  'GET /v1/webhooks': ['webhooks list'],
  'POST /v1/webhooks': ['webhooks create', '--url', 'http://127.0.0.1:9/walk'],
  'GET /v1/webhooks/{id}': ['webhooks get', ENDPOINT],
  'PATCH /v1/webhooks/{id}': ['webhooks update', ENDPOINT, '--no-enabled'],
  'DELETE /v1/webhooks/{id}': ['webhooks delete', ENDPOINT],
  'POST /v1/webhooks/{id}/secret': ['webhooks rotate-secret', ENDPOINT],
  'POST /v1/webhooks/{id}/test': ['webhooks test', ENDPOINT],
  'GET /v1/webhooks/{id}/deliveries': ['webhooks deliveries', ENDPOINT],
  'POST /v1/webhooks/{id}/deliveries/{delivery_id}/retry': ['webhooks retry', ENDPOINT, 'dlv_cov00000000000000000'],
  'GET /v1/usage': ['usage'],
  'POST /v1/streams/{id}/chat/bans': ['chat bans create', STREAM, '--viewer-id', 'v1'],
  'GET /v1/streams/{id}/chat/bans': ['chat bans list', STREAM],
  'DELETE /v1/streams/{id}/chat/bans/{ban_id}': ['chat bans delete', STREAM, 'ban_cov00000000000000000'],
  'GET /v1/streams/{id}/chat/messages': ['chat messages', STREAM],
  'DELETE /v1/streams/{id}/chat/messages/{message_id}': ['chat messages delete', STREAM, 'msg_cov00000000000000000'],
  'POST /v1/streams/{id}/chat/moderators': ['chat moderators invite', STREAM, '--name', 'M'],
  'GET /v1/streams/{id}/chat/moderators': ['chat moderators list', STREAM],
  'DELETE /v1/streams/{id}/chat/moderators/{mod_id}': ['chat moderators remove', STREAM, 'mod_cov00000000000000000'],
  'POST /v1/channels/{id}/chat/moderators': ['channels moderators invite', CHANNEL, '--viewer-id', 'v1', '--name', 'M'],
  'GET /v1/channels/{id}/chat/moderators': ['channels moderators list', CHANNEL],
  'DELETE /v1/channels/{id}/chat/moderators/{mod_id}': [
    'channels moderators remove',
    CHANNEL,
    'mod_cov00000000000000000',
  ],
  'POST /v1/channels/{id}/chat/bans': ['channels bans create', CHANNEL, '--viewer-id', 'v1'],
  'GET /v1/channels/{id}/chat/bans': ['channels bans list', CHANNEL],
  'DELETE /v1/channels/{id}/chat/bans/{ban_id}': ['channels bans delete', CHANNEL, 'ban_cov00000000000000000'],
  'GET /v1/channels/{id}/attendance': ['channels attendance', CHANNEL],
  'POST /v1/streams/{id}/outputs': [
    'streams outputs create',
    STREAM,
    '--url',
    'rtmp://192.0.2.1/live',
    '--stream-key',
    'k',
  ],
  'GET /v1/streams/{id}/outputs': ['streams outputs list', STREAM],
  'GET /v1/streams/{id}/outputs/{output_id}': ['streams outputs get', STREAM, OUTPUT],
  'PATCH /v1/streams/{id}/outputs/{output_id}': ['streams outputs update', STREAM, OUTPUT, '--no-enabled'],
  'DELETE /v1/streams/{id}/outputs/{output_id}': ['streams outputs delete', STREAM, OUTPUT],
};

/** A pass-through proxy in front of the API that notes every request (method and path). */
async function recordingProxy(target: string): Promise<{ url: string; seen: string[]; close: () => Promise<void> }> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method} ${new URL(req.url ?? '/', target).pathname}`);
    const upstream = request(
      new URL(req.url ?? '/', target),
      { method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** `/v1/streams/{id}` as a pattern of concrete paths. */
const pathPattern = (template: string) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);

interface Ctx {
  env: TestApi;
  key: string;
  accountId: string;
  address: string;
  flags: string[];
}

const t = suite<Ctx>('cli: every API operation has a svc command');
t.before(async (ctx) => {
  ctx.env = await createTestApi({ allow_private_webhooks: true });
  // Trusted: more than two streams may wait to go live at once.
  const { id, key } = await ctx.env.newAccount({ trusted: true });
  ctx.key = key;
  ctx.accountId = id;
  ctx.address = await ctx.env.api.app.listen({ host: '127.0.0.1', port: 0 });
  ctx.flags = ['--base-url', ctx.address, '--api-key', key];
});
t.after(async (ctx) => {
  await ctx.env.close();
});

const endStream = (env: TestApi, accountId: string, id: string) =>
  env.db.sql.begin(async (tx) =>
    transitions.end(tx, (await lockStream(tx, accountId, id))!, 'deleted', env.clock.now()),
  );

t(
  'the walk: each operation of GET /openapi.json is excluded with a reason or has a command that calls it',
  async (ctx) => {
    const description = (await ctx.env.call('GET', '/openapi.json')).body;
    const operations: string[] = [];
    for (const [path, item] of Object.entries<Record<string, unknown>>(description.paths)) {
      for (const method of Object.keys(item)
        .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
        .map((m) => m.toUpperCase())) {
        if (!EXCLUDED.some((e) => e.match(method, path))) operations.push(`${method} ${path}`);
      }
    }
    assert.ok(operations.length >= 29, `${operations.length} operations`);
    assert.equal(
      [...operations].sort(),
      Object.keys(COMMANDS).sort(),
      'the table lists exactly the operator operations',
    );
    for (const e of EXCLUDED) assert.ok(e.why.length > 20, 'every exclusion says why');

    const config = await Config.load(packageRoot);
    const proxy = await recordingProxy(ctx.address);
    try {
      for (const [operation, [command, ...args]] of Object.entries(COMMANDS)) {
        assert.ok(config.findCommand(command.replaceAll(' ', ':')), `${operation}: no command svc ${command}`);
        const argv = [...command.split(' '), ...args];
        proxy.seen.length = 0;
        const res = await svc([...argv, '--json', '--base-url', proxy.url, '--api-key', ctx.key]);
        const [method, template] = operation.split(' ') as [string, string];
        const pattern = pathPattern(template);
        assert.ok(
          proxy.seen.some((r) => r.startsWith(`${method} `) && pattern.test(r.slice(method.length + 1))),
          `svc ${argv.join(' ')} did not call ${operation}: ${proxy.seen.join(', ')} (${res.stdout}${res.stderr})`,
        );
        assert.ok(res.json, `svc ${argv.join(' ')} --json printed one JSON document: ${res.stdout}`);
        if (res.code !== 0) assert.type(res.json.error?.code, 'string');
      }
    } finally {
      await proxy.close();
    }
  },
);

t('streams create: OBS server and key ready to paste, the ffmpeg target', async (ctx) => {
  const human = ok(await svc(['streams', 'create', '--name', 'Paste me', ...ctx.flags])).stdout;
  const server = /^ {2}Server {6}(rtmp:\/\/\S+)$/m.exec(human)?.[1];
  const key = /^ {2}Stream Key {2}(str_[a-z0-9]{20}\?key=\S+)$/m.exec(human)?.[1];
  assert.ok(server && key, human);
  assert.is(server, ctx.env.config.publicUrls.rtmp_url);
  assert.ok(human.includes(`ffmpeg -re -i INPUT -c copy -f flv "${server}/${key}"`), human);
  assert.match(human, /shown only this once/);
});

t('streams update: --json is the Stream; --clear-name; an empty change and bad JSON are refused', async (ctx) => {
  const s = await createStream(ctx.env, ctx.key, { name: 'Before' });
  const updated = ok(
    await svc([
      'streams',
      'update',
      s.id,
      '--name',
      'After',
      '--metadata',
      '{"event_id":"evt-7"}',
      '--player',
      '{"show_name":false}',
      '--chat',
      '{"slow_mode_seconds":10}',
      '--json',
      ...ctx.flags,
    ]),
  ).json;
  assert.is(updated.object, 'stream');
  assert.is(updated.name, 'After');
  assert.equal(updated.metadata, { event_id: 'evt-7' });
  assert.is(updated.player.show_name, false);
  assert.is(updated.chat.slow_mode_seconds, 10);
  const cleared = ok(await svc(['streams', 'update', s.id, '--clear-name', '--metadata', 'null', ...ctx.flags])).stdout;
  assert.match(cleared, /^name\s+-$/m);
  assert.match(cleared, /^metadata\s+-$/m);

  const empty = await svc(['streams', 'update', s.id, '--json', ...ctx.flags]);
  assert.is(empty.code, 1);
  assert.is(empty.json.error.code, 'invalid_request');
  const bad = await svc(['streams', 'update', s.id, '--player', '[1]', '--json', ...ctx.flags]);
  assert.is(bad.code, 2);
  assert.is(bad.json.error.code, 'invalid_usage');
});

t('streams playback-token: a signed URL expiring when asked; refused once the stream is finished', async (ctx) => {
  const s = await createStream(ctx.env, ctx.key);
  const token = ok(await svc(['streams', 'playback-token', s.id, '--expires-in', '600', '--json', ...ctx.flags])).json;
  assert.is(token.object, 'playback_token');
  assert.is(token.stream_id, s.id);
  assert.ok(token.playback_url.startsWith(ctx.env.config.publicUrls.cdn_url), token.playback_url);
  assert.is(token.expires_at, new Date(ctx.env.clock.now().getTime() + 600_000).toISOString());
  assert.match(ok(await svc(['streams', 'playback-token', s.id, ...ctx.flags])).stdout, /^playback_url\s+http/m);

  await ctx.env.call('DELETE', `/v1/streams/${s.id}`, { key: ctx.key });
  const ended = await svc(['streams', 'playback-token', s.id, '--json', ...ctx.flags]);
  assert.is(ended.code, 1);
  assert.is(ended.json.error.code, 'stream_ended');
});

t('streams viewers: the viewer series; an unknown stream is not_found', async (ctx) => {
  const s = await createStream(ctx.env, ctx.key);
  const series = ok(await svc(['streams', 'viewers', s.id, '--json', ...ctx.flags])).json;
  assert.equal(series, { object: 'viewer_series', stream_id: s.id, player: [], cdn: [], countries: [] });
  assert.match(ok(await svc(['streams', 'viewers', s.id, ...ctx.flags])).stdout, /no viewers yet/);
  const missing = await svc(['streams', 'viewers', 'str_doesnotexist00000000', '--json', ...ctx.flags]);
  assert.is(missing.code, 1);
  assert.is(missing.json.error.code, 'not_found');
});

t(
  'streams recording download|delete: a signed MP4 URL of a ready recording, then deleted; not ready is refused',
  async (ctx) => {
    const { env, accountId } = ctx;
    const s = await createStream(env, ctx.key);
    const early = await svc(['streams', 'recording', 'download', s.id, '--json', ...ctx.flags]);
    assert.is(early.code, 1);
    assert.equal([early.json.error.code, early.json.error.details.status], ['recording_not_ready', 'none']);

    await goLive(env, accountId, s.id);
    await endStream(env, accountId, s.id);
    await env.db.sql.begin(async (tx) =>
      transitions.recordingReady(tx, (await lockStream(tx, accountId, s.id))!, env.clock.now(), {
        bytes: 1234,
        durationSeconds: 10.5,
      }),
    );
    const download = ok(
      await svc(['streams', 'recording', 'download', s.id, '--expires-in', '120', '--json', ...ctx.flags]),
    ).json;
    assert.equal([download.object, download.stream_id, download.bytes], ['recording_download', s.id, 1234]);
    assert.match(download.url, new RegExp(`/_rec/${s.id}/recording\\.mp4$`));
    assert.is(download.expires_at, new Date(env.clock.now().getTime() + 120_000).toISOString());
    const human = ok(await svc(['streams', 'recording', 'download', s.id, ...ctx.flags])).stdout;
    assert.match(human, new RegExp(`^curl -o ${s.id}\\.mp4 "http`, 'm'));

    const deleted = ok(await svc(['streams', 'recording', 'delete', s.id, '--json', ...ctx.flags])).json;
    assert.is(deleted.recording.status, 'deleted');
    const missing = await svc(['streams', 'recording', 'delete', 'str_doesnotexist00000000', '--json', ...ctx.flags]);
    assert.is(missing.code, 1);
    assert.is(missing.json.error.code, 'not_found');
  },
);

t(
  'streams watch --json: one Stream per line while live, exit 0 once it ends; people get a frame; an error is one line',
  async (ctx) => {
    const { env, accountId } = ctx;
    const s = await createStream(env, ctx.key, { name: 'Watched' });
    await goLive(env, accountId, s.id);
    let seen = '';
    let ended: Promise<unknown> | null = null;
    const res = await svc(['streams', 'watch', s.id, '--interval', '1', '--json', ...ctx.flags], {
      onStdout: (chunk) => {
        seen += chunk;
        // The first live line is out: end the stream; watch sees it at its next refresh.
        if (!ended && seen.includes('\n')) ended = endStream(env, accountId, s.id);
      },
    });
    await ended;
    assert.is(res.code, 0, res.stderr);
    const lines = res.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.ok(lines.length >= 2, res.stdout);
    assert.is(lines[0].status, 'live');
    assert.is(lines.at(-1).status, 'ended');
    for (const line of lines) assert.is(line.id, s.id);

    const frame = ok(await svc(['streams', 'watch', s.id, ...ctx.flags])).stdout;
    assert.match(frame, new RegExp(`^stream\\s+${s.id} \\(Watched\\)$`, 'm'));
    assert.match(frame, /^status\s+ended at \S+ \(deleted\)$/m);
    assert.match(frame, /^viewers\s+/m);
    assert.match(frame, /^warnings\s+none$/m);

    const missing = await svc(['streams', 'watch', 'str_doesnotexist00000000', '--json', ...ctx.flags]);
    assert.is(missing.code, 1);
    assert.is(missing.stdout.trimEnd().split('\n').length, 1, missing.stdout);
    assert.is(missing.json.error.code, 'not_found');
  },
);

t('streams watch: a frame names each warning with what to do', () => {
  const frame = watchFrame({
    id: 'str_8f3k2m9q7x1c4v6b0n5z',
    name: null,
    status: 'live',
    node_ready: true,
    went_live_at: '2026-11-22T12:00:00.000Z',
    ended_at: null,
    end_reason: null,
    reservation_expires_in_seconds: null,
    ingest: {
      width: 1920,
      height: 1080,
      kbps: 9000,
      observed_at: '2026-11-22T12:01:00.000Z',
      limit_warning: 'limit_bitrate',
      keyframe_interval_seconds: 4,
      keyframe_warning: true,
    },
    viewers: {
      now: { watching: 12, waiting: 3, buffering_pct: 0.4, measured_at: '2026-11-22T12:01:00.000Z', exact: false },
      peak: 20,
      peak_at: null,
      watch_minutes: 30,
      source: 'player',
      cdn_counted_until: null,
    },
  });
  assert.match(frame, /^ingest\s+1920x1080, 9000 kbps, keyframes every 4 s /m);
  assert.match(frame, /^viewers\s+12 watching, 3 waiting, 0.4% buffering \(estimate\); peak 20$/m);
  assert.match(
    frame,
    /^warnings\s+over the bitrate limit: lower the encoder bitrate within 20 s or the stream ends\n\s+keyframes every 4 s: set the encoder's keyframe interval to 2 s$/m,
  );
});

t('webhooks get|rotate-secret|retry|update|delete: the API documents; refusals come through', async (ctx) => {
  const { flags } = ctx;
  const created = ok(await svc(['webhooks', 'create', '--url', 'http://127.0.0.1:9/hook', '--json', ...flags])).json;
  const got = ok(await svc(['webhooks', 'get', created.id, '--json', ...flags])).json;
  assert.equal([got.id, got.secret], [created.id, created.secret]);
  assert.match(ok(await svc(['webhooks', 'get', created.id, ...flags])).stdout, /^secret\s+whsec_/m);

  const rotated = ok(await svc(['webhooks', 'rotate-secret', created.id, '--json', ...flags])).json;
  assert.match(rotated.secret, /^whsec_/);
  assert.is.not(rotated.secret, created.secret);

  const delivery = ok(await svc(['webhooks', 'test', created.id, '--json', ...flags])).json;
  const retried = ok(await svc(['webhooks', 'retry', created.id, delivery.id, '--json', ...flags])).json;
  assert.equal([retried.id, retried.status], [delivery.id, 'pending']);
  const noDelivery = await svc(['webhooks', 'retry', created.id, 'dlv_doesnotexist00000000', '--json', ...flags]);
  assert.is(noDelivery.code, 1);
  assert.is(noDelivery.json.error.code, 'not_found');

  const updated = ok(
    await svc([
      'webhooks',
      'update',
      created.id,
      '--events',
      'stream.live,stream.ended',
      '--description',
      'Ops',
      '--no-enabled',
      '--json',
      ...flags,
    ]),
  ).json;
  assert.equal(
    [updated.events, updated.all_events, updated.description, updated.enabled],
    [['stream.live', 'stream.ended'], false, 'Ops', false],
  );
  const all = ok(
    await svc(['webhooks', 'update', created.id, '--all-events', '--clear-description', '--enabled', ...flags]),
  ).stdout;
  assert.match(all, /^events\s+all$/m);
  assert.match(all, /^description\s+-$/m);
  assert.match(all, /^enabled\s+true$/m);
  const empty = await svc(['webhooks', 'update', created.id, '--json', ...flags]);
  assert.is(empty.code, 1);
  assert.is(empty.json.error.code, 'invalid_request');

  const deleted = ok(await svc(['webhooks', 'delete', created.id, '--json', ...flags])).json;
  assert.equal(deleted, { id: created.id, object: 'webhook_endpoint', deleted: true });
  const again = await svc(['webhooks', 'delete', created.id, '--json', ...flags]);
  assert.is(again.code, 1);
  assert.is(again.json.error.code, 'not_found');
  const gone = await svc(['webhooks', 'rotate-secret', created.id, '--json', ...flags]);
  assert.is(gone.json.error.code, 'not_found');
});

t('usage: what GET /v1/usage answers; a wrong key is unauthorized', async (ctx) => {
  const api = await ctx.env.call('GET', '/v1/usage?days=3', { key: ctx.key });
  const cli = ok(await svc(['usage', '--days', '3', '--json', ...ctx.flags])).json;
  assert.equal(cli, api.body);
  assert.match(
    ok(await svc(['usage', '--days', '3', ...ctx.flags])).stdout,
    new RegExp(`^balance_usd\\s+${api.body.balance_usd.replace('.', '\\.')}$`, 'm'),
  );
  const wrong = await svc(['usage', '--json', '--base-url', ctx.address, '--api-key', 'svc_live_wrong']);
  assert.is(wrong.code, 1);
  assert.is(wrong.json.error.code, 'unauthorized');
});

t('chat messages delete: the deleted message (by the owner); an unknown message is not_found', async (ctx) => {
  const s = await createStream(ctx.env, ctx.key);
  const posted = await ctx.env.call('POST', `/v1/embed/${s.id}/chat/messages`, {
    body: { text: 'delete me', nickname: 'Ann', client_id: 'client-cov-1' },
  });
  assert.is(posted.status, 201, posted.text);
  const deleted = ok(await svc(['chat', 'messages', 'delete', s.id, posted.body.id, '--json', ...ctx.flags])).json;
  assert.equal([deleted.id, deleted.deleted_by], [posted.body.id, 'owner']);
  assert.ok(deleted.deleted_at);
  assert.match(
    ok(await svc(['chat', 'messages', 'delete', s.id, posted.body.id, ...ctx.flags])).stdout,
    /^deleted_by\s+owner$/m,
  );
  const missing = await svc(['chat', 'messages', 'delete', s.id, 'msg_doesnotexist00000000', '--json', ...ctx.flags]);
  assert.is(missing.code, 1);
  assert.is(missing.json.error.code, 'not_found');
});

t(
  'shell completion: svc autocomplete builds a bash completion that offers the new commands and their flags',
  async () => {
    const cache = mkdtempSync(join(tmpdir(), 'svc-complete-'));
    try {
      ok(await svc(['autocomplete', '--refresh-cache'], { env: { XDG_CACHE_HOME: cache } }));
      const script = join(cache, 'svc', 'autocomplete', 'functions', 'bash', 'svc.bash');
      const complete = async (...words: string[]) => {
        const res = await execa('bash', [
          '-c',
          `source "$0"; COMP_WORDS=(${words.join(' ')}); COMP_CWORD=${words.length - 1}; _svc_autocomplete; echo "\${COMPREPLY[@]}"`,
          script,
        ]);
        return res.stdout.trim();
      };
      assert.is(await complete('svc', 'streams', 'wa'), 'watch');
      assert.is(await complete('svc', 'webhooks', 'r'), 'retry rotate-secret');
      assert.is(await complete('svc', 'streams', 'watch', '--i'), '--interval');
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  },
);

t.run();
