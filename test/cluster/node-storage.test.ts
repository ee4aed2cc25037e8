import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { systemClock } from '../../src/core/clock.js';
import { AccountsService } from '../../src/domains/ledger/accounts/service.js';
import { connect, type Sql } from '../../src/platform/db/connect.js';
import { makeDataDir, ok } from '../helpers/cli.js';
import {
  addAndJoin,
  callApi,
  createClusterDatabase,
  startTopology,
  type ClusterNode,
  type Topology,
} from '../helpers/cluster.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';
import { startTestS3, type TestS3 } from '../helpers/s3.js';

/**
 * A cluster whose primary keeps recordings in object storage (docs/decisions.md, "Ingest nodes:
 * the primary's object storage"): `svc node join` gives the ingest node the same bucket, the node
 * ships its publish sessions there, and the primary's recorder makes the recording from them; a
 * node whose bucket the primary does not read does not start. Each machine in its own network
 * namespace; Ceph radosgw on the bridge's address in the root namespace, reached by both.
 */

const API = 8080;
const RTMP = 1935;

interface Ctx {
  topology: Topology;
  primary: ClusterNode;
  ingest: ClusterNode;
  server: TestS3;
  s3: S3Client;
  db: { url: string; nodeUrl: string; drop: () => Promise<void> };
  sql: Sql;
  dirs: Record<string, { dir: string; remove: () => void }>;
  key: string;
  publisher?: Publisher;
}

const t = suite<Ctx>('cluster: an ingest node with the primary object storage');

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
const mergeJson = (file: string, patch: Record<string, unknown>) =>
  writeFileSync(file, JSON.stringify({ ...readJson(file), ...patch }, null, 2));

const NODE_SETTINGS = {
  capacity: { cores: 1, reserved_cores: 0.1 },
  live: { idle_publisher_seconds: 3 },
  recordings: { check_seconds: 2, retry_seconds: 3 },
};

const api = (ctx: Ctx, method: string, path: string, body?: unknown) =>
  callApi(ctx.primary.url(API, path), ctx.key, method, body);

const objects = async (ctx: Ctx, prefix: string) =>
  (await ctx.s3.send(new ListObjectsV2Command({ Bucket: ctx.server.bucket, Prefix: prefix }))).Contents ?? [];

t.before(async (ctx) => {
  ctx.topology = await startTopology({ nodes: ['primary', 'ingest1'] });
  ctx.primary = ctx.topology.node('primary');
  ctx.ingest = ctx.topology.node('ingest1');
  ctx.server = await startTestS3({ host: ctx.topology.rootAddress });
  ctx.s3 = new S3Client({
    endpoint: ctx.server.endpoint,
    region: ctx.server.region,
    forcePathStyle: true,
    credentials: { accessKeyId: ctx.server.accessKeyId, secretAccessKey: ctx.server.secretAccessKey },
  });
  ctx.db = await createClusterDatabase(ctx.primary);
  ctx.sql = connect(ctx.db.url, { max: 2 });
  ctx.dirs = { primary: makeDataDir() };
  const dir = ctx.dirs.primary!.dir;
  const inPrimary = (args: string[]) => ctx.primary.svc([...args, '--data-dir', dir], { timeoutMs: 60_000 });
  ok(await inPrimary(['init', '--no-install', '--host', ctx.primary.address, '--database-url', ctx.db.nodeUrl]));
  // As the operator does it: `svc storage set` (which asks the bucket from the primary's machine).
  ok(
    await inPrimary([
      'storage',
      'set',
      '--endpoint',
      ctx.server.endpoint,
      '--region',
      ctx.server.region,
      '--bucket',
      ctx.server.bucket,
      '--path-style',
      '--access-key-id',
      ctx.server.accessKeyId,
      '--secret-access-key',
      ctx.server.secretAccessKey,
    ]),
  );
  const config = join(dir, 'config.json');
  // Slices every 2 s, so that a short broadcast has several.
  mergeJson(config, { ...NODE_SETTINGS, storage: { ...(readJson(config).storage as object), slice_seconds: 2 } });
  ok(await ctx.primary.svc(['up', '--detach', '--data-dir', dir], { timeoutMs: 120_000 }));
  const accounts = new AccountsService(ctx.sql, systemClock);
  const account = await accounts.create({ name: 'Cluster', creditUsd: '100', trusted: true });
  ctx.key = (await accounts.createApiKey(account.id)).key;
});

t.after(async (ctx) => {
  await ctx.publisher?.kill();
  for (const [name, d] of Object.entries(ctx.dirs ?? {}))
    await ctx.topology?.node(name).svc(['down', '--data-dir', d.dir], { timeoutMs: 60_000 });
  await ctx.topology?.stop();
  ctx.s3?.destroy();
  await ctx.server?.stop();
  await ctx.sql?.end({ timeout: 5 });
  await ctx.db?.drop();
  for (const d of Object.values(ctx.dirs ?? {})) d.remove();
});

t('the join gives the node the bucket; its sessions go there and the primary records from them', async (ctx) => {
  const primaryDir = ctx.dirs.primary!.dir;
  ctx.dirs.ingest1 = makeDataDir();
  const dir = ctx.dirs.ingest1.dir;
  const joined = await addAndJoin(ctx.primary, primaryDir, API, ctx.ingest, dir, ctx.db.url);
  assert.match(joined.stdout + joined.stderr, `object storage: ${ctx.server.endpoint}`);
  assert.equal(readJson(join(dir, 'config.json')).storage, readJson(join(primaryDir, 'config.json')).storage);
  assert.equal(readJson(join(dir, 'secrets.json')).storage, readJson(join(primaryDir, 'secrets.json')).storage);
  mergeJson(join(dir, 'config.json'), NODE_SETTINGS);
  ok(await ctx.ingest.svc(['up', '--detach', '--data-dir', dir], { timeoutMs: 120_000 }));

  const created = await api(ctx, 'POST', '/v1/streams', { profile: 'passthrough' });
  assert.is(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id as string;
  const clip = await makeClip({ width: 320, height: 240, seconds: 4, gopSeconds: 1 });
  // Straight to the ingest node (any node takes any key).
  ctx.publisher = publish(`rtmp://${ctx.ingest.address}:${RTMP}/live/${created.body.stream_key}`, clip, { loop: true });
  await waitFor('live', async () => (await api(ctx, 'GET', `/v1/streams/${id}`)).body.status === 'live', 60_000);
  const node = await ctx.sql<{ name: string }[]>`
    select n.name from streams s join nodes n on n.id = s.node_id where s.id = ${id}`;
  assert.is(node[0]?.name, 'ingest1');
  // Pieces in the bucket while the session grows; none through the origin.
  await waitFor(
    'session pieces in the bucket',
    async () => (await objects(ctx, `sessions/${id}/`)).length >= 3,
    30_000,
  );
  assert.not.ok(existsSync(join(primaryDir, 'media', 'sessions', id)), 'nothing shipped to the origin');

  assert.is((await api(ctx, 'DELETE', `/v1/streams/${id}`)).status, 200);
  const sent = ctx.publisher.sentSeconds();
  await ctx.publisher.kill();
  const recording = await waitFor(
    'recording ready',
    async () => {
      const r = (await api(ctx, 'GET', `/v1/streams/${id}`)).body.recording;
      return r.status !== 'processing' && r;
    },
    60_000,
  );
  assert.is(recording.status, 'ready', JSON.stringify(recording));
  // Made on the primary, which never had the session on its disk: all of it came from the bucket.
  assert.ok(
    Math.abs(recording.duration_seconds - sent) < 2,
    `recording ${recording.duration_seconds} s, sent ${sent} s`,
  );
  await waitFor('the MP4 in the bucket', async () => (await objects(ctx, `recordings/${id}/`)).length === 1, 30_000);
});

t('an ingest node whose bucket the primary does not read does not start', async (ctx) => {
  const dir = ctx.dirs.ingest1!.dir;
  ok(await ctx.ingest.svc(['down', '--data-dir', dir], { timeoutMs: 60_000 }));
  const config = join(dir, 'config.json');
  mergeJson(config, { storage: { ...(readJson(config).storage as object), prefix: 'elsewhere/' } });
  const refused = await ctx.ingest.svc(['up', '--detach', '--data-dir', dir], { timeoutMs: 60_000 });
  assert.is.not(refused.code, 0);
  assert.match(refused.stdout + refused.stderr, `but the primary's recorder reads bucket "${ctx.server.bucket}"`);
});

t.run();
