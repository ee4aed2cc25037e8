/**
 * The CDN log reader: lines read per second on one core over a generated 1,000,000-line log,
 * parse and aggregate alone and with the database writes (each batch one transaction, as the
 * job runs it); then the lag from a delivered segment to its bytes in `delivery_minutes` on a
 * real appliance with the default `cdn.log_read_seconds` (goals: 200,000 lines/s, 2 minutes).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApi } from '../src/composition/appliance.js';
import { resolveConfig } from '../src/config/config.js';
import { systemClock } from '../src/core/clock.js';
import { createLogger } from '../src/core/logger.js';
import { AccountsService } from '../src/domains/ledger/accounts/service.js';
import { BatchTotals } from '../src/domains/ledger/cdnlog/aggregate.js';
import { deliveredBytes } from '../src/domains/ledger/cdnlog/queries.js';
import { CdnLogReader } from '../src/domains/ledger/cdnlog/reader.js';
import { DbLogSink } from '../src/domains/ledger/cdnlog/sink.js';
import type { Sql } from '../src/platform/db/connect.js';
import { startTestAppliance } from '../test/helpers/appliance.js';
import { fetchFrom, type Received } from '../test/helpers/cdn-viewer.js';
import { makeClip, publish, waitFor } from '../test/helpers/publisher.js';
import { startBenchDatabase } from './database.js';

const LINES = 1_000_000;
const STREAMS = 50;
const VIEWERS = 3000;
const MINUTES = 30;
const BATCH_BYTES = 8 * 1024 * 1024;
const LAG_SAMPLES = 3;

/** A log as nginx writes it: segments mostly, playlists, refusals and stills, over MINUTES minutes. */
function generateLog(streamIds: string[], start: number): string {
  const parts: string[] = [];
  for (let i = 0; i < LINES; i++) {
    const viewer = (i * 7919) % VIEWERS;
    const id = streamIds[viewer % streamIds.length] as string;
    const time = (start + (i / LINES) * MINUTES * 60_000) / 1000;
    const roll = i % 100;
    const [status, bytes, path] =
      roll < 85
        ? [200, 180_000 + (i % 5000), `/${id}/source_${String(i % 99_999).padStart(5, '0')}.ts`]
        : roll < 95
          ? [200, 400, `/${id}/source.m3u8`]
          : roll < 98
            ? [403, 146, `/${id}/source_00001.ts`]
            : [200, 9000, `/_thumb/${id}.jpg`];
    parts.push(
      `{"time":${time.toFixed(3)},"status":${status},"bytes":${bytes},"path":"${path}","country":"${['DE', 'FR', 'US', 'XX'][viewer % 4]}","viewer":"${viewer.toString(16).padStart(16, '0')}"}\n`,
    );
  }
  return parts.join('');
}

/** CPU seconds of this process (one core: the reader is one async flow) and wall seconds of `fn`. */
async function measure(fn: () => Promise<unknown> | unknown): Promise<{ cpu: number; wall: number }> {
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  await fn();
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / 1e6, wall: (performance.now() - t0) / 1000 };
}

async function makeStreams(sql: Sql, dir: string): Promise<string[]> {
  const config = resolveConfig(dir, {
    capacity: { cores: 1000 },
    limits: { trusted: { pending_streams: STREAMS, creations_per_hour: STREAMS } },
  });
  const api = await createApi({
    sql,
    config,
    clock: systemClock,
    logger: createLogger('warn'),
    secrets: { postgres_password: '', signing_key: 'b', data_key: 'b' },
  });
  const account = await new AccountsService(sql, systemClock).create({
    name: 'CDN log',
    trusted: true,
    creditUsd: '10',
  });
  const { key } = await new AccountsService(sql, systemClock).createApiKey(account.id);
  const ids: string[] = [];
  for (let i = 0; i < STREAMS; i++) {
    const res = await api.app.inject({
      method: 'POST',
      url: '/v1/streams',
      headers: { authorization: `Bearer ${key}` },
    });
    ids.push((res.json() as { id: string }).id);
  }
  await api.app.close();
  return ids;
}

async function throughput(lines: string[]): Promise<void> {
  const db = await startBenchDatabase();
  try {
    const ids = await makeStreams(db.sql, db.dir);
    const start = Math.floor(systemClock.now().getTime() / 60_000) * 60_000 - MINUTES * 60_000;
    const text = generateLog(ids, start);
    const bytes = Buffer.byteLength(text);

    // Batches as the reader makes them (the text is ASCII: characters are bytes).
    const parse = await measure(() => {
      let at = 0;
      while (at < text.length) {
        const end = text.lastIndexOf('\n', Math.min(text.length, at + BATCH_BYTES) - 1) + 1;
        const totals = new BatchTotals();
        totals.addText(text.slice(at, end));
        totals.deliveryRows();
        totals.viewerRows();
        at = end;
      }
    });
    lines.push(
      `generated log: ${LINES.toLocaleString('en')} lines, ${(bytes / 1e6).toFixed(0)} MB, ${STREAMS} streams, ${VIEWERS} viewers over ${MINUTES} min`,
    );
    lines.push(
      `parse + aggregate     ${Math.round(LINES / parse.cpu)
        .toLocaleString('en')
        .padStart(10)} lines/s per CPU second (${parse.wall.toFixed(2)} s wall)`,
    );

    const dir = mkdtempSync(join(tmpdir(), 'svc-bench-cdnlog-'));
    try {
      const file = join(dir, 'cdn-access.log');
      writeFileSync(file, text);
      const reader = new CdnLogReader({
        sink: new DbLogSink(db.sql, systemClock),
        clock: systemClock,
        logger: createLogger('warn'),
        file,
        rotatedFile: `${file}.rotated`,
        maxBytes: 1 << 40,
        reopen: () => true,
      });
      let result: Awaited<ReturnType<CdnLogReader['run']>> | undefined;
      const read = await measure(async () => (result = await reader.run()));
      const delivered = (await Promise.all(ids.map((id) => deliveredBytes(db.sql, id)))).reduce((a, b) => a + b, 0);
      lines.push(
        `read + write to DB    ${Math.round(LINES / read.wall)
          .toLocaleString('en')
          .padStart(
            10,
          )} lines/s wall (${read.wall.toFixed(2)} s, ${result?.batches} transactions; the reader's own CPU ${Math.round(LINES / read.cpu).toLocaleString('en')} lines/s; PostgreSQL on the other core)`,
      );
      lines.push(`  delivered bytes counted: ${(delivered / 1e9).toFixed(2)} GB`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    await db.stop();
  }
}

/** Seconds from a segment's last byte at the player to its bytes in delivery_minutes, on a real appliance. */
async function lag(lines: string[]): Promise<void> {
  const db = await startBenchDatabase();
  // The test helper makes its database on this server.
  process.env.TEST_DATABASE_URL = db.url;
  const app = await startTestAppliance({ live: { segment_seconds: 1, window_segments: 3 } });
  try {
    const { key } = await app.newAccount();
    const created = await app.call('POST', '/v1/streams', { key, body: { profile: 'passthrough' } });
    const id: string = created.body.id;
    const publisher = publish(
      app.rtmpUrl(created.body.stream_key),
      await makeClip({ width: 320, height: 240, seconds: 6, gopSeconds: 1 }),
      { loop: true },
    );
    const got: Received = { bytes: 0, requests: 0, segments: 0 };
    const source = (created.body.playback_url as string).replace('master.m3u8', 'source.m3u8');
    await waitFor(
      'segments',
      async () => (await fetchFrom(source, { localAddress: '127.0.0.1', userAgent: 'bench' }, got)).status === 200,
      60_000,
    );
    const lags: number[] = [];
    for (let i = 0; i < LAG_SAMPLES; i++) {
      // Counted bytes catch up with everything fetched before; then one segment more.
      await waitFor('caught up', async () => (await deliveredBytes(app.db.sql, id)) >= got.bytes, 120_000, 100);
      await new Promise((r) => setTimeout(r, Math.random() * 10_000));
      const playlist = await fetchFrom(source, { localAddress: '127.0.0.1', userAgent: 'bench' }, got);
      const segment = playlist.body
        .toString()
        .split('\n')
        .filter((l) => l.endsWith('.ts'))
        .at(-1) as string;
      await fetchFrom(source.replace('source.m3u8', segment), { localAddress: '127.0.0.1', userAgent: 'bench' }, got);
      const t0 = performance.now();
      await waitFor(
        'the segment counted',
        async () => (await deliveredBytes(app.db.sql, id)) >= got.bytes,
        180_000,
        100,
      );
      lags.push((performance.now() - t0) / 1000);
    }
    await publisher.kill();
    lines.push(
      `lag, segment delivered → bytes in delivery_minutes (cdn.log_read_seconds ${app.config.cdn.log_read_seconds}): ${lags.map((s) => s.toFixed(1)).join(', ')} s; max ${Math.max(...lags).toFixed(1)} s (goal ≤ 120 s)`,
    );
  } finally {
    await app.close();
    await db.stop();
  }
}

export async function benchCdnLog(): Promise<string> {
  const lines = ['CDN log reader (one process: the reader is one async flow on one core)'];
  await throughput(lines);
  await lag(lines);
  return lines.join('\n');
}
