/**
 * A real S3 server for the object-storage tests: Ceph's RADOS Gateway (Debian's `radosgw`, Ceph
 * 16 "Pacific") on a one-node Ceph cluster in a temp dir: one monitor, one OSD on `memstore`
 * (objects in the OSD's memory: nothing touches a disk and nothing outlives the test), and
 * radosgw's beast frontend. Pacific's radosgw cannot run without RADOS (its `dbstore` backend
 * came in Reef), hence the monitor and the OSD; no manager is needed for I/O. docs/decisions.md
 * ("Object storage: the test server") has the figures: 2.5–6.5 s to start, about 135 MB of memory
 * idle plus 1.7 times what is stored.
 *
 * No cephx (a throwaway cluster on loopback) and pools of one copy. The monitor's Paxos proposes
 * every 10 ms instead of every second: radosgw creates its pools one by one at its first start
 * and a bucket's pools at the first bucket, each a Paxos round, and the default made a start
 * take 12–15 s.
 *
 * `pause()` freezes radosgw (SIGSTOP): connections are still accepted by the kernel and never
 * answered, like a storage endpoint behind a dead link, the hard case for a client (only its own
 * timeouts end a request). `resume()` thaws it; the requests queued meanwhile are then served.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { execa, type ResultPromise } from 'execa';
import type { ConfigFile } from '../../src/config/schema.js';
import { freePort } from './ports.js';
import { waitFor } from './publisher.js';

export interface TestS3 {
  /** `http://<host>:<port>`: path-style addressing (`forcePathStyle: true` in the AWS SDK). */
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Created empty at start. */
  bucket: string;
  /**
   * True when the tests run against an operator's S3 (SVC_TEST_S3_ENDPOINT, the manual check in
   * docs/operations.md): nothing was started, pause() is impossible and the bucket is not empty.
   */
  external: boolean;
  /** Makes the server unreachable (SIGSTOP of radosgw: requests hang), then back. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

export interface TestS3Options {
  bucket?: string;
  /** radosgw's listen address (a cluster test's bridge address, say); 127.0.0.1 by default. */
  host?: string;
}

const REGION = 'us-east-1';
const START_TIMEOUT_MS = 60_000;

export async function startTestS3(options: TestS3Options = {}): Promise<TestS3> {
  const external = externalS3();
  if (external) return external;
  const host = options.host ?? '127.0.0.1';
  const bucket = options.bucket ?? 'svc-test';
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-s3-'));
  for (const sub of ['mon', 'osd/0', 'run', 'log']) mkdirSync(join(dir, sub), { recursive: true });
  const conf = join(dir, 'ceph.conf');
  const [monPort, rgwPort] = [await freePort(), await freePort()];
  const fsid = randomUUID();
  writeFileSync(conf, cephConf(dir, fsid, monPort, host, rgwPort));
  const c = ['-c', conf];
  const daemons: ResultPromise[] = [];
  const daemon = (file: string, args: string[]) => {
    // SIGKILL when the test process exits without stop(): a paused (stopped) radosgw would hold a
    // SIGTERM pending forever, and there is nothing to save (the cluster lives in memory).
    const proc = execa(file, [...c, ...args, '-f'], {
      reject: false,
      buffer: false,
      stdio: 'ignore',
      killSignal: 'SIGKILL',
    });
    daemons.push(proc);
    return proc;
  };
  const stopAll = async () => {
    // The gateway first, the monitor last: each stops cleanly only while what it talks to is up.
    for (const proc of [...daemons].reverse()) {
      proc.kill('SIGCONT');
      proc.kill('SIGTERM');
      await proc;
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const accessKeyId = `TEST${randomBytes(8).toString('hex').toUpperCase()}`;
  const secretAccessKey = randomBytes(20).toString('base64url');
  try {
    await execa('monmaptool', [
      '--create',
      '--add',
      'a',
      `v2:127.0.0.1:${monPort}`,
      '--fsid',
      fsid,
      join(dir, 'monmap'),
    ]);
    await execa('ceph-mon', [...c, '--mkfs', '-i', 'a', '--monmap', join(dir, 'monmap')]);
    void daemon('ceph-mon', ['-i', 'a']);

    const osdUuid = randomUUID();
    // The `ceph` command waits for the monitor to answer (up to --connect-timeout).
    await execa('ceph', [...c, '--connect-timeout', '30', 'osd', 'create', osdUuid, '0']);
    await execa('ceph-osd', [...c, '-i', '0', '--mkfs', '--osd-uuid', osdUuid]);
    void daemon('ceph-osd', ['-i', '0']);

    const rgw = daemon('radosgw', ['-n', 'client.rgw.a']);
    const endpoint = `http://${host}:${rgwPort}`;
    await waitFor('radosgw to answer', () => fetch(endpoint).then(() => true), START_TIMEOUT_MS, 100);
    await execa('radosgw-admin', [
      ...c,
      'user',
      'create',
      '--uid=svc-test',
      '--display-name=svc test',
      `--access-key=${accessKeyId}`,
      `--secret-key=${secretAccessKey}`,
    ]);

    const s3 = new S3Client({
      endpoint,
      region: REGION,
      forcePathStyle: true,
      credentials: { accessKeyId, secretAccessKey },
    });
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    s3.destroy();

    return {
      endpoint,
      region: REGION,
      accessKeyId,
      secretAccessKey,
      bucket,
      external: false,
      pause: async () => void rgw.kill('SIGSTOP'),
      resume: async () => void rgw.kill('SIGCONT'),
      stop: stopAll,
    };
  } catch (error) {
    const logs = ['mon.a', 'osd.0', 'client.rgw.a'].map((name) => `${name}: ${tail(join(dir, 'log', `${name}.log`))}`);
    await stopAll();
    throw new Error(`the test S3 server (Ceph) did not start: ${String(error)}\n${logs.join('\n')}`);
  }
}

/** The operator's S3 named by SVC_TEST_S3_* (all five or none). */
function externalS3(): TestS3 | undefined {
  const names = ['ENDPOINT', 'REGION', 'ACCESS_KEY_ID', 'SECRET_ACCESS_KEY', 'BUCKET'] as const;
  const [endpoint, region, accessKeyId, secretAccessKey, bucket] = names.map((n) => process.env[`SVC_TEST_S3_${n}`]);
  if (!endpoint) return undefined;
  if (!region || !accessKeyId || !secretAccessKey || !bucket)
    throw new Error(`SVC_TEST_S3_ENDPOINT needs ${names.map((n) => `SVC_TEST_S3_${n}`).join(', ')}`);
  const impossible = async () => {
    throw new Error('pause() and resume() need the test server: unset SVC_TEST_S3_ENDPOINT');
  };
  return {
    endpoint,
    region,
    accessKeyId,
    secretAccessKey,
    bucket,
    external: true,
    pause: impossible,
    resume: impossible,
    stop: async () => {},
  };
}

function cephConf(dir: string, fsid: string, monPort: number, host: string, rgwPort: number): string {
  return `[global]
fsid = ${fsid}
mon host = v2:127.0.0.1:${monPort}
auth cluster required = none
auth service required = none
auth client required = none
# radosgw asks for an encrypted monitor session by default, which needs cephx.
ms mon client mode = crc
run dir = ${dir}/run
log file = ${dir}/log/$name.log
admin socket = ${dir}/run/$name.asok
osd pool default size = 1
osd pool default min size = 1
mon allow pool size one = true
osd pool default pg num = 1
osd pool default pgp num = 1
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
# The machine's disk, not this cluster's (which is in memory): no warnings about it.
mon data avail warn = 1
paxos propose interval = 0.01
paxos min wait = 0.01

[mon]
mon data = ${dir}/mon/$id
mon cluster log file = ${dir}/log/cluster.log

[osd]
osd data = ${dir}/osd/$id
osd objectstore = memstore
# The OSD's capacity; memory is used only for what is stored.
memstore device bytes = ${2 * 1024 ** 3}

[client.rgw.a]
rgw frontends = beast endpoint=${host}:${rgwPort}
`;
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-15).join('\n');
  } catch {
    return '(no log)';
  }
}

/** config.json's `storage` naming `server`'s bucket, with the appliance's defaults otherwise. */
export const bucketOf = (server: TestS3) =>
  ({
    kind: 's3',
    endpoint: server.endpoint,
    region: server.region,
    bucket: server.bucket,
    force_path_style: true,
  }) as const;

/** config.json's keys for an appliance whose object storage is `server` (short retries and slices, for tests). */
export const storageConfig = async (server: TestS3, extra: object = {}): Promise<ConfigFile> =>
  ({
    metrics_port: await freePort(),
    storage: {
      ...bucketOf(server),
      // Short enough that a test sees an outage and its end within seconds.
      slice_seconds: 2,
      retry_max_seconds: 2,
      timeout_seconds: 3,
      ...extra,
    },
  }) as ConfigFile;

/** Its key pair, as `svc init`/`svc storage set` take them. */
export const keys = (server: TestS3) => ({
  access_key_id: server.accessKeyId,
  secret_access_key: server.secretAccessKey,
});

/** The bucket's objects under `prefix`. */
export async function objects(s3: S3Client, bucket: string, prefix: string): Promise<{ key: string; bytes: number }[]> {
  const out = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return (out.Contents ?? []).map((o) => ({ key: o.Key!, bytes: o.Size ?? 0 }));
}

/** One object's bytes. */
export async function objectBytes(s3: S3Client, bucket: string, key: string): Promise<Buffer> {
  const out = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await out.Body!.transformToByteArray());
}

/** A client of `server`, to look into the bucket from outside the appliance. */
export const clientOf = (server: TestS3): S3Client =>
  new S3Client({
    endpoint: server.endpoint,
    region: server.region,
    forcePathStyle: true,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    // After an outage the first request on a kept-alive connection is reset: one more try.
    maxAttempts: 3,
  });
