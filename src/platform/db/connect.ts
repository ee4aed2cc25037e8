import { connect as netConnect, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import postgres from 'postgres';
import { databaseUnavailable } from './errors.js';

export type Sql = postgres.Sql;
export type Tx = postgres.TransactionSql;
/** Either the pool or a transaction: queries take this so services decide the transaction. */
export type Db = Sql | Tx;

export interface ConnectOptions {
  /** Connections for plain statements; transactions get a pool of half as many besides. */
  max?: number;
  /** A connection that is not ready within this is given up (a frozen server accepts TCP, then says nothing). */
  connectTimeoutSeconds?: number;
  /**
   * False while the database is known to be away (the monitor's verdict): a new connection then
   * fails at once with DATABASE_UNAVAILABLE instead of waiting out connect_timeout.
   */
  available?: () => boolean;
}

/** The sockets of each pool, so that a frozen server's connections can be cut (see resetConnections). */
const socketsOf = new WeakMap<Sql, Set<Socket>>();

/**
 * A pool for the appliance. Three things differ from postgres.js's defaults:
 *
 * - `sql.begin` runs on a pool of its own. postgres.js pipelines a statement onto a busy
 *   connection when every connection is busy; a BEGIN pipelined that way is not reserved for
 *   its transaction (it fails with UNSAFE_TRANSACTION, and other statements can run inside the
 *   transaction: porsager/postgres#823). A pool that carries only transactions never has a
 *   busy connection to pipeline onto: each BEGIN goes to an idle connection or waits.
 * - Every wait is bounded: connecting (connect_timeout), an idle connection is closed
 *   (idle_timeout) so none outlives a server restart unnoticed, and statements end server-side
 *   (statement_timeout). A frozen server answers nothing at all: its connections are cut by
 *   resetConnections, called by the database monitor.
 * - A connection lost is tried again within half a second, not after up to 20 s.
 */
export function connect(url: string, options: ConnectOptions = {}): Sql {
  const max = options.max ?? 10;
  const sockets = new Set<Socket>();
  const connectTimeoutMs = (options.connectTimeoutSeconds ?? 3) * 1000;
  // postgres.js API its types leave out: a socket per connection, from us (see openSocket).
  const socket = (o: { host: string[]; port: number[]; path?: string }): Promise<Duplex> =>
    openSocket(o, connectTimeoutMs, options.available, sockets);
  const settings = (poolMax: number) => ({
    max: poolMax,
    onnotice: () => {},
    // int8 (counters, seq) as numbers: every value we keep fits in 2^53.
    types: { int8: { to: 20, from: [20], parse: (v: string) => Number(v), serialize: (v: number) => String(v) } },
    connection: {
      application_name: 'svc',
      // The longest statement the appliance runs is a batch of a few hundred rows.
      statement_timeout: 30_000,
      idle_in_transaction_session_timeout: 60_000,
    },
    connect_timeout: connectTimeoutMs / 1000,
    idle_timeout: 60,
    // A connection that failed is tried again after this (seconds). postgres.js grows it to 20 s,
    // and a statement waits that long for its connection after the server is back.
    backoff: (retries: number) => Math.min(0.05 * retries, 0.5),
    socket,
  });
  const sql = postgres(url, settings(max));
  const transactions = postgres(url, settings(Math.max(1, Math.ceil(max / 2))));
  const endPlain = sql.end.bind(sql);
  Object.assign(sql, {
    begin: transactions.begin.bind(transactions),
    end: async (opts?: { timeout?: number }) => {
      await Promise.all([endPlain(opts), transactions.end(opts)]);
    },
  });
  socketsOf.set(sql, sockets);
  return sql;
}

/**
 * A connection's socket, handed to postgres.js only once connected. postgres.js writes its
 * startup message to a custom socket at once, and a socket that closes with a write still
 * buffered leaves that connection unable to write ever again (porsager/postgres 3.4.9: the
 * batching timer is cancelled but not cleared; every later start of it times out). So a
 * connection that cannot be made is handed over as a stand-in that takes the startup message,
 * then fails with the reason: postgres.js has nothing buffered when it closes.
 */
async function openSocket(
  o: { host: string[]; port: number[]; path?: string },
  timeoutMs: number,
  available: (() => boolean) | undefined,
  sockets: Set<Socket>,
): Promise<Duplex> {
  if (available && !available()) return failing(databaseUnavailable());
  const s = o.path
    ? netConnect({ path: o.path })
    : netConnect({ host: o.host[0] as string, port: o.port[0] as number });
  let failure = await new Promise<Error | null>((resolve) => {
    const timer = setTimeout(
      () => resolve(Object.assign(new Error('connecting to the database timed out'), { code: 'CONNECT_TIMEOUT' })),
      timeoutMs,
    );
    s.once('connect', () => {
      clearTimeout(timer);
      resolve(null);
    });
    s.once('error', (err) => {
      clearTimeout(timer);
      resolve(err);
    });
  });
  // Declared away while this connected: the monitor's cut has passed this socket by (it was not
  // registered yet), and a frozen server would keep it until connect_timeout.
  if (!failure && available && !available()) failure = databaseUnavailable();
  if (failure) {
    s.destroy();
    return failing(failure);
  }
  // Where postgres.js's connection errors say they were going.
  Object.assign(s, o.path ? { host: o.path } : { host: o.host[0], port: o.port[0] });
  sockets.add(s);
  s.once('close', () => sockets.delete(s));
  return s;
}

/** Takes what postgres.js writes first, then fails with `reason` and closes. */
function failing(reason: Error): Duplex {
  const stand = new Duplex({
    read() {},
    write(_chunk, _encoding, done) {
      done();
      setImmediate(() => stand.destroy(reason));
    },
  });
  return stand;
}

/**
 * Cuts every connection of the pool: statements waiting on them fail at once (and are answered
 * 503) instead of waiting for a server that stopped answering. The pool opens new connections
 * when it is next used.
 */
export function resetConnections(sql: Sql): number {
  const sockets = socketsOf.get(sql);
  if (!sockets) return 0;
  const n = sockets.size;
  // In the next turn of the event loop: a write postgres.js batched this turn goes out first
  // (see openSocket for what a close with a write buffered does).
  for (const socket of sockets) setImmediate(() => socket.destroy());
  return n;
}
