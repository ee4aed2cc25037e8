/**
 * Recordings with object storage (issue 31): a 10-minute 720p broadcast's recording, from the
 * stream's end to `recording.ready` and to the MP4 in the bucket (goal: ready within 15 s), and
 * the upload's throughput, on a real appliance and a real S3 server (Ceph radosgw on loopback,
 * test/helpers/s3.ts). The broadcast is not published in real time: a synthesised FLV is put where
 * nginx-rtmp records a publish session (`media/ingest/<stream>-<unix time>.flv`) while the stream
 * is live, then the stream is ended, so the recordings job finds it as it finds a real session.
 */
import { copyFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ConfigFile } from '../src/config/schema.js';
import { dataPaths } from '../src/config/paths.js';
import { lockStream } from '../src/domains/streams/model.js';
import * as transitions from '../src/domains/streams/transitions.js';
import { startTestAppliance } from '../test/helpers/appliance.js';
import { makeClip, waitFor } from '../test/helpers/publisher.js';
import { bucketOf, clientOf, keys, objects, startTestS3 } from '../test/helpers/s3.js';
import { startBenchDatabase } from './database.js';

const MINUTES = 10;
const VIDEO_KBPS = 3000;
const RUNS = 2;

export async function benchStorage(): Promise<string> {
  const made = performance.now();
  const flv = await makeClip({ width: 1280, height: 720, seconds: MINUTES * 60, fps: 30, videoKbps: VIDEO_KBPS });
  const synthSeconds = (performance.now() - made) / 1000;
  const flvBytes = (await stat(flv)).size;

  const db = await startBenchDatabase();
  // The test helper makes its database on this server.
  process.env.TEST_DATABASE_URL = db.url;
  const server = await startTestS3();
  const s3 = clientOf(server);
  const config = {
    storage: bucketOf(server),
    // The default period of the recordings job (the test helper shortens it).
    recordings: { check_seconds: 5, retry_seconds: 60 },
  } as ConfigFile;
  const app = await startTestAppliance(config, { storageKeys: keys(server) });
  const rows: string[] = [];
  try {
    const account = await app.newAccount();
    for (let run = 1; run <= RUNS; run++) {
      const created = await app.call('POST', '/v1/streams', { key: account.key, body: { profile: 'passthrough' } });
      const id: string = created.body.id;
      await app.db.sql.begin(async (tx) => transitions.goLive(tx, (await lockStream(tx, account.id, id))!, new Date()));
      const session = join(dataPaths(app.dataDir).ingest, `${id}-${Math.floor(Date.now() / 1000)}.flv`);
      await copyFile(flv, session);

      const ended = performance.now();
      const res = await app.call('DELETE', `/v1/streams/${id}`, { key: account.key });
      if (res.status !== 200) throw new Error(`end: ${res.text}`);
      const ready = await waitFor(
        'recording ready',
        async () => {
          const s = (await app.call('GET', `/v1/streams/${id}`, { key: account.key })).body;
          return s.recording.status === 'ready' && s;
        },
        600_000,
        100,
      );
      const readyAt = performance.now();
      const bytes: number = ready.recording.bytes;
      await waitFor(
        'the recording in the bucket',
        async () => (await objects(s3, server.bucket, `recordings/${id}/recording.mp4`)).some((o) => o.bytes === bytes),
        600_000,
        100,
      );
      const storedAt = performance.now();
      const toReady = (readyAt - ended) / 1000;
      const toBucket = (storedAt - ended) / 1000;
      // The upload starts when the MP4 is spooled, just before ready.
      const uploadSeconds = (storedAt - readyAt) / 1000;
      rows.push(
        `  run ${run}: ${(bytes / 1e6).toFixed(1)} MB MP4 (${ready.recording.duration_seconds} s): ` +
          `end → ready ${toReady.toFixed(1)} s, end → in the bucket ${toBucket.toFixed(1)} s, ` +
          `upload ≈ ${uploadSeconds.toFixed(1)} s = ${((bytes * 8) / 1e6 / uploadSeconds).toFixed(0)} Mbit/s`,
      );
    }
  } finally {
    s3.destroy();
    await app.close();
    await server.stop();
    await db.stop();
  }
  return [
    `storage: a ${MINUTES}-minute 720p30 recording to object storage (Ceph radosgw on loopback, memstore), ` +
      `${RUNS} runs on one appliance`,
    `  source: ffmpeg testsrc2 1280x720 30 fps, libx264 ultrafast ${VIDEO_KBPS} kbit/s, GOP 2 s, AAC 96 kbit/s: ` +
      `${(flvBytes / 1e6).toFixed(1)} MB FLV (synthesised in ${synthSeconds.toFixed(0)} s, cached in the tmp dir)`,
    '  conditions: recordings job every 5 s (the default), passthrough, the stream ended by DELETE; ' +
      'upload = 16 MiB parts, two at a time',
    ...rows,
  ].join('\n');
}
