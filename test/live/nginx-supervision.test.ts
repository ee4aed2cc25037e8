import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dataPaths } from '../../src/config/paths.js';
import { makeClip, publish, waitFor } from '../helpers/publisher.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';

let app: TestAppliance;
test.before(async () => {
  app = await startTestAppliance();
});
test.after(async () => {
  await app.close();
});

test('nginx killed: restarted by the appliance, node_ready comes back, publishing works again', async () => {
  const { key } = await app.newAccount();
  const pidFile = dataPaths(app.dataDir).nginxPid;
  const before = Number(readFileSync(pidFile, 'utf8'));
  process.kill(before, 'SIGKILL');
  await waitFor(
    'node_ready false',
    async () => (await app.call('POST', '/v1/streams', { key, body: {} })).body.node_ready === false,
    10_000,
    100,
  ).catch(() => undefined);
  const after = await waitFor(
    'a new nginx',
    async () => {
      try {
        const pid = Number(readFileSync(pidFile, 'utf8'));
        return pid !== before && app.running.nginx.ready && pid;
      } catch {
        return false;
      }
    },
    20_000,
  );
  assert.ok(after);
  assert.ok(app.running.nginx.restarts >= 1);
  const s = (await app.call('POST', '/v1/streams', { key, body: {} })).body;
  assert.is(s.node_ready, true);
  const clip = await makeClip({ width: 320, height: 180, seconds: 6, gopSeconds: 1 });
  const p = publish(app.rtmpUrl(s.stream_key), clip, { loop: true });
  await waitFor('live', async () => (await app.call('GET', `/v1/streams/${s.id}`, { key })).body.status === 'live');
  await p.kill();
});

test.run();
