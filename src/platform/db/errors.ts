/**
 * Errors that mean "the database is not answering now", as opposed to a fault in a statement:
 * the caller should answer 503 and retry, never 500. Node's socket errors, postgres.js's own
 * connection errors, and the SQLSTATEs a server that is starting, stopping, crashed or full
 * answers with.
 */
const UNAVAILABLE_CODES = new Set([
  // Node sockets
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  // postgres.js
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECTION_ENDED',
  // connect.ts: refused while the database monitor knows the server is away
  'DATABASE_UNAVAILABLE',
  // SQLSTATE class 08 (connection exception), 53300 too many connections, 57P01-57P03
  // admin/crash shutdown and "cannot connect now" (starting or recovering), 57014 a statement
  // cut by statement_timeout (a server too slow to answer in time).
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300',
  '57P01',
  '57P02',
  '57P03',
  '57014',
]);

export function isDatabaseUnavailable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && UNAVAILABLE_CODES.has(code);
}

/** The error a pool gives while the monitor knows the database is away (see connect.ts). */
export function databaseUnavailable(): Error {
  return Object.assign(new Error('the database is not answering'), { code: 'DATABASE_UNAVAILABLE' });
}
