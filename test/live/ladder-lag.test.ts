import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dataPaths } from '../../src/config/paths.js';
import { findProcesses } from '../../src/platform/process/proc.js';
import { LADDER_LAG_WARN_SECONDS } from '../../src/domains/engine/live/ending.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';

/**
 * A ladder reading nginx's recording never makes nginx drop media: when it cannot keep up it
 * falls behind the file. The live tick measures how far (bytes not yet read, and the media time
 * they hold at the ingest bitrate) and warns the operator; a ladder stopped by a signal stands in
 * for one starved of CPU.
 */
let app: TestAppliance;
let key: string;
const publishers: Publisher[] = [];

test.before(async () => {
  app = await startTestAppliance();
  ({ key } = await app.newAccount({ trusted: true }));
});
test.after(async () => {
  await Promise.all(publishers.map((p) => p.kill()));
  await app.close();
});

const logsOf = (id: string) =>
  readFileSync(join(app.dataDir, 'logs', 'svc.log'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.stream_id === id);
const lagWarning = (id: string) =>
  logsOf(id).find(
    (l) => typeof l.msg === 'string' && l.msg.startsWith('the ladder is not keeping up: it is behind the recording'),
  );

test('a ladder that falls behind the recording it reads is warned about with how far, and said to catch up', async () => {
  const clip = await makeClip({ width: 1280, height: 720, seconds: 30, gopSeconds: 2, videoKbps: 800 });
  const created = (
    await app.call('POST', '/v1/streams', { key, body: { max_resolution: 720, profile: 'passthrough' } })
  ).body;
  const id = created.id as string;
  const publisher = publish(app.rtmpUrl(created.stream_key), clip, { loop: true });
  publishers.push(publisher);
  await waitFor('a playable master', async () => (await fetch(created.playback_url)).status === 200, 30_000);
  assert.is(logsOf(id).find((l) => l.msg === 'ladder started')?.input, 'recording');
  // Keeping up: no warning over a few ticks.
  await new Promise((r) => setTimeout(r, 3000));
  assert.not.ok(lagWarning(id), 'a ladder that keeps up is not warned about');

  const workDir = join(dataPaths(app.dataDir).live, id);
  const [ladder] = findProcesses((argv) => argv.some((a) => a.startsWith(`${workDir}/`)));
  assert.ok(ladder, 'the ladder runs');
  process.kill(ladder, 'SIGSTOP');
  const stoppedAt = Date.now();
  let warning: Record<string, unknown>;
  try {
    warning = await waitFor('the lag warning', async () => lagWarning(id), 30_000);
  } finally {
    process.kill(ladder, 'SIGCONT');
  }
  const behind = warning.behind_seconds as number;
  const stoppedFor = (Date.now() - stoppedAt) / 1000;
  assert.ok(
    behind > LADDER_LAG_WARN_SECONDS && behind < stoppedFor + 3,
    `behind ${behind} s after a ${stoppedFor.toFixed(1)} s stop`,
  );
  assert.ok((warning.behind_bytes as number) > 500_000, `${String(warning.behind_bytes)} bytes behind`);
  await waitFor(
    'the catch-up',
    async () => logsOf(id).find((l) => l.msg === 'the ladder caught up with the recording'),
    20_000,
  );
});

test.run();
