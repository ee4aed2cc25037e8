/** `svc dashboard`: the address with the operator token, stable across runs, replaced by --rotate. */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readSecrets } from '../../src/config/secrets.js';
import { operatorToken } from '../../src/domains/surfaces/dashboard/access.js';
import { createEmptyDatabase, makeDataDir, ok, svc } from '../helpers/cli.js';

const t = suite<{ dir: string; remove: () => void; db: { url: string; drop: () => Promise<void> }; flags: string[] }>(
  'svc dashboard',
);

t.before(async (ctx) => {
  Object.assign(ctx, makeDataDir());
  ctx.db = await createEmptyDatabase();
  ctx.flags = ['--data-dir', ctx.dir];
  ok(
    await svc(['init', '--no-install', '--json', '--database-url', ctx.db.url, '--player-port', '18999', ...ctx.flags]),
  );
});
t.after(async (ctx) => {
  await ctx.db?.drop();
  ctx.remove?.();
});

t('prints the dashboard address with the token in the fragment; the same until --rotate', async ({ dir, flags }) => {
  const first = ok(await svc(['dashboard', '--json', ...flags])).json;
  const signingKey = readSecrets(dir).signing_key;
  assert.is(first.object, 'dashboard_access');
  assert.is(first.generation, 1);
  assert.is(first.rotated_at, null);
  assert.is(first.token, operatorToken(signingKey, 1));
  assert.match(first.token, /^svcop_[A-Za-z0-9_-]{43}$/);
  assert.is(first.url, `http://127.0.0.1:18999/dashboard#token=${first.token}`);
  // Derived, never stored: the next run prints the same address.
  assert.equal(ok(await svc(['dashboard', '--json', ...flags])).json, first);

  const human = ok(await svc(['dashboard', ...flags])).stdout;
  assert.match(human, first.url);
  assert.match(human, 'keep it like a password');

  const rotated = ok(await svc(['dashboard', '--rotate', '--json', ...flags])).json;
  assert.is(rotated.generation, 2);
  assert.is(rotated.token, operatorToken(signingKey, 2));
  assert.is.not(rotated.token, first.token);
  assert.ok(rotated.rotated_at);
  assert.is(ok(await svc(['dashboard', '--json', ...flags])).json.token, rotated.token);
});

t.run();
