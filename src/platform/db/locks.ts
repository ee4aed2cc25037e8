/**
 * Every PostgreSQL advisory-lock key the appliance takes, in one place so that no two uses can
 * share a number by accident. Keys are cluster-wide: every node of one database takes the same
 * key for the same work. (Idempotency keys lock on a hash of account and key instead: those are
 * per request, not per kind of work.)
 */
export const LOCKS = {
  /** Migrations: one node migrates, the others wait. */
  migrations: 7_301_001,
  /** Publisher admissions that compare against the machine's capacity. */
  capacity: 7_302_101,
  /** nginx's public-address refusal files: rebuilt from the database vs. written by a patch (streams/queries.ts). */
  publicRefusals: 7_303_001,
  /** Creations choosing an SRT port: two cannot take the same one (streams/queries.ts). */
  srtPorts: 7_304_001,
} as const;
