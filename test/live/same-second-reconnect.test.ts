import { readdirSync, statSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execa } from 'execa';
import { dataPaths } from '../../src/config/paths.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';

/**
 * nginx-rtmp names a session's recording after the second it started (`record_unique`) and opens
 * it truncating: a publisher reconnecting within that second used to wipe its last session. The
 * reconnect is retried until one lands in the same second as the session before it.
 */
const ATTEMPTS = 12;
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

const videoPackets = async (file: string) =>
  Number(
    (
      await execa('ffprobe', [
        '-v',
        'error',
        '-select_streams',
        'v:0',
        '-count_packets',
        '-show_entries',
        'stream=nb_read_packets',
        '-of',
        'csv=p=0',
        file,
      ])
    ).stdout.trim(),
  );
const sessionsOf = (id: string) =>
  readdirSync(dataPaths(app.dataDir).ingest)
    .filter((f) => f.startsWith(`${id}-`) && f.endsWith('.flv'))
    .sort();
const logLines = (id: string, msg: string, sinceMs: number) =>
  readFileSync(join(app.dataDir, 'logs', 'svc.log'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === msg && l.stream_id === id && Date.parse(String(l.time)) >= sinceMs);
/**
 * Ladders started for the stream once its publisher was admitted again after `sinceMs`: the first
 * session's ladder may start late (a loaded machine) or never (it can end first), and the earlier
 * sessions are set aside at that admission.
 */
const laddersStarted = (id: string, sinceMs: number) => {
  const [readmitted] = logLines(id, 'publisher reconnected', sinceMs);
  return readmitted ? logLines(id, 'ladder started', Date.parse(String(readmitted.time))) : [];
};

test("a publisher reconnecting within the same second keeps both sessions' recordings; the new ladder reads its own", async () => {
  const clip = await makeClip({ width: 640, height: 360, seconds: 20, gopSeconds: 1 });
  const ingest = dataPaths(app.dataDir).ingest;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const created = (
      await app.call('POST', '/v1/streams', { key, body: { max_resolution: 720, profile: 'passthrough' } })
    ).body;
    const id = created.id as string;
    const first = publish(app.rtmpUrl(created.stream_key), clip, { loop: true });
    publishers.push(first);
    // The first session has media on disk (a keyframe), then its publisher drops and comes straight back.
    const firstName = await waitFor(
      'the first session on disk',
      async () => {
        const name = sessionsOf(id)[0];
        return name && statSync(join(ingest, name)).size > 20_000 && name;
      },
      20_000,
      10,
    );
    await first.kill();
    const reconnectedAt = Date.now();
    const second = publish(app.rtmpUrl(created.stream_key), clip, { loop: true });
    publishers.push(second);
    const [ladder] = await waitFor(
      "the second session's ladder",
      async () => {
        const started = laddersStarted(id, reconnectedAt);
        return started.length > 0 && started;
      },
      30_000,
    );
    const names = sessionsOf(id);
    const newest = names.at(-1) as string;
    const sameSecond = newest === firstName;
    if (sameSecond) {
      const stem = firstName.replace(/\.flv$/, '');
      assert.equal(
        names,
        [`${stem}.000.flv`, firstName],
        "the first session was set aside, the second has nginx's name",
      );
      const kept = await videoPackets(join(ingest, `${stem}.000.flv`));
      assert.ok(kept > 0, `the first session keeps its video (${kept} packets)`);
      await waitFor("the second session's media", async () => (await videoPackets(join(ingest, firstName))) > 0);
      assert.is(ladder?.input, 'recording', 'the second ladder reads its own session from its first frame');
    }
    await second.kill();
    await app.call('DELETE', `/v1/streams/${id}`, { key });
    if (sameSecond) return;
  }
  assert.unreachable(`no reconnect within the same second in ${ATTEMPTS} attempts`);
});

test.run();
