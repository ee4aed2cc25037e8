import { notFound } from '../../core/errors.js';
import type { Db } from '../../platform/db/connect.js';
import { findStream, type StreamRow } from './queries.js';

/** One of the account's streams; any other id (another account's, malformed, none) is `404 not_found`. */
export async function ownStream(db: Db, accountId: string, id: string): Promise<StreamRow> {
  const row = await findStream(db, accountId, id);
  if (!row) throw notFound('stream');
  return row;
}
