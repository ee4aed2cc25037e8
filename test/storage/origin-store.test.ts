import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { execa } from 'execa';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { dataPaths } from '../../src/config/paths.js';
import { createLogger } from '../../src/core/logger.js';
import { Uploader } from '../../src/domains/engine/live/uploader.js';
import { nodeCredential, nodeKey } from '../../src/domains/ledger/nodes/credentials.js';
import { IngestAccess } from '../../src/domains/ledger/nodes/ingest-access.js';
import { ladderArgs, planLadder } from '../../src/platform/media/ladder.js';
import { parseMediaPlaylist } from '../../src/platform/media/playlist.js';
import type { SegmentProbe } from '../../src/platform/media/probe.js';
import { readSegmentFile } from '../../src/platform/media/segment-reader.js';
import { FsStore } from '../../src/platform/storage/fs-store.js';
import { OriginStore, OriginStoreError } from '../../src/platform/storage/origin-store.js';
import { MEDIA_FOLDER_MODE } from '../../src/platform/system/data-dir.js';
import { startIngestOrigin, type IngestOrigin } from '../helpers/ingest-origin.js';
import { makeClip } from '../helpers/publisher.js';
import { classifyPath } from '../../src/domains/ledger/cdnlog/line.js';

/**
 * An ingest node's media writes to the origin: the appliance's own nginx (rendered from its
 * template, workers as www-data when root) and its `/_ingest/` location, reached over loopback.
 */
interface Ctx {
  origin: IngestOrigin;
  dir: string;
  cdn: string;
  key: string;
  access: IngestAccess;
}
const t = suite<Ctx>('origin store');

const NODE_A = 'nod_aaaaaaaaaaaaaaaaaaaa';
const NODE_B = 'nod_bbbbbbbbbbbbbbbbbbbb';
const SID = 'str_origintestaaaaaaaaaa';

t.before(async (ctx) => {
  ctx.origin = await startIngestOrigin();
  ({ dataDir: ctx.dir, cdn: ctx.cdn, key: ctx.key, access: ctx.access } = ctx.origin);
  ctx.access.allow([NODE_A, NODE_B]);
});

t.after((ctx) => ctx.origin.stop());

const storeOf = (ctx: Ctx, node: string, key = ctx.key) => ctx.origin.store(node, key);

/** A raw request (the path as written: Node does not resolve dot segments), its status. */
function raw(ctx: Ctx, method: string, path: string, credential: string, body = ''): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${ctx.cdn}/`, { method, path, headers: { 'X-Svc-Node': credential } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode as number));
    });
    req.on('error', reject);
    req.end(body);
  });
}

t(
  'a node with a good credential puts, gets, lists (recursively) and deletes; writes land in the media folder',
  async (ctx) => {
    const store = storeOf(ctx, NODE_A);
    const media = dataPaths(ctx.dir).media;
    // The origin's own uploader made the stream's folder first (root): the node's writes still go in.
    await new FsStore(media, { folderMode: MEDIA_FOLDER_MODE }).put(`origin/${SID}/master.m3u8`, '#EXTM3U\n');
    await store.put(`origin/${SID}/source.m3u8`, '#EXTM3U\n#EXT-X-VERSION:6\n');
    const segment = join(ctx.dir, 'segment.ts');
    writeFileSync(segment, Buffer.alloc(3 * 1024 * 1024, 7));
    await store.putFile(`origin/${SID}/source_00000.ts`, segment);
    await store.put(`thumbs/${SID}.jpg`, Buffer.from('jpeg'));
    await store.put(`sessions/${SID}/${SID}-1700000000.flv/000000`, Buffer.alloc(100));
    await store.put(`sessions/${SID}/${SID}-1700000000.flv/000001`, Buffer.alloc(50));

    assert.is(statSync(join(media, 'origin', SID, 'source_00000.ts')).size, 3 * 1024 * 1024, 'on the primary disk');
    assert.is((await store.get(`origin/${SID}/source.m3u8`))?.toString(), '#EXTM3U\n#EXT-X-VERSION:6\n');
    assert.is(await store.get(`origin/${SID}/missing.ts`), null);
    assert.equal(await store.list(`origin/${SID}/`), [
      { key: `origin/${SID}/master.m3u8`, bytes: 8 },
      { key: `origin/${SID}/source.m3u8`, bytes: 25 },
      { key: `origin/${SID}/source_00000.ts`, bytes: 3 * 1024 * 1024 },
    ]);
    assert.equal(
      (await store.list(`origin/${SID}/source`)).map((o) => o.key),
      [`origin/${SID}/source.m3u8`, `origin/${SID}/source_00000.ts`],
    );
    assert.equal(await store.list(`sessions/${SID}/`), [
      { key: `sessions/${SID}/${SID}-1700000000.flv/000000`, bytes: 100 },
      { key: `sessions/${SID}/${SID}-1700000000.flv/000001`, bytes: 50 },
    ]);
    assert.equal(await store.list('origin/str_nothinghereaaaaaaa/'), []);
    const copy = join(ctx.dir, 'copy.ts');
    assert.ok(await store.getFile(`origin/${SID}/source_00000.ts`, copy));
    assert.equal(readFileSync(copy), readFileSync(segment));

    await store.delete(`thumbs/${SID}.jpg`);
    await store.delete(`thumbs/${SID}.jpg`);
    assert.not.ok(existsSync(join(media, 'thumbs', `${SID}.jpg`)));
    assert.is(await store.deletePrefix(`sessions/${SID}/`), 2);
    assert.not.ok(existsSync(join(media, 'sessions', SID)), 'the folder went whole');
    store.close();

    // Writes are no delivery: nothing of them in the CDN log the viewer counts are read from.
    const log = dataPaths(ctx.dir).cdnLog;
    assert.not.ok(existsSync(log) && readFileSync(log, 'utf8').includes('_ingest'), 'no /_ingest/ line in the CDN log');
    assert.is(classifyPath(`/_ingest/origin/${SID}/source_00000.ts`), null, 'nor would the reader count one');
  },
);

t('a forged credential, another key and a removed node are refused with 403; nothing is written', async (ctx) => {
  const forged = new OriginStore({ url: ctx.cdn, credential: `${NODE_A}.${'A'.repeat(43)}`, timeoutMs: 5000 });
  const otherKey = storeOf(ctx, NODE_A, nodeKey('another-appliance-signing-key'));
  const unknown = storeOf(ctx, 'nod_cccccccccccccccccccc');
  for (const store of [forged, otherKey, unknown]) {
    const err = await store.put(`origin/${SID}/evil.ts`, 'x').catch((e: unknown) => e);
    assert.instance(err, OriginStoreError);
    assert.is((err as OriginStoreError).status, 403);
    assert.match((err as Error).message, /PUT origin\/str_origintestaaaaaaaaaa\/evil\.ts: 403 refused/);
    const read = await store.get(`origin/${SID}/source.m3u8`).catch((e: unknown) => e);
    assert.is((read as OriginStoreError).status, 403, 'reads are refused too');
    store.close();
  }
  assert.not.ok(existsSync(join(dataPaths(ctx.dir).origin, SID, 'evil.ts')));

  const b = storeOf(ctx, NODE_B);
  await b.put(`origin/${SID}/b.ts`, 'b');
  ctx.access.allow([NODE_A]);
  const err = await b.put(`origin/${SID}/b2.ts`, 'b').catch((e: unknown) => e);
  assert.is((err as OriginStoreError).status, 403, 'removed: refused at its next write, no reload');
  ctx.access.allow([NODE_A, NODE_B]);
  await b.put(`origin/${SID}/b2.ts`, 'b');
  b.close();
});

t(
  'outside origin/, thumbs/ and sessions/, with dot segments or other methods: refused, nothing written',
  async (ctx) => {
    const good = nodeCredential(ctx.key, NODE_A);
    const paths = dataPaths(ctx.dir);
    writeFileSync(join(paths.recordings, 'keep.mp4'), 'recording');
    for (const path of [
      `/_ingest/recordings/${SID}/recording.mp4`,
      '/_ingest/recordings/keep.mp4',
      '/_ingest/nodes/nod_dddddddddddddddddddd',
      '/_ingest/edges/edg_aaaaaaaaaaaaaaaaaaaa',
      '/_ingest/config.json',
      `/_ingest/origin/../recordings/keep.mp4`,
      `/_ingest/origin/%2e%2e/recordings/keep.mp4`,
      `/_ingest/origin/${SID}/..%2f..%2frecordings/keep.mp4`,
      `/_ingest/thumbs/.hidden.jpg`,
      `/_ingest/../../config.json`,
    ]) {
      const status = await raw(ctx, 'PUT', path, good, 'overwritten');
      assert.ok(status === 403 || status === 400, `PUT ${path}: ${status}`);
      const deleted = await raw(ctx, 'DELETE', path, good);
      assert.ok(deleted === 403 || deleted === 400, `DELETE ${path}: ${deleted}`);
    }
    assert.is(readFileSync(join(paths.recordings, 'keep.mp4'), 'utf8'), 'recording');
    assert.not.ok(existsSync(join(paths.nodesAllowed, 'nod_dddddddddddddddddddd')));
    for (const method of ['MKCOL', 'COPY', 'MOVE', 'POST'])
      assert.is(await raw(ctx, method, `/_ingest/origin/${SID}/x.ts`, good), 403, method);
    // The store refuses such keys before they leave the node.
    const store = storeOf(ctx, NODE_A);
    const err = await store.put(`origin/${SID}/../../recordings/x.mp4`, 'x').catch((e: unknown) => e);
    assert.match((err as Error).message, /invalid storage key/);
    store.close();
  },
);

t(
  'an uploader on one node publishes a playable origin; a second node resumes it with a discontinuity, the sequence never goes back',
  async (ctx) => {
    const sid = 'str_handoveraaaaaaaaaaaa';
    const clip = await makeClip({ width: 320, height: 240, seconds: 8, gopSeconds: 2 });
    const renditions = planLadder('abr_basic', { width: 320, height: 240 });
    const origin = join(dataPaths(ctx.dir).origin, sid);
    const run = (work: string) =>
      execa(
        'ffmpeg',
        ladderArgs({ input: clip, outDir: work, renditions, hasAudio: true, preset: 'ultrafast', segmentSeconds: 2 }),
      );
    const uploader = (work: string, store: OriginStore) =>
      new Uploader({
        streamId: sid,
        workDir: work,
        store,
        renditions: renditions.map((r) => r.name),
        windowSegments: 3,
        segmentSeconds: 2,
        probe: readSegmentFile,
        onSourceSegment: () => {},
        logger: createLogger('silent'),
      });
    const originList = () => parseMediaPlaylist(readFileSync(join(origin, 'source.m3u8'), 'utf8'));

    const workA = mkdtempSync(join(ctx.dir, 'work-a-'));
    const storeA = storeOf(ctx, NODE_A);
    const a = uploader(workA, storeA);
    await run(workA);
    await a.tick();
    assert.ok(a.playable, 'master and a segment of every rendition on the origin');
    const before = originList();
    assert.ok(before.segments.length === 3, `a window of 3: ${before.segments.length}`);
    assert.ok(before.segments.every((s) => existsSync(join(origin, s.uri))));
    // Playable as viewers get it: ffmpeg reads the origin's playlist and every segment it names.
    // A live playlist is read again and again for more: a copy that ends lets ffprobe finish.
    writeFileSync(join(origin, 'ended.m3u8'), `${readFileSync(join(origin, 'source.m3u8'), 'utf8')}#EXT-X-ENDLIST\n`);
    const seconds = await playedSeconds(join(origin, 'ended.m3u8'));
    assert.ok(seconds >= 4, `the origin's window plays: ${seconds} s`);
    storeA.close();

    // Node A dies; the publisher reconnects to node B: an empty work folder, its ladder numbers from 0 again.
    const workB = mkdtempSync(join(ctx.dir, 'work-b-'));
    const storeB = storeOf(ctx, NODE_B);
    const b = uploader(workB, storeB);
    await run(workB);
    await b.tick();
    const after = originList();
    assert.ok(
      after.mediaSequence > before.mediaSequence,
      `MEDIA-SEQUENCE ${before.mediaSequence} -> ${after.mediaSequence}`,
    );
    const names = [...before.segments, ...after.segments].map((s) => s.uri);
    const numbers = names.map((u) => Number(/_(\d+)\.ts$/.exec(u)?.[1]));
    assert.ok(
      after.segments.every(
        (s) => Number(/_(\d+)\.ts$/.exec(s.uri)?.[1]) > Math.max(...numbers.slice(0, before.segments.length)),
      ),
      `node B's segments are numbered after node A's, never over them: ${names.join(' ')}`,
    );
    assert.ok(
      after.segments.every((s) => existsSync(join(origin, s.uri))),
      'every listed segment is on the origin',
    );
    assert.ok(
      after.discontinuitySequence + after.segments.filter((s) => s.discontinuity).length >=
        before.discontinuitySequence + 1,
      'the join is a discontinuity (listed, or slid out and counted)',
    );
    await b.finish();
    assert.ok(originList().ended);
    const joined = await playedSeconds(join(origin, 'source.m3u8'));
    assert.ok(joined >= 4, `still plays across the join: ${joined} s`);
    storeB.close();
  },
);

t(
  'a segment the origin refuses is retried, then skipped: the playlist never names it, the next one is a discontinuity',
  async (ctx) => {
    const sid = 'str_skippedaaaaaaaaaaaa';
    const work = mkdtempSync(join(ctx.dir, 'work-skip-'));
    const origin = join(dataPaths(ctx.dir).origin, sid);
    const probe = async (): Promise<SegmentProbe> => ({
      video: { codec: 'h264', profile: 'High', level: 31, width: 320, height: 240, frameRate: 30 },
      audio: null,
      keyframeTimes: [],
      duration: 2,
    });
    const ladderWrote = (numbers: number[]) => {
      const name = (n: number) => `source_${String(n).padStart(5, '0')}.ts`;
      writeFileSync(
        join(work, 'source.m3u8'),
        `#EXTM3U\n${numbers.map((n) => `#EXTINF:2.000000,\n${name(n)}\n`).join('')}`,
      );
      for (const n of numbers) writeFileSync(join(work, name(n)), Buffer.alloc(1000, n));
    };
    const warnings: string[] = [];
    const store = storeOf(ctx, NODE_A);
    const up = new Uploader({
      streamId: sid,
      workDir: work,
      store,
      renditions: ['source'],
      windowSegments: 5,
      segmentSeconds: 2,
      probe,
      onSourceSegment: () => {},
      retryDelaysMs: [50, 50],
      logger: createLogger('warn', { write: (line: string) => void warnings.push(JSON.parse(line).msg as string) }),
    });
    const listed = () => parseMediaPlaylist(readFileSync(join(origin, 'source.m3u8'), 'utf8')).segments;
    try {
      ladderWrote([0, 1]);
      await up.tick();
      assert.equal(
        listed().map((s) => s.uri),
        ['source_00000.ts', 'source_00001.ts'],
      );
      // The node is refused for a moment (removed, then allowed again).
      ctx.access.allow([NODE_B]);
      ladderWrote([1, 2]);
      await up.tick();
      assert.equal(
        listed().map((s) => s.uri),
        ['source_00000.ts', 'source_00001.ts'],
        'the refused segment is not listed',
      );
      assert.ok(warnings.includes('segment skipped: the origin did not take it'), warnings.join(' | '));
      ctx.access.allow([NODE_A, NODE_B]);
      ladderWrote([2, 3]);
      await up.tick();
      const after = listed();
      assert.equal(
        after.map((s) => s.uri),
        ['source_00000.ts', 'source_00001.ts', 'source_00003.ts'],
        'not tried again',
      );
      assert.equal(
        after.map((s) => s.discontinuity),
        [false, false, true],
        'the jump in time is a discontinuity',
      );
      assert.ok(after.every((s) => existsSync(join(origin, s.uri))));
      assert.not.ok(existsSync(join(origin, 'source_00002.ts')));
    } finally {
      store.close();
    }
  },
);

/** How many seconds of video ffprobe reads through a playlist and the segments it names (it fails on a missing one). */
async function playedSeconds(playlist: string): Promise<number> {
  const { stdout, stderr } = await execa(
    'ffprobe',
    ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time', '-of', 'csv=p=0', playlist],
    { timeout: 30_000 },
  );
  assert.is(stderr.trim(), '', 'ffprobe read it without an error');
  const times = stdout.trim().split('\n').map(Number).filter(Number.isFinite);
  return Math.round((Math.max(...times) - Math.min(...times)) * 10) / 10;
}

t.run();
