import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultApiWorkers } from '../../src/config/config.js';
import { listMigrations } from '../../src/platform/db/migrate.js';
import { createEmptyDatabase, makeDataDir, svc } from '../helpers/cli.js';

interface Ctx {
  dir: string;
  remove: () => void;
  db: { url: string; drop: () => Promise<void> };
  secrets: string;
  node: { id: string; name: string; role: string };
}

const t = suite<Ctx>('cli: svc init');
t.before(async (ctx) => {
  Object.assign(ctx, makeDataDir());
  ctx.db = await createEmptyDatabase();
});
t.after(async (ctx) => {
  ctx.remove();
  await ctx.db.drop();
});

t('init --no-install --json writes config and 0600 secrets and migrates the database', async (ctx) => {
  const res = await svc([
    'init',
    '--data-dir',
    ctx.dir,
    '--no-install',
    '--json',
    '--database-url',
    ctx.db.url,
    '--host',
    'media.test',
    '--api-port',
    '18123',
    '--allow-private-webhooks',
  ]);
  assert.is(res.code, 0, res.stderr + res.stdout);
  const out = res.json;
  assert.ok(out, `stdout is one JSON document: ${res.stdout}`);
  assert.is(out.data_dir, ctx.dir);
  assert.is(out.created, true);
  assert.is(out.packages, null);
  assert.equal(out.database, { managed: false, migrations_applied: listMigrations().map((m) => m.name) });
  assert.is(out.database.migrations_applied[0], '001_foundation.sql');
  assert.is(out.base_url, 'http://media.test:18123');
  assert.is(out.allow_private_webhooks, true);

  const { node, ...config } = JSON.parse(readFileSync(join(ctx.dir, 'config.json'), 'utf8'));
  assert.equal(config, { database_url: ctx.db.url, host: 'media.test', api_port: 18123, allow_private_webhooks: true });
  // Every appliance is the primary node of its own cluster, named after its machine.
  assert.match(node.id, /^nod_[a-z0-9]{20}$/);
  assert.match(node.name, /^[a-z0-9][a-z0-9-]*-[a-z0-9]{4}$/);
  assert.is(node.role, 'primary');
  ctx.node = node;
  const secretsPath = join(ctx.dir, 'secrets.json');
  assert.is(statSync(secretsPath).mode & 0o777, 0o600);
  ctx.secrets = readFileSync(secretsPath, 'utf8');
  const secrets = JSON.parse(ctx.secrets);
  for (const key of ['postgres_password', 'signing_key', 'data_key']) assert.ok(secrets[key]?.length >= 32, key);
});

t('re-running init keeps existing values and secrets; flags given override', async (ctx) => {
  const res = await svc(
    ['init', '--no-install', '--json', '--cdn-port', '9999', '--no-allow-private-webhooks', '--api-workers', '3'],
    { env: { SVC_DATA_DIR: ctx.dir } },
  );
  assert.is(res.code, 0, res.stderr + res.stdout);
  assert.is(res.json.created, false);
  assert.equal(res.json.database.migrations_applied, []);
  const config = JSON.parse(readFileSync(join(ctx.dir, 'config.json'), 'utf8'));
  assert.equal(config, {
    database_url: ctx.db.url,
    host: 'media.test',
    api_port: 18123,
    allow_private_webhooks: false,
    cdn_port: 9999,
    api_workers: 3,
    node: ctx.node,
  });
  assert.is(readFileSync(join(ctx.dir, 'secrets.json'), 'utf8'), ctx.secrets);
  assert.is(statSync(join(ctx.dir, 'secrets.json')).mode & 0o777, 0o600);
});

t('status works against the external database and says the appliance is stopped', async (ctx) => {
  const res = await svc(['status', '--json', '--data-dir', ctx.dir]);
  assert.is(res.code, 3, res.stderr);
  assert.is(res.json.running, false);
  assert.is(res.json.pid, null);
  assert.equal(res.json.parts.postgres, { healthy: true, managed: false });
  assert.is(res.json.parts.api.healthy, false);
  assert.is(res.json.allow_private_webhooks, false);
});

t('an unknown key in config.json is an error naming the key (JSON and human)', async () => {
  const { dir, remove } = makeDataDir();
  try {
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ api_port: 8080, bogus_key: true }));
    const json = await svc(['status', '--json', '--data-dir', dir]);
    assert.is.not(json.code, 0);
    assert.is(json.json.error.code, 'invalid_config');
    assert.match(json.json.error.message, /bogus_key/);

    const human = await svc(['init', '--no-install', '--data-dir', dir]);
    assert.is.not(human.code, 0);
    assert.is(human.stdout, '');
    const lines = human.stderr.trim().split('\n');
    assert.match(lines.at(-1) ?? '', /^Error: .*unknown key "bogus_key"/);
    assert.not.match(human.stderr, /\n\s+at /, 'no stack trace');
  } finally {
    remove();
  }
});

t('api_workers: none below 4 cores by default, else half the cores, at most 4; out of range refused', async (ctx) => {
  assert.equal(
    [1, 2, 3, 4, 6, 8, 64].map((cores) => defaultApiWorkers(cores)),
    [0, 0, 0, 2, 3, 4, 4],
  );
  const res = await svc(['init', '--no-install', '--json', '--api-workers', '17'], { env: { SVC_DATA_DIR: ctx.dir } });
  assert.is.not(res.code, 0);
  assert.match(res.stdout + res.stderr, /--api-workers .*16/);
});

t(
  'a port browsers refuse (10080) is refused for the player, CDN and API, naming the setting; the file stays as it was',
  async () => {
    const { dir, remove } = makeDataDir();
    try {
      for (const [flag, setting] of [
        ['--player-port', 'player_port'],
        ['--cdn-port', 'cdn_port'],
        ['--api-port', 'api_port'],
      ] as const) {
        const res = await svc(['init', '--no-install', '--json', flag, '10080', '--data-dir', dir]);
        assert.is.not(res.code, 0);
        assert.is(res.json.error.code, 'invalid_config');
        assert.match(
          res.json.error.message,
          new RegExp(`"${setting}" is 10080, a port browsers refuse .* such as 10081`),
        );
        assert.not.ok(existsSync(join(dir, 'config.json')), 'nothing written');
      }
      // Not a browser's port: RTMP may be anything.
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ player_port: 6666 }));
      const status = await svc(['status', '--json', '--data-dir', dir]);
      assert.is(status.json.error.code, 'invalid_config');
      assert.match(status.json.error.message, /"player_port" is 6666, .* such as 6670/);
    } finally {
      remove();
    }
  },
);

t('commands on a data dir never initialised say how to initialise it', async () => {
  const { dir, remove } = makeDataDir();
  try {
    const res = await svc(['accounts', 'list', '--data-dir', dir]);
    assert.is.not(res.code, 0);
    assert.is(
      res.stderr.trim(),
      `Error: ${dir} is not initialised: run \`svc init --data-dir ${dir}\` (or \`svc up\`, which initialises it)`,
    );
    const usage = await svc(['accounts', 'create', '--json', '--data-dir', dir]);
    assert.is(usage.code, 2);
    assert.is(usage.json.error.code, 'invalid_usage');
    assert.match(usage.json.error.message, /name/);
  } finally {
    remove();
  }
});

t.run();
