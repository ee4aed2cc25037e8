/**
 * `svc accounts usage` is GET /v1/usage for the operator: the same document, read from the
 * database the data dir names. The history is in the past and fully charged, so both read it the
 * same whatever the wall clock says between the two reads (both use the system clock).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createApi, type Api } from '../../src/composition/appliance.js';
import { writeConfigFile } from '../../src/config/config.js';
import { ensureSecrets } from '../../src/config/secrets.js';
import { systemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { makeDataDir, svc } from '../helpers/cli.js';
import { createTestDatabase, type TestDatabase } from '../helpers/db.js';
import {
  createWorld,
  DAY,
  deliver,
  end,
  HOUR,
  join,
  MIN,
  newStream,
  recordingDeleted,
  recordingReady,
} from './world.js';

const t = suite<{ db: TestDatabase; data: ReturnType<typeof makeDataDir>; api: Api; accountId: string; key: string }>(
  'billing: svc accounts usage',
);

t.before(async (ctx) => {
  ctx.db = await createTestDatabase();
  ctx.data = makeDataDir();
  writeConfigFile(ctx.data.dir, { database_url: ctx.db.url });
  const secrets = ensureSecrets(ctx.data.dir);

  // Two days ago, across a UTC midnight: publishing, delivery, a recording kept for a few hours, a top-up.
  const midnight = Math.floor(Date.now() / DAY) * DAY - DAY;
  const w = createWorld(ctx.db.sql, midnight - 2 * HOUR);
  const account = await w.accounts.create({ name: 'Operator view', creditUsd: '3.25' });
  ctx.accountId = account.id;
  ctx.key = (await w.accounts.createApiKey(account.id)).key;
  const stream = await newStream(w, account.id, { profile: 'abr_basic' });
  await join(w, stream.id, new Date(midnight - 20 * MIN - 123));
  await end(w, stream.id, new Date(midnight + 35 * MIN + 456));
  await deliver(w.sql, stream.id, new Date(midnight - 10 * MIN), 7_654_321_987n);
  await deliver(w.sql, stream.id, new Date(midnight + 10 * MIN), 1_234_567n);
  await recordingReady(w, stream.id, new Date(midnight + 40 * MIN), 3_000_000_000);
  await recordingDeleted(w, stream.id, new Date(midnight + 5 * HOUR + 17 * MIN));
  w.clock.set(midnight + 6 * HOUR);
  await w.accounts.addCredit(account.id, '1.000001');
  await w.metering.run();

  ctx.api = await createApi({
    sql: ctx.db.sql,
    config: w.config,
    clock: systemClock,
    logger: createLogger('silent'),
    secrets,
  });
});
t.after(async (ctx) => {
  await ctx.api.app.close();
  await ctx.db.drop();
  ctx.data.remove();
});

t(
  '--json prints what GET /v1/usage answers; the table shows the days with charges',
  async ({ api, data, accountId, key }) => {
    for (const days of [3, 30]) {
      const res = await api.app.inject({
        method: 'GET',
        url: `/v1/usage?days=${days}`,
        headers: { authorization: `Bearer ${key}` },
      });
      assert.is(res.statusCode, 200, res.payload);
      const cli = await svc(['accounts', 'usage', accountId, '--days', String(days), '--json', '--data-dir', data.dir]);
      assert.is(cli.code, 0, cli.stderr);
      assert.equal(cli.json, res.json());
      assert.is(cli.json.days.length, days);
    }
    const usage = (
      await api.app.inject({ method: 'GET', url: '/v1/usage?days=3', headers: { authorization: `Bearer ${key}` } })
    ).json();
    assert.is(usage.credit_usd, '4.250001');
    assert.ok(
      usage.days.filter((d: { total_usd: string }) => d.total_usd !== '0.00').length >= 2,
      'charges on both sides of midnight',
    );

    const human = await svc(['accounts', 'usage', accountId, '--days', '3', '--data-dir', data.dir]);
    assert.is(human.code, 0, human.stderr);
    assert.match(human.stdout, new RegExp(`balance_usd\\s+${usage.balance_usd.replace('.', '\\.')}`));
    for (const day of usage.days.filter((d: { total_usd: string }) => d.total_usd !== '0.00'))
      assert.match(human.stdout, day.date);
  },
);

t.run();
