import { timingSafeEqual } from 'node:crypto';
import { lockAccount } from '../../ledger/accounts/model.js';
import type { BillingService } from '../../ledger/billing/service.js';
import { compareUsd } from '../../../core/money.js';
import type { Config } from '../../../config/config.js';
import { sha256 } from '../../../core/ids.js';
import { addSeconds } from '../../../core/time.js';
import type { Tx } from '../../../platform/db/connect.js';
import {
  fits,
  load,
  lockStreamById,
  nodeCapacity,
  publisherGone,
  publisherJoined,
  updateStream,
  type IngestRelay,
  type StreamRow,
} from '../../streams/model.js';
import * as transitions from '../../streams/transitions.js';
import * as q from './queries.js';
import { findNode, lockNode } from '../../ledger/nodes/queries.js';
import { NODE_DOWN_AFTER_MS, nodeUp } from '../../ledger/nodes/service.js';

/** What nginx-rtmp posts to `on_publish` (the publish URL's query string arrives as fields). */
export interface PublishRequest {
  name: string;
  key: string | undefined;
  /** Instead of `key`: the hash a relay's credential stands for (its publisher proved the key). */
  keyHash?: Buffer;
  /** `srt`: the publisher comes through the SRT relay, whose CPU capacity counts too. */
  via?: IngestRelay;
  clientId: string;
}

export type Admission =
  | {
      admitted: true;
      stream: StreamRow;
      resumed: boolean;
      /**
       * The publisher this one replaces was on a node that died: gone since the node's last
       * heartbeat, as the node-failover job would have closed its session had it run first.
       */
      heldUntil?: Date;
    }
  | { admitted: false; streamId: string | null; reason: RefusalReason; message: string };

export type RefusalReason =
  | 'unknown_stream'
  | 'wrong_key'
  | 'stream_finished'
  | 'reservation_expired'
  | 'already_publishing'
  | 'account_inactive'
  | 'no_credit'
  | 'limit_ingest_hours'
  | 'limit_live_streams'
  | 'no_capacity';

const refuse = (streamId: string | null, reason: RefusalReason, message: string): Admission => ({
  admitted: false,
  streamId,
  reason,
  message,
});

type Ctx = {
  config: Config;
  /** The node this publisher reached (null: a box that knows no nodes). */
  nodeId: string | null;
  now: Date;
  billing: BillingService;
  publisherPresent: (streamId: string) => Promise<boolean>;
};

/**
 * Decides one publisher, in the caller's transaction: the stream's and the account's rows are
 * locked, so two publishers (or a publisher and a DELETE) cannot both win.
 * `publisherPresent` asks nginx whether a publisher really holds the stream: the database may
 * remember one that nginx lost (nginx restarted), and that one must not block a reconnect.
 */
export async function admit(tx: Tx, req: PublishRequest, ctx: Ctx): Promise<Admission> {
  const verdict = await judge(tx, req, ctx);
  if (!verdict.admitted) return verdict;
  const { stream, resumed, heldUntil } = verdict;
  // A reconnect within the window; the stream stays live and no new `stream.live` is sent.
  const live = resumed ? stream : await transitions.goLive(tx, stream, ctx.now);
  const updated = await updateStream(tx, live.id, {
    publisher_client_id: req.clientId,
    publisher_left_at: null,
    ingest_relay: req.via ?? null,
    // The reservation follows the publisher: any node takes any key it has room for.
    ...(ctx.nodeId === null ? {} : { node_id: ctx.nodeId }),
  });
  // Closed at this admission instead, the dead node's session would count the seconds no node had the
  // publisher (up to the 10 s it takes to know a node down) as publishing time, and charge them.
  if (heldUntil) await publisherGone(tx, live.id, heldUntil);
  await publisherJoined(tx, live.id, ctx.now);
  return { admitted: true, stream: updated, resumed };
}

/**
 * The same rules, changing nothing: whether a publisher with this key would be admitted now
 * (WHIP refuses a browser at its POST, before it sends media toward nginx's `on_publish`).
 */
export const wouldAdmit = (tx: Tx, req: Omit<PublishRequest, 'clientId'>, ctx: Ctx): Promise<Admission> =>
  judge(tx, req, ctx);

async function judge(tx: Tx, req: Omit<PublishRequest, 'clientId'>, ctx: Ctx): Promise<Admission> {
  const stream = await lockStreamById(tx, req.name);
  if (!stream) return refuse(null, 'unknown_stream', `no stream ${req.name}`);
  const given = req.keyHash ?? (req.key ? sha256(req.key) : null);
  if (!given || !hashMatches(given, stream.key_hash))
    return refuse(stream.id, 'wrong_key', 'the key is wrong or was replaced');
  if (stream.status !== 'pending' && stream.status !== 'live')
    return refuse(stream.id, 'stream_finished', `the stream is ${stream.status}; a key works for one broadcast`);

  const account = await lockAccount(tx, stream.account_id);
  if (!account || account.state !== 'active')
    return refuse(stream.id, 'account_inactive', `the account is ${account?.state ?? 'gone'}`);
  if (
    account.billing_mode === 'prepaid' &&
    compareUsd((await ctx.billing.money(tx, account.id)).available_usd, '0') <= 0
  ) {
    return refuse(stream.id, 'no_credit', 'the account has no credit left');
  }

  // Another node holds (or held) it: a publisher there counts while that node is up.
  const elsewhere = ctx.nodeId !== null && stream.node_id !== null && stream.node_id !== ctx.nodeId;
  if (stream.status === 'live') {
    let heldUntil: Date | undefined;
    if (stream.publisher_client_id !== null) {
      const holder = elsewhere ? await findNode(tx, stream.node_id as string) : null;
      const present = elsewhere
        ? (holder !== null && nodeUp(holder, ctx.now)) || mediaStillComing(stream, ctx.now)
        : await ctx.publisherPresent(stream.id);
      if (present) return refuse(stream.id, 'already_publishing', 'a publisher is already connected to this stream');
      if (holder?.last_seen_at && holder.last_seen_at < ctx.now) heldUntil = holder.last_seen_at;
    }
    const windowEnd =
      stream.publisher_left_at && addSeconds(stream.publisher_left_at, ctx.config.live.reconnect_window_seconds);
    if (stream.publisher_client_id === null && windowEnd && windowEnd <= ctx.now) {
      return refuse(stream.id, 'stream_finished', 'the reconnect window is over; the stream is ending');
    }
    if (elsewhere && !(await roomHere(tx, req, stream, ctx)))
      return refuse(stream.id, 'no_capacity', 'this node runs as many ladders as its cores allow; retry shortly');
    return { admitted: true, stream, resumed: true, heldUntil };
  }

  if (stream.reservation_expires_at <= ctx.now)
    return refuse(stream.id, 'reservation_expired', 'the 30-minute reservation is over');
  const limits = account.trusted ? ctx.config.limits.trusted : ctx.config.limits.new;
  const hours = await ctx.billing.ingestHoursSpent(tx, account);
  if (hours)
    return refuse(
      stream.id,
      'limit_ingest_hours',
      `the account published ${hours.used.toFixed(2)} of its ${hours.limit} ingest hours this month`,
    );
  const live = await q.countLive(tx, account.id, stream.id);
  if (live >= limits.live_at_once)
    return refuse(stream.id, 'limit_live_streams', `${live} streams of this account are live, the most allowed`);
  if (!(await roomHere(tx, req, stream, ctx)))
    return refuse(stream.id, 'no_capacity', 'the machine runs as many ladders as its cores allow; retry shortly');
  return { admitted: true, stream, resumed: false };
}

/** Whether this node's ladders have room for the stream's, under a lock admissions here share. */
async function roomHere(tx: Tx, req: Omit<PublishRequest, 'clientId'>, stream: StreamRow, ctx: Ctx): Promise<boolean> {
  if (ctx.nodeId === null) {
    await q.lockCapacity(tx);
    return fits(ctx.config.capacity, await load(tx, ['live']), stream.profile, stream.max_resolution, req.via ?? null);
  }
  const node = await lockNode(tx, ctx.nodeId);
  const capacity = node ? nodeCapacity(ctx.config.capacity, node) : ctx.config.capacity;
  return fits(capacity, await load(tx, ['live'], ctx.nodeId), stream.profile, stream.max_resolution, req.via ?? null);
}

/** A node cut from the database only still publishes: the origin saw its media lately (see `failover`). */
const mediaStillComing = (stream: StreamRow, now: Date): boolean =>
  stream.media_seen_at !== null && now.getTime() - stream.media_seen_at.getTime() < NODE_DOWN_AFTER_MS;

function hashMatches(given: Buffer, hash: Buffer): boolean {
  return given.length === hash.length && timingSafeEqual(given, hash);
}
