/**
 * An API worker process (docs/decisions.md, The read path): the HTTP API over its own pool and
 * key cache, without live pipeline, jobs or dispatcher, behind nginx on the API port. Started and
 * restarted by the appliance's supervisor (`api-workers.ts`), told everything over IPC; it exits
 * when the appliance's process goes (its IPC channel closes), however that goes.
 */
import { destination } from 'pino';
import { localHost } from '../config/config.js';
import { systemClock } from '../core/clock.js';
import { createLogger } from '../core/logger.js';
import { MirroredViewerCounter } from '../domains/audience/viewers/mirror.js';
import { connect } from '../platform/db/connect.js';
import { DatabaseMonitor } from '../platform/db/monitor.js';
import type { AnsweredRequest } from '../platform/http/server.js';
import type { FromWorker, ToWorker } from './api-worker-protocol.js';
import { createApi } from './appliance.js';

/** Connections of the worker's pool (its transactions get half as many besides). */
const POOL_MAX = 6;
/** Answered requests are reported this often, or sooner when this many wait. */
const REPORT_MS = 1000;
const REPORT_BATCH = 1000;

const send = (message: FromWorker): void => {
  process.send?.(message);
};

// The appliance's process is gone (killed too): nothing supervises this one any more.
process.on('disconnect', () => process.exit(0));

const start = await new Promise<Extract<ToWorker, { type: 'start' }>>((resolve) => {
  const onStart = (message: ToWorker) => {
    if (message.type !== 'start') return;
    process.off('message', onStart);
    resolve(message);
  };
  process.on('message', onStart);
  send({ type: 'hello' });
});
const { config, secrets, databaseUrl, port } = start;

// Its log goes to stderr, which the supervisor writes into the appliance's log line by line: warnings and errors only.
const logger = createLogger(
  ['debug', 'trace'].includes(config.logLevel) ? config.logLevel : 'warn',
  destination(2),
).child({ proc: `api worker :${port}` });
// As in the appliance's process (operator/foreground.ts): logged, not the end of the worker.
process.on('unhandledRejection', (reason) =>
  logger.error({ err: reason }, 'unhandled rejection (a bug; the worker goes on)'),
);
const database = new DatabaseMonitor({ url: databaseUrl, logger: logger.child({ domain: 'database' }) });
const sql = connect(databaseUrl, { max: POOL_MAX, available: () => database.available });
database.watch(sql);
database.start();

const counter = new MirroredViewerCounter(systemClock);
let nodeReady = false;
process.on('message', (message: ToWorker) => {
  if (message.type !== 'readings') return;
  nodeReady = message.nodeReady;
  counter.update(message.viewers);
});

let answered: AnsweredRequest[] = [];
const report = () => {
  if (!answered.length) return;
  send({ type: 'answered', requests: answered });
  answered = [];
};
const reporter = setInterval(report, REPORT_MS);

const api = await createApi({
  sql,
  config,
  secrets,
  clock: systemClock,
  logger,
  mirrored: {
    counter,
    link: {
      nodeReady: () => nodeReady,
      ended: async (streamId) => send({ type: 'ended', streamId }),
    },
  },
  observe: (request) => {
    answered.push(request);
    if (answered.length >= REPORT_BATCH) report();
  },
});

let stopping = false;
process.on('SIGTERM', () => {
  if (stopping) return;
  stopping = true;
  void (async () => {
    await api.app.close();
    clearInterval(reporter);
    report();
    await database.stop();
    await sql.end({ timeout: 2 });
    process.exit(0);
  })();
});

await api.app.listen({ host: localHost(config), port });
send({ type: 'listening' });
