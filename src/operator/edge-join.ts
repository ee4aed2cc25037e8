import { existsSync } from 'node:fs';
import { checkEdgeTls, isEdgeDataDir, writeEdgeFiles, type EdgeFile, type EdgeTlsFile } from '../config/edge.js';
import { ConfigError, refuseBrowserBlockedPorts } from '../config/config.js';
import { dataPaths } from '../config/paths.js';
import type { JoinAnswer } from '../domains/ledger/edges/service.js';
import { JsonApiError, requestJson } from '../platform/http/json-client.js';
import { OperatorError } from './errors.js';

export interface JoinResult {
  edge_id: string;
  name: string;
  data_dir: string;
  origin_api_url: string;
  origin_cdn_url: string;
  /** Where viewers reach this edge. */
  listen: string;
  files: { config: string; secrets: string };
}

/** `http://origin:8080/` → `http://origin:8080`; anything but an http(s) URL without path, query or fragment is refused. */
export function originApiUrl(given: string): string {
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new OperatorError(
      'invalid_usage',
      `"${given}" is not a URL: give the origin's API, e.g. http://origin.example.com:8080`,
    );
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.pathname.replace(/\/$/, '') !== '' || url.search || url.hash)
    throw new OperatorError(
      'invalid_usage',
      `"${given}" is not the origin's API address: http(s)://host[:port], nothing after it (e.g. http://origin.example.com:8080)`,
    );
  return url.origin;
}

/**
 * `svc edge join`: trades the one-use join token for this edge's credential and the origin's CDN
 * keys, and writes edge.json and edge-secrets.json (0600). A data dir that already holds an edge
 * is left alone: one data dir, one edge.
 */
export async function joinOrigin(opts: {
  originApiUrl: string;
  token: string;
  dataDir: string;
  name?: string;
  listenHost: string;
  cdnPort: number;
  /** Shown to the origin's operator. */
  address: string;
  /** https for viewers (`--domain` and the certificate's flags). */
  tls?: EdgeTlsFile | undefined;
}): Promise<JoinResult> {
  const api = originApiUrl(opts.originApiUrl);
  try {
    // Before the token is spent: a join refused for its flags can be run again as it is, corrected.
    refuseBrowserBlockedPorts('svc edge join', [['--cdn-port', opts.cdnPort]]);
    if (opts.tls) checkEdgeTls(opts.tls, opts.cdnPort);
  } catch (err) {
    if (err instanceof ConfigError) throw new OperatorError('invalid_usage', err.message);
    throw err;
  }
  const paths = dataPaths(opts.dataDir);
  if (isEdgeDataDir(opts.dataDir))
    throw new OperatorError(
      'edge_already_joined',
      `${paths.edgeConfig} exists: this data dir already holds an edge (start it with \`svc edge up --data-dir ${opts.dataDir}\`; to join again, \`svc edge down\` and remove the data dir first, or give another --data-dir)`,
    );
  if (existsSync(paths.config))
    throw new OperatorError(
      'edge_data_dir_taken',
      `${opts.dataDir} holds an appliance (config.json): give the edge a data dir of its own (--data-dir)`,
    );
  let answer: JoinAnswer;
  try {
    answer = await requestJson<JoinAnswer>(`${api}/edge/v1/join`, {
      body: { token: opts.token, address: opts.address },
      timeoutMs: 15_000,
    });
  } catch (err) {
    if (err instanceof JsonApiError && err.status === 401)
      throw new OperatorError(
        'edge_join_refused',
        `the origin refused the join token (${err.code}: ${err.message}): tokens work once and for 24 hours; on the origin, \`svc edges add --name NAME\` prints a new one (\`svc edges list\` shows the edges it knows)`,
        { origin_code: err.code },
      );
    if (err instanceof JsonApiError)
      throw new OperatorError(
        'edge_join_failed',
        `the origin answered the join with ${err.status} ${err.code}: ${err.message}`,
        {
          origin_code: err.code,
        },
      );
    throw new OperatorError(
      'origin_unreachable',
      `cannot reach the origin's API at ${api} (${(err as Error).message}): check the address (the origin's api_port, default 8080) and that this machine may reach it`,
    );
  }
  const file: EdgeFile = {
    edge_id: answer.edge_id,
    name: opts.name ?? answer.name,
    origin_api_url: api,
    origin_cdn_url: answer.origin_cdn_url.replace(/\/$/, ''),
    listen_host: opts.listenHost,
    cdn_port: opts.cdnPort,
    segment_seconds: answer.segment_seconds,
    window_segments: answer.window_segments,
    ...(opts.tls ? { tls: opts.tls } : {}),
  };
  writeEdgeFiles(opts.dataDir, file, {
    credential: answer.credential,
    cdn_secret: answer.cdn_secret,
    viewer_key: answer.viewer_key,
  });
  return {
    edge_id: file.edge_id,
    name: file.name,
    data_dir: opts.dataDir,
    origin_api_url: api,
    origin_cdn_url: file.origin_cdn_url,
    listen: `${opts.listenHost}:${opts.cdnPort}`,
    files: { config: paths.edgeConfig, secrets: paths.edgeSecrets },
  };
}
