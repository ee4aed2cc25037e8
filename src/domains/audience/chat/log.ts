import type { Db } from '../../../platform/db/connect.js';
import type { ChatMessage, OwnerChatMessage } from './schemas.js';
import * as q from './queries.js';

/** The PostgreSQL channel every node listens on for chat events. */
export const CHAT_CHANNEL = 'svc_chat';
/** NOTIFY payloads must stay under 8000 bytes; a larger event is announced without its body and read from the table. */
const MAX_NOTIFY_BYTES = 7000;

export const presentMessage = (row: q.MessageRow): ChatMessage => ({
  object: 'chat_message',
  id: row.id,
  stream_id: row.stream_id,
  text: row.text,
  author: { name: row.name, verified: row.verified, role: row.role },
  created_at: row.created_at.toISOString(),
  deleted_at: row.deleted_at && row.deleted_at.toISOString(),
  deleted_by: row.deleted_by,
});

export const presentOwnerMessage = (row: q.MessageRow): OwnerChatMessage => ({
  ...presentMessage(row),
  viewer_id: row.viewer_id,
  hidden: row.hidden,
});

/** What a notification carries: the event, or (too large) only its position. */
export interface Announcement {
  /** stream id */
  s: string;
  /** feed position; absent for reactions and pings */
  q?: number;
  k: q.EventKind | 'reactions' | 'ping';
  p?: Record<string, unknown>;
  o?: string | null;
  x?: string | null;
}

/**
 * Appends an event to a stream's feed inside the caller's transaction and announces it to every
 * node (NOTIFY is delivered at commit, so a rolled-back event is never seen).
 */
export async function appendEvent(
  tx: Db,
  event: {
    streamId: string;
    seq?: number;
    kind: q.EventKind;
    payload: Record<string, unknown>;
    only?: string | null;
    except?: string | null;
    at: Date;
  },
): Promise<number> {
  const seq = event.seq ?? (await q.takeSeq(tx, event.streamId));
  const row: q.EventRow = {
    stream_id: event.streamId,
    seq,
    kind: event.kind,
    payload: event.payload,
    only_viewer: event.only ?? null,
    except_viewer: event.except ?? null,
    created_at: event.at,
  };
  await q.insertEvent(tx, row);
  const full: Announcement = {
    s: row.stream_id,
    q: seq,
    k: row.kind,
    p: row.payload,
    o: row.only_viewer,
    x: row.except_viewer,
  };
  let text = JSON.stringify(full);
  if (Buffer.byteLength(text) > MAX_NOTIFY_BYTES) text = JSON.stringify({ s: row.stream_id, q: seq, k: row.kind });
  await q.notify(tx, CHAT_CHANNEL, text);
  return seq;
}

/**
 * A banned viewer's visible messages are shadowed: gone for everyone but their author, whose
 * own feed keeps them (a shadow ban). At most the newest 200 ids travel in the event; older ones
 * are already out of every player's list.
 */
export async function shadowAuthor(tx: Db, streamId: string, viewerId: string, by: string, at: Date): Promise<void> {
  const ids = await q.hideAuthor(tx, streamId, viewerId);
  if (ids.length === 0) return;
  await appendEvent(tx, {
    streamId,
    kind: 'delete',
    payload: { object: 'chat_deletion', message_ids: ids.slice(0, 200), deleted_by: by },
    except: viewerId,
    at,
  });
}
