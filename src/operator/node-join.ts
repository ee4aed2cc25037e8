import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dataPaths } from '../config/paths.js';
import { resolveConfig, type ConfigEnv } from '../config/config.js';
import { readSecrets } from '../config/secrets.js';
import { objectStore } from '../composition/storage.js';
import type { ConfigFile } from '../config/schema.js';
import type { NodeJoinAnswer } from '../domains/ledger/nodes/service.js';
import { JsonApiError, requestJson } from '../platform/http/json-client.js';
import { originApiUrl } from './edge-join.js';
import { OperatorError } from './errors.js';
import { initialise, type InitResult } from './init.js';

export interface NodeJoinResult {
  node_id: string;
  name: string;
  data_dir: string;
  primary_api_url: string;
  origin_url: string;
  rtmp_url: string;
  /** The primary's bucket, now this node's too (`endpoint/bucket`); null: sessions go to the origin. */
  storage: string | null;
  init: InitResult;
}

/**
 * `svc node join`: trades the one-use join token for this node's identity, the cluster's keys,
 * where its origin is and the primary's object storage, then initialises the data dir as an ingest
 * node on the shared PostgreSQL.
 * A data dir that already holds an appliance is left alone: one data dir, one node.
 */
export async function joinCluster(opts: {
  primaryApiUrl: string;
  token: string;
  dataDir: string;
  /** The flags' config changes (`--host`, ports...). */
  changes: ConfigFile;
  /** `--database-url`: required when the primary manages its own PostgreSQL (it does not hand out loopback URLs). */
  databaseUrl: string | undefined;
  install: boolean;
  env: ConfigEnv;
  progress: (line: string) => void;
}): Promise<NodeJoinResult> {
  const api = originApiUrl(opts.primaryApiUrl);
  const paths = dataPaths(opts.dataDir);
  if (existsSync(paths.config))
    throw new OperatorError(
      'node_data_dir_taken',
      `${paths.config} exists: this data dir already holds an appliance or a node (give another --data-dir, or \`svc down\` and remove it first)`,
    );
  let answer: NodeJoinAnswer;
  try {
    answer = await requestJson<NodeJoinAnswer>(`${api}/node/v1/join`, {
      body: { token: opts.token },
      timeoutMs: 15_000,
    });
  } catch (err) {
    if (err instanceof JsonApiError && err.status === 401)
      throw new OperatorError(
        'node_join_refused',
        `the primary refused the join token (${err.code}: ${err.message}): tokens work once and for 24 hours; on the primary, \`svc nodes add --name NAME\` prints a new one`,
        { primary_code: err.code },
      );
    if (err instanceof JsonApiError)
      throw new OperatorError(
        'node_join_failed',
        `the primary answered the join with ${err.status} ${err.code}: ${err.message}`,
        {
          primary_code: err.code,
        },
      );
    throw new OperatorError(
      'primary_unreachable',
      `cannot reach the primary's API at ${api} (${(err as Error).message}): check the address (its api_port, default 8080) and that this machine may reach it`,
    );
  }
  const databaseUrl = opts.databaseUrl ?? answer.database_url;
  if (!databaseUrl)
    throw new OperatorError(
      'invalid_usage',
      "the primary manages its own PostgreSQL on loopback: give --database-url, the primary's PostgreSQL as this machine reaches it (the token is spent: make a new one with `svc nodes add`)",
    );
  // The cluster's keys before init, which keeps secrets it finds and adds what is missing.
  mkdirSync(opts.dataDir, { recursive: true });
  const keys = { signing_key: answer.signing_key, data_key: answer.data_key };
  writeFileSync(
    paths.secrets,
    JSON.stringify(answer.storage ? { ...keys, storage: answer.storage.keys } : keys, null, 2) + '\n',
    { mode: 0o600 },
  );
  const init = await initialise({
    dataDir: opts.dataDir,
    changes: {
      ...opts.changes,
      database_url: databaseUrl,
      node: { id: answer.node_id, name: answer.name, role: 'ingest', origin_url: answer.origin_url },
      // Its sessions go where the primary's recorder reads them (docs/decisions.md, "Ingest nodes: the primary's object storage").
      storage: answer.storage?.settings ?? null,
    },
    install: opts.install,
    env: opts.env,
    progress: opts.progress,
  });
  const storage = await checkBucket(opts.dataDir, init.config, opts.env, opts.progress);
  return {
    node_id: answer.node_id,
    name: answer.name,
    data_dir: opts.dataDir,
    primary_api_url: api,
    origin_url: answer.origin_url,
    rtmp_url: init.rtmp_url,
    storage,
    init,
  };
}

/**
 * The primary's bucket, asked from here: its address may be one only the primary reaches. The
 * join stands (its token is spent); what to fix is said now rather than found in the spool later.
 */
async function checkBucket(
  dataDir: string,
  file: ConfigFile,
  env: ConfigEnv,
  progress: (line: string) => void,
): Promise<string | null> {
  const store = objectStore(resolveConfig(dataDir, file, env), readSecrets(dataDir));
  if (!store) return null;
  try {
    await store.check();
    progress(`object storage: ${store.where} (the primary's)`);
  } catch (err) {
    progress(
      `WARNING: the primary's object storage does not answer from here (${(err as Error).message}). ` +
        'Before `svc up`, run `svc storage set` with the address this machine reaches the same bucket at',
    );
  } finally {
    store.destroy();
  }
  return store.where;
}
