import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, resolveConfig } from '../../src/config/config.js';
import type { ConfigFile } from '../../src/config/schema.js';
import { objectStore } from '../../src/composition/storage.js';
import { bucketOrigin } from '../../src/platform/storage/s3-store.js';

const secrets = { postgres_password: 'p', signing_key: 's', data_key: 'd' };
const s3 = { kind: 's3', endpoint: 'http://127.0.0.1:9000', region: 'us-east-1', bucket: 'svc-media' };

test('absent or null storage: the data dir', () => {
  assert.is(resolveConfig('/tmp/x', {}).storage, null);
  assert.is(resolveConfig('/tmp/x', { storage: null }).storage, null);
});

test('s3 storage: defaults filled (20 GB spool, 10-s slices)', () => {
  const c = resolveConfig('/tmp/x', { storage: s3 } as ConfigFile).storage;
  assert.equal(c, {
    kind: 's3',
    endpoint: 'http://127.0.0.1:9000',
    region: 'us-east-1',
    bucket: 'svc-media',
    forcePathStyle: false,
    prefix: '',
    spoolMaxBytes: 20_480 * 1024 * 1024,
    sliceSeconds: 10,
    retryMaxSeconds: 30,
    timeoutSeconds: 30,
  });
});

test('unknown kinds, keys and bad values are refused, naming the key', () => {
  const refused = (storage: object, what: RegExp) =>
    assert.throws(
      () => resolveConfig('/tmp/x', { storage } as ConfigFile),
      (err: Error) => {
        assert.instance(err, ConfigError);
        assert.match(err.message, what);
        return true;
      },
    );
  refused({ ...s3, kind: 'gcs' }, /storage/);
  refused({ ...s3, acces_key: 'x' }, /unknown key "storage.acces_key"/);
  refused({ ...s3, bucket: 'Bad_Bucket' }, /storage.bucket/);
  refused({ ...s3, endpoint: 'ftp://x' }, /storage.endpoint/);
  refused({ ...s3, spool_max_mb: 0 }, /storage.spool_max_mb/);
});

test('s3 storage without its key pair in secrets.json: a clear error naming the command', () => {
  const config = resolveConfig('/tmp/x', { storage: s3 } as ConfigFile);
  assert.throws(() => objectStore(config, secrets), /svc storage set/);
  const store = objectStore(config, { ...secrets, storage: { access_key_id: 'a', secret_access_key: 'b' } });
  assert.is(store?.kind, 's3');
  store?.destroy();
});

test('bucketOrigin: path style names the endpoint, virtual-hosted the bucket', () => {
  assert.is(
    bucketOrigin({ endpoint: 'http://127.0.0.1:7480', region: 'x', bucket: 'b', forcePathStyle: true }),
    'http://127.0.0.1:7480',
  );
  assert.is(
    bucketOrigin({ endpoint: null, region: 'eu-west-1', bucket: 'b', forcePathStyle: false }),
    'https://b.s3.eu-west-1.amazonaws.com',
  );
});

test.run();
