import type { Db } from '../../../platform/db/connect.js';
import type { StreamRow } from '../../streams/model.js';

/** Any account's stream: the public side names streams by id alone. */
export async function findPublicStream(db: Db, id: string): Promise<StreamRow | null> {
  const [row] = await db<StreamRow[]>`select * from streams where id = ${id}`;
  return row ?? null;
}
