import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ConfigError, resolveConfig } from '../../src/config/config.js';
import type { ConfigFile } from '../../src/config/schema.js';
import { checkShipping } from '../../src/composition/storage.js';
import { createLogger } from '../../src/core/logger.js';
import { joinCluster } from '../../src/operator/node-join.js';
import { recordClusterStorage, storageLocation } from '../../src/domains/ledger/nodes/cluster-storage.js';
import { createTestApi, type TestApi } from '../helpers/api.js';
import { makeDataDir } from '../helpers/cli.js';
import { freePort } from '../helpers/ports.js';

/**
 * `svc node join` carries the primary's object storage (docs/decisions.md, "Ingest nodes: the
 * primary's object storage"): the hidden join route's answer, and the join (the command's code,
 * in this process; test/cluster/node-storage.test.ts runs the CLI) writing it into the node's
 * config.json and secrets.json, against a primary's API on loopback and the test PostgreSQL; and
 * the start check of an ingest node whose storage is not the primary's.
 */

const keys = { access_key_id: 'AKIAJOINTEST', secret_access_key: 'join-test-secret' };

/** Nothing listens there: the node's check of the bucket fails at once, and the join stands. */
const primaryStorage = async (): Promise<NonNullable<ConfigFile['storage']>> => ({
  kind: 's3',
  endpoint: `http://127.0.0.1:${await freePort()}`,
  region: 'us-east-1',
  bucket: 'cluster-recordings',
  force_path_style: true,
  prefix: 'svc/',
  slice_seconds: 3,
});

async function listening(env: TestApi): Promise<string> {
  await env.api.app.listen({ host: '127.0.0.1', port: 0 });
  const address = env.api.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

/** `svc node join` against the listening primary, as the command runs it (in this process). */
async function joinNode(env: TestApi, name: string) {
  const primary = await listening(env);
  const { join_token: token } = await env.api.nodes.add(name);
  const dir = makeDataDir();
  const progress: string[] = [];
  try {
    const result = await joinCluster({
      primaryApiUrl: primary,
      token,
      dataDir: dir.dir,
      changes: { host: `${name}.test` },
      databaseUrl: env.db.url,
      install: false,
      env: {},
      progress: (line) => progress.push(line),
    });
    const read = (file: string) => JSON.parse(readFileSync(join(dir.dir, file), 'utf8'));
    return { result, progress: progress.join('\n'), config: read('config.json'), secrets: read('secrets.json') };
  } finally {
    dir.remove();
  }
}

const t = suite('nodes: the join carries the object storage');

t('the join answer has the primary storage settings and key pair; the join writes them', async () => {
  const storage = await primaryStorage();
  const env = await createTestApi({ storage }, { storageKeys: keys });
  try {
    const { join_token: token } = await env.api.nodes.add('answer');
    const answer = await env.call('POST', '/node/v1/join', { body: { token } });
    assert.is(answer.status, 200, answer.text);
    assert.equal(answer.body.storage.keys, keys);
    // Its config.json's settings: the ones it set, not the defaults.
    assert.equal(answer.body.storage.settings, storage);

    const joined = await joinNode(env, 'ingest-s3');
    assert.equal(joined.config.storage, answer.body.storage.settings);
    assert.equal(joined.secrets.storage, keys);
    assert.is(joined.config.node.role, 'ingest');
    // The bucket is asked from the node: its address may be one only the primary reaches.
    assert.match(joined.result.storage ?? '', `bucket "${storage.bucket}"`);
    assert.match(joined.progress, "WARNING: the primary's object storage does not answer from here");
    assert.match(joined.progress, 'svc storage set');
  } finally {
    await env.close();
  }
});

t('a primary without object storage: the answer has none, and neither has the node', async () => {
  const env = await createTestApi();
  try {
    const { join_token: token } = await env.api.nodes.add('answer');
    const answer = await env.call('POST', '/node/v1/join', { body: { token } });
    assert.is(answer.status, 200, answer.text);
    assert.is(answer.body.storage, null);

    const joined = await joinNode(env, 'ingest-local');
    assert.is(joined.config.storage ?? null, null);
    assert.is(joined.secrets.storage, undefined);
    assert.is(joined.result.storage, null);
  } finally {
    await env.close();
  }
});

t('an ingest node starts only when its sessions go where the primary records from', async () => {
  const env = await createTestApi();
  const logger = createLogger('silent');
  const storage = await primaryStorage();
  const configWith = (file: ConfigFile['storage']) => resolveConfig('/nonexistent', { storage: file });
  const primary = (file: ConfigFile['storage']) =>
    recordClusterStorage(env.db.sql, storageLocation(configWith(file).storage), 'nod_primary', env.clock.now());
  const refusal = async (file: ConfigFile['storage']) => {
    try {
      await checkShipping(env.db.sql, configWith(file), logger);
      return null;
    } catch (err) {
      assert.instance(err, ConfigError);
      return (err as Error).message;
    }
  };
  try {
    // No primary said yet (an older one): not checked.
    assert.is(await refusal(storage), null);

    await primary(storage);
    assert.is(await refusal(storage), null);
    // Another endpoint for the same bucket: the same objects as this machine reaches them.
    assert.is(await refusal({ ...storage, endpoint: 'http://s3.internal:7480' }), null);
    // Without a bucket, sessions go to the origin, which the primary reads besides its bucket.
    assert.is(await refusal(null), null);
    const otherPrefix = await refusal({ ...storage, prefix: 'other/' });
    assert.match(otherPrefix ?? '', 'reads bucket "cluster-recordings" under "svc/"');
    assert.match(otherPrefix ?? '', "`svc storage set` here with the primary's bucket");
    assert.ok(await refusal({ ...storage, bucket: 'elsewhere' }));

    // The primary went back to its data dir: a node still shipping to the bucket would be lost.
    await primary(null);
    assert.is(await refusal(null), null);
    assert.match((await refusal(storage)) ?? '', 'the primary has no object storage');
    assert.match((await refusal(storage)) ?? '', '`svc storage set --local` here');
  } finally {
    await env.close();
  }
});

t.run();
