import { createHash, randomBytes } from 'node:crypto';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestS3, type TestS3 } from '../helpers/s3.js';

/**
 * The object-storage tests' S3 server (test/helpers/s3.ts, Ceph's radosgw) through the AWS SDK the
 * storage code uses: the calls it makes work against it, and pause()/resume() is an outage a
 * client sees. With SVC_TEST_S3_* the same calls run against an operator's S3 (the manual check in
 * docs/operations.md): keys under a prefix of this run's own, deleted at the end.
 */
interface Ctx {
  server: TestS3;
  s3: S3Client;
}
const t = suite<Ctx>('the test S3 server');

/** A client that gives up after a second and never retries: an outage shows at once. */
function client(server: TestS3, requestTimeout = 1000): S3Client {
  return new S3Client({
    endpoint: server.endpoint,
    region: server.region,
    forcePathStyle: true,
    credentials: { accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey },
    maxAttempts: 1,
    // Without throwOnRequestTimeout the SDK only logs a warning when requestTimeout passes and waits on.
    requestHandler: { requestTimeout, connectionTimeout: requestTimeout, throwOnRequestTimeout: true },
  });
}

const prefix = `svc-test-${randomBytes(4).toString('hex')}/`;

t.before(async (ctx) => {
  ctx.server = await startTestS3({ bucket: 'svc-harness' });
  ctx.s3 = client(ctx.server, 30_000);
});

t.after(async (ctx) => {
  if (ctx.server?.external) {
    const left = await ctx.s3.send(new ListObjectsV2Command({ Bucket: ctx.server.bucket, Prefix: prefix }));
    for (const { Key } of left.Contents ?? [])
      await ctx.s3.send(new DeleteObjectCommand({ Bucket: ctx.server.bucket, Key }));
  }
  ctx.s3?.destroy();
  await ctx.server?.stop();
});

t('put, get, list and delete an object in the bucket made at start', async ({ server, s3 }) => {
  const Bucket = server.bucket;
  if (!server.external) assert.is(Bucket, 'svc-harness');
  const Key = `${prefix}thumbs/str_1.jpg`;
  await s3.send(new PutObjectCommand({ Bucket, Key, Body: 'not really a jpeg' }));
  const got = await s3.send(new GetObjectCommand({ Bucket, Key }));
  assert.is(await got.Body?.transformToString(), 'not really a jpeg');

  const listed = await s3.send(new ListObjectsV2Command({ Bucket, Prefix: `${prefix}thumbs/` }));
  assert.equal(
    listed.Contents?.map((o) => o.Key),
    [Key],
  );

  await s3.send(new DeleteObjectCommand({ Bucket, Key }));
  const after = await s3.send(new ListObjectsV2Command({ Bucket, Prefix: `${prefix}thumbs/` }));
  assert.is(after.KeyCount, 0);
  const gone = await s3.send(new HeadObjectCommand({ Bucket, Key })).catch((e: Error) => e);
  assert.instance(gone, Error);
  assert.is((gone as Error).name, 'NotFound');
});

t(
  'a 20 MB multipart upload (lib-storage) comes back byte for byte; a presigned GET serves it to plain fetch',
  async ({ server, s3 }) => {
    const Bucket = server.bucket;
    const Key = `${prefix}recordings/str_2/recording.mp4`;
    const body = randomBytes(20 * 1024 * 1024);
    const upload = new Upload({ client: s3, params: { Bucket, Key, Body: body }, partSize: 5 * 1024 * 1024 });
    const parts: number[] = [];
    upload.on('httpUploadProgress', (p) => p.part !== undefined && parts.push(p.part));
    await upload.done();
    assert.ok(new Set(parts).size >= 4, `uploaded in ${new Set(parts).size} parts`);

    const head = await s3.send(new HeadObjectCommand({ Bucket, Key }));
    assert.is(head.ContentLength, body.length);
    // A multipart object's ETag is "<md5 of the parts' md5s>-<parts>", never the body's md5.
    assert.match(head.ETag ?? '', /-4"$/);

    const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket, Key }), { expiresIn: 60 });
    const response = await fetch(url);
    assert.is(response.status, 200);
    const fetched = Buffer.from(await response.arrayBuffer());
    assert.is(sha256(fetched), sha256(body));

    const tampered = await fetch(url.replace(/X-Amz-Expires=60/, 'X-Amz-Expires=3600'));
    assert.is(tampered.status, 403);
    await tampered.body?.cancel();
  },
);

t('paused, requests fail within their timeout; resumed, they work again', async ({ server }) => {
  if (server.external) return console.log('  (skipped: an operator S3 cannot be paused)');
  const impatient = client(server);
  const Bucket = server.bucket;
  await server.pause();
  try {
    const started = performance.now();
    const failed = await impatient
      .send(new PutObjectCommand({ Bucket, Key: 'during-pause', Body: 'x' }))
      .then(() => null)
      .catch((e: Error) => e);
    const took = performance.now() - started;
    assert.instance(failed, Error, 'a put to a paused server failed');
    assert.ok(took < 5000, `failed after ${Math.round(took)} ms`);
  } finally {
    await server.resume();
  }
  const patient = client(server, 10_000);
  await patient.send(new PutObjectCommand({ Bucket, Key: 'after-pause', Body: 'y' }));
  const got = await patient.send(new GetObjectCommand({ Bucket, Key: 'after-pause' }));
  assert.is(await got.Body?.transformToString(), 'y');
  impatient.destroy();
  patient.destroy();
});

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

t.run();
