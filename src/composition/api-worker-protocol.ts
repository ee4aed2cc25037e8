/**
 * The messages between the appliance's process and its API worker processes (over Node's IPC
 * channel, JSON). A worker says hello on every start; the answer is everything it needs.
 */
import type { Config } from '../config/config.js';
import type { Secrets } from '../config/secrets.js';
import type { CountedFigures } from '../domains/audience/viewers/mirror.js';
import type { AnsweredRequest } from '../platform/http/server.js';

/** What the appliance's process knows in memory that a worker's answers show. */
export interface NodeReadings {
  /** `node_ready` of streams: this node's ingest is up. */
  nodeReady: boolean;
  /** The viewer counter's figures (`viewers.now`, unwritten watch time). */
  viewers: CountedFigures;
}

export type ToWorker =
  | { type: 'start'; config: Config; secrets: Secrets; databaseUrl: string; port: number }
  | ({ type: 'readings' } & NodeReadings);

export type FromWorker =
  | { type: 'hello' }
  | { type: 'listening' }
  /** Requests answered since the last report (the appliance's metrics count them). */
  | { type: 'answered'; requests: AnsweredRequest[] }
  /** A live stream was ended through this worker: the live pipeline drops its publisher now. */
  | { type: 'ended'; streamId: string };

/** The worker's entry point, built (tests and `svc up` run from a build). */
export const WORKER_SCRIPT = ['dist', 'src', 'composition', 'api-worker.js'];
