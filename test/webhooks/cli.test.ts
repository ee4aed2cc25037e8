import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { AccountsService } from '../../src/domains/ledger/accounts/service.js';
import { startAppliance, type RunningAppliance } from '../../src/composition/appliance.js';
import { resolveConfig } from '../../src/config/config.js';
import { systemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { svc, ok } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import { freePort } from '../helpers/ports.js';
import { Receiver } from '../helpers/receiver.js';
import { EVENT_TYPES } from '../../src/domains/ledger/events/outbox.js';

interface Ctx {
  db: TestDatabase;
  dir: string;
  running: RunningAppliance;
  receiver: Receiver;
  flags: string[];
}

/** `svc webhooks ...` as thin clients of a running appliance's API (`--base-url`, `--api-key`). */
const t = suite<Ctx>('webhooks: svc webhooks list|create|test|deliveries');
t.before(async (ctx) => {
  ctx.db = await createTestDatabase();
  ctx.dir = mkdtempSync(join(tmpdir(), 'svc-webhooks-cli-'));
  const config = resolveConfig(ctx.dir, {
    database_url: ctx.db.url,
    api_port: await freePort(),
    allow_private_webhooks: true,
  });
  ctx.running = await startAppliance({
    config,
    secrets: { postgres_password: 'unused', signing_key: 'test', data_key: 'test' },
    logger: createLogger('silent'),
  });
  ctx.receiver = await Receiver.start();
  const accounts = new AccountsService(ctx.db.sql, systemClock);
  const account = await accounts.create({ name: 'CLI', creditUsd: '5' });
  const { key } = await accounts.createApiKey(account.id);
  ctx.flags = ['--base-url', config.publicUrls.base_url, '--api-key', key];
});
t.after(async (ctx) => {
  await ctx.running.stop();
  await ctx.receiver.close();
  await ctx.db.drop();
  rmSync(ctx.dir, { recursive: true, force: true });
});

t('create, list, test and deliveries, in JSON and for people', async (ctx) => {
  const { receiver, flags } = ctx;
  const created = ok(
    await svc([
      'webhooks',
      'create',
      '--url',
      receiver.url('/cli'),
      '--events',
      'stream.live,recording.ready',
      '--description',
      'From the CLI',
      '--json',
      ...flags,
    ]),
  ).json;
  assert.match(created.id, /^whk_/);
  assert.match(created.secret, /^whsec_/);
  assert.equal(created.events, ['stream.live', 'recording.ready']);
  receiver.expectSecrets('/cli', created.secret);

  const human = ok(await svc(['webhooks', 'create', '--url', receiver.url('/cli-2'), ...flags])).stdout;
  assert.match(human, /secret\s+whsec_/);
  assert.match(human, /events\s+all/);

  const list = ok(await svc(['webhooks', 'list', '--json', ...flags])).json;
  assert.equal(list.data.map((e: { id: string }) => e.id).slice(0, 1), [created.id]);
  assert.is(list.data[0].secret, undefined);
  assert.equal(list.event_types, [...EVENT_TYPES]);
  const table = ok(await svc(['webhooks', 'list', ...flags])).stdout;
  assert.match(table, /^ID\s+ENABLED\s+EVENTS\s+URL/);
  assert.match(table, new RegExp(`${created.id}\\s+true\\s+stream.live,recording.ready\\s+${receiver.url('/cli')}`));

  const delivery = ok(await svc(['webhooks', 'test', created.id, '--json', ...flags])).json;
  assert.equal([delivery.event_type, delivery.status], ['webhook.test', 'pending']);
  const [req] = await receiver.waitFor('/cli', 1, 3000);
  assert.is(req?.headers['webhook-id'], delivery.event_id);
  assert.ok(req?.verified[created.secret], 'standardwebhooks verifies it');

  let deliveries: { data: { id: string; status: string; attempts: number }[] } = { data: [] };
  for (let i = 0; i < 50 && deliveries.data[0]?.status !== 'succeeded'; i++) {
    deliveries = ok(await svc(['webhooks', 'deliveries', created.id, '--json', ...flags])).json;
  }
  assert.equal(
    [deliveries.data[0]?.id, deliveries.data[0]?.status, deliveries.data[0]?.attempts],
    [delivery.id, 'succeeded', 1],
  );
  const humanDeliveries = ok(
    await svc(['webhooks', 'deliveries', created.id, '--status', 'succeeded', ...flags]),
  ).stdout;
  assert.match(humanDeliveries, new RegExp(`${delivery.id}\\s+webhook.test\\s+succeeded\\s+1/11\\s+200`));
  assert.match(
    ok(await svc(['webhooks', 'deliveries', created.id, '--status', 'failed', ...flags])).stdout,
    /no deliveries/,
  );
});

t('API refusals come back as the API error document with exit 1', async (ctx) => {
  const res = await svc(['webhooks', 'create', '--url', 'ftp://example.com/x', '--json', ...ctx.flags]);
  assert.is(res.code, 1);
  assert.is(res.json.error.code, 'invalid_request');
  assert.is(res.json.error.details.field, 'url');
  const missing = await svc(['webhooks', 'test', 'whk_00000000000000000000', ...ctx.flags]);
  assert.is(missing.code, 1);
  assert.match(missing.stderr, /^Error: not_found: /);
  const usage = await svc(['webhooks', 'deliveries', 'whk_00000000000000000000', '--status', 'done', ...ctx.flags]);
  assert.is(usage.code, 2);
});

t.run();
