import { lockAccount, type Account } from '../ledger/accounts/model.js';
import type { Clock } from '../../core/clock.js';
import type { Config } from '../../config/config.js';
import { ApiError, notFound } from '../../core/errors.js';
import { newId, newSecret, sha256 } from '../../core/ids.js';
import { addSeconds, secondsUntil } from '../../core/time.js';
import type { Sql, Tx } from '../../platform/db/connect.js';
import { NOTHING_USED, type BillingService } from '../ledger/billing/service.js';
import type { Idempotency } from '../ledger/idempotency/service.js';
import {
  DEFAULT_CHAT,
  DEFAULT_PLAYER,
  FINISHED,
  defaultPlaybackExpiry,
  insertStream,
  lockStream,
  normaliseName,
  ownStream,
  publisherGone,
  REPLAY_MAX_ATTEMPTS,
  updateStream,
  type PlayerSettings,
  type StreamChanges,
  type StreamRow,
} from './model.js';
import * as q from './queries.js';
import { channelExists, lockChannel } from './channels/queries.js';
import { placeStream } from './placement.js';
import { HEARTBEAT_MS, NODE_DOWN_AFTER_MS } from '../ledger/nodes/service.js';
import type { NodeDirectory } from '../ledger/nodes/directory.js';
import { presentCreated, presentStream, type PresentContext } from './present.js';
import type { CdnAddresses } from '../ledger/cdn/addresses.js';
import type { MarkerFolder } from '../../platform/system/marker-folder.js';
import { refusedStreamIds, refusesPublic, type RefusalViewers } from './public-playback.js';
import {
  type CdnSeriesPoint,
  type CountryShare,
  type CreateStreamBody,
  type CreatedStream,
  type ListStreamsQuery,
  type PatchStreamBody,
  type PlayerSeriesPoint,
  type Stream,
  type ViewerSeries,
  type Viewers,
} from './schemas.js';
import * as transitions from './transitions.js';

/**
 * The API's shapes other domains need, exported through this door rather than moved to model.ts:
 * they are HTTP answers, not vocabulary. Recordings' routes answer with the `Stream`; the viewers
 * domain fills `StreamViewers` with the series and figures.
 */
export { Stream } from './schemas.js';
export type { CdnSeriesPoint, CountryShare, PlayerSeriesPoint, Viewers } from './schemas.js';

export interface StreamsDeps {
  sql: Sql;
  clock: Clock;
  config: Config;
  idempotency: Idempotency;
  cdn: CdnAddresses;
  /** What SRT passphrases are derived with (srtPassphraseKey). */
  srtKey: Buffer;
  /** Where nginx learns that a stream's public address is refused (absent: nothing serves it here). */
  refusals?: MarkerFolder;
  live: LiveLink;
  /** The cluster's nodes, for the node a stream is reserved on (absent: this box alone). */
  nodes?: NodeDirectory;
  /** When the stream's live media last reached the origin on this machine; null when unknown (another machine holds it). */
  mediaSeenAt?: (streamId: string) => Date | null;
  viewers: StreamViewers;
  billing: BillingService;
  /** Chat (above streams) announces changed chat settings to every reader, in the patch's transaction. */
  chat?: { settingsChanged(tx: Tx, row: StreamRow): Promise<unknown> };
}

/** Viewer figures on stream reads (and a player's spent watch minutes); the viewers domain (above streams) provides them. */
export interface StreamViewers extends RefusalViewers {
  /** What the stream's Viewers are made of, as one json value's text, read in the stream's own statement (`streamId`: an expression; no parameters). */
  figuresSql(streamId: string): string;
  /** From what `figuresSql` read and the stream's row; `now` is this node's live count (a finished stream's reader drops it). */
  viewersFrom(stream: { id: string; ended_at: Date | null }, figures: unknown): Viewers;
  viewersNow(streamId: string): number | null;
  series(streamId: string): Promise<PlayerSeriesPoint[]>;
  cdnSeries(streamId: string): Promise<{ cdn: CdnSeriesPoint[]; countries: CountryShare[] }>;
}

/** What streams need from the live pipeline of this node (absent in API-only setups). */
export interface LiveLink {
  /** Whether ingest is up (`node_ready`). */
  nodeReady(): boolean;
  /** A live stream ended here: drop its publisher, finish its worker. */
  ended(streamId: string): Promise<void>;
}

export const NO_LIVE: LiveLink = { nodeReady: () => false, ended: async () => {} };

/** How long a pending stream waits for room elsewhere after its node went down before it ends `provision_failed`. */
export const PROVISION_GRACE_SECONDS = 60;
/** A node silent for two heartbeats: whether its live streams' media still reach the origin is noted. */
const MEDIA_WATCH_AFTER_MS = 2 * HEARTBEAT_MS;

export class StreamsService {
  /** `get`'s statement, composed once with the figures of viewers and billing (`runComposed`). */
  private readonly readSql: string;

  constructor(private readonly deps: StreamsDeps) {
    const first = q.READ_STREAM_PARAMS + 1;
    this.readSql = q.readStreamSql({
      viewers: deps.viewers.figuresSql(q.READ_STREAM_ID),
      cost: deps.billing.costSql(q.READ_STREAM_ID, `$${first}`, `$${first + 1}`),
    });
  }

  async create(
    account: Account,
    body: CreateStreamBody | undefined,
    idempotencyKey: string | undefined,
  ): Promise<{ stream: CreatedStream; replayed: boolean }> {
    const input = body ?? {};
    if (!idempotencyKey) {
      const stream = await this.deps.sql.begin((tx) => this.createIn(tx, account.id, input));
      return { stream, replayed: false };
    }
    const result = await this.deps.idempotency.run(account.id, idempotencyKey, body, async (tx) => ({
      status: 201,
      body: await this.createIn(tx, account.id, input),
    }));
    return { stream: result.body as CreatedStream, replayed: result.replayed };
  }

  async list(
    account: Account,
    query: ListStreamsQuery,
  ): Promise<{ object: 'list'; data: Stream[]; has_more: boolean }> {
    const limit = query.limit ?? 20;
    const after = query.starting_after ?? null;
    const channelId = query.channel_id ?? null;
    if (channelId !== null && !(await channelExists(this.deps.sql, account.id, channelId)))
      throw new ApiError('not_found', `No such channel: ${channelId}.`, { field: 'channel_id' });
    const rows = await q.listStreams(this.deps.sql, account.id, {
      limit: limit + 1,
      after,
      status: query.status ?? null,
      channelId,
    });
    // An empty page after a cursor is the one case that needs a second look: a cursor naming no stream is refused.
    if (after !== null && rows.length === 0 && (await q.findSeq(this.deps.sql, account.id, after)) === null) {
      throw new ApiError('invalid_request', `\`starting_after\` names no stream of this account: ${after}.`, {
        field: 'starting_after',
      });
    }
    const ctx = this.context();
    return {
      object: 'list',
      data: rows.slice(0, limit).map((r) => presentStream(r, ctx)),
      has_more: rows.length > limit,
    };
  }

  async get(account: Account, id: string): Promise<Stream> {
    const { viewers, billing } = this.deps;
    // One statement (issue 16): the stream, its viewer figures and its cost. The 404 is decided by
    // the stream's row alone; nothing of another account's stream is read without it.
    const read = await q.readStream(this.deps.sql, this.readSql, account.id, id, billing.costParams());
    if (!read) throw notFound('stream');
    const stream = presentStream(read, this.context());
    stream.cost = read.went_live_at ? billing.costFrom(read.cost_figures) : { ...NOTHING_USED };
    const figures = viewers.viewersFrom(read, read.viewer_figures);
    // A replay's viewers are counted after the end (docs/decisions.md, "Replays (issue 33)").
    if (FINISHED.includes(read.status) && !read.replay) figures.now = null;
    stream.viewers = figures;
    return stream;
  }

  /**
   * Works in any status; left-out fields stay, null clears, metadata is replaced whole, player and chat merge.
   * `latency_mode` changes only while pending: the segment length is fixed when the ladder starts,
   * and players keep the playlists they know.
   */
  async update(account: Account, id: string, body: PatchStreamBody): Promise<Stream> {
    return this.deps.sql.begin(async (tx) => {
      const row = await lockStream(tx, account.id, id);
      if (!row) throw notFound('stream');
      const changes: StreamChanges = {};
      if (body.name !== undefined) changes.name = normaliseName(body.name);
      if (body.metadata !== undefined) changes.metadata = body.metadata;
      if (body.player !== undefined) changes.player = { ...row.player, ...body.player };
      if (body.chat !== undefined) changes.chat = { ...row.chat, ...body.chat };
      if (body.replay !== undefined) changes.replay = body.replay;
      // Asked for again after three failed tries: the recordings job tries three more times.
      if (body.replay === true && row.replay_made_at === null && row.replay_attempts >= REPLAY_MAX_ATTEMPTS)
        changes.replay_attempts = 0;
      if (body.latency_mode !== undefined && body.latency_mode !== row.latency_mode) {
        if (row.status !== 'pending') {
          throw new ApiError(
            'stream_not_pending',
            `The latency mode of a ${row.status} stream cannot change; it is fixed when the stream goes live.`,
            { status: row.status },
          );
        }
        changes.latency_mode = body.latency_mode;
      }
      const updated = Object.keys(changes).length ? await updateStream(tx, id, changes) : row;
      if (body.chat !== undefined || body.player !== undefined) await this.deps.chat?.settingsChanged(tx, updated);
      if (body.player !== undefined && this.deps.refusals) {
        // Under the row's lock, so that two patches of one stream write in the order they commit;
        // and under the refusals' lock, so that a rebuild never undoes the write with an older read.
        await q.lockPublicRefusals(tx, 'patch');
        const player = {
          id,
          refused: refusesPublic(updated.player, this.deps.clock.now()),
          watch_minutes_limit: updated.player.watch_minutes_limit,
        };
        this.deps.refusals.set(id, (await refusedStreamIds([player], this.deps.viewers)).length > 0);
      }
      return presentStream(updated, this.context());
    });
  }

  /** The hosted player's minutes; the CDN log's minutes and countries. */
  async viewerSeries(account: Account, id: string): Promise<ViewerSeries> {
    const row = await ownStream(this.deps.sql, account.id, id);
    const [player, { cdn, countries }] = await Promise.all([
      this.deps.viewers.series(row.id),
      this.deps.viewers.cdnSeries(row.id),
    ]);
    return { object: 'viewer_series', stream_id: row.id, player, cdn, countries };
  }

  /** Pending → cancelled; live → ended (`deleted`); finished → unchanged. */
  async remove(account: Account, id: string): Promise<Stream> {
    const { row, endedLive } = await this.deps.sql.begin(async (tx) => {
      const row = await lockStream(tx, account.id, id);
      if (!row) throw notFound('stream');
      const now = this.deps.clock.now();
      if (row.status === 'pending') return { row: await transitions.cancel(tx, row, now), endedLive: false };
      if (row.status === 'live') return { row: await transitions.end(tx, row, 'deleted', now), endedLive: true };
      return { row, endedLive: false };
    });
    // After the commit: the publisher is dropped within seconds, and the reply does not wait for it.
    if (endedLive) void this.deps.live.ended(row.id);
    return presentStream(row, this.context());
  }

  /** A signed HLS URL; by default until the stream could no longer be live, plus an hour. */
  async playbackToken(
    account: Account,
    id: string,
    expiresIn: number | undefined,
  ): Promise<{ object: 'playback_token'; stream_id: string; playback_url: string; expires_at: string }> {
    const row = await ownStream(this.deps.sql, account.id, id);
    if (FINISHED.includes(row.status))
      throw new ApiError('stream_ended', `The stream is ${row.status}; there is nothing to play.`, {
        status: row.status,
      });
    const expiresAt =
      expiresIn === undefined ? defaultPlaybackExpiry(row) : addSeconds(this.deps.clock.now(), expiresIn);
    return {
      object: 'playback_token',
      stream_id: row.id,
      playback_url: this.deps.cdn.playback(row.id, expiresAt),
      expires_at: expiresAt.toISOString(),
    };
  }

  /** The stream as the API shows it (other domains return streams too). */
  present(row: StreamRow): Stream {
    return presentStream(row, this.context());
  }

  /** New key while pending; the old one stops at once (only its hash was stored). */
  async replaceKey(account: Account, id: string): Promise<CreatedStream> {
    return this.deps.sql.begin(async (tx) => {
      const row = await lockStream(tx, account.id, id);
      if (!row) throw notFound('stream');
      if (row.status !== 'pending' || row.reservation_expires_at <= this.deps.clock.now()) {
        throw new ApiError(
          'stream_not_pending',
          `The key of a ${row.status === 'pending' ? 'expired' : row.status} stream cannot be replaced; create a new stream.`,
          { status: row.status },
        );
      }
      const secret = newSecret();
      const updated = await updateStream(tx, id, { key_hash: sha256(secret) });
      return presentCreated(updated, secret, this.context());
    });
  }

  /** Expires pending streams whose reservation ran out; returns how many. */
  async expireReservations(batch = 500): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await this.deps.sql.begin(async (tx) => {
        const due = await q.lockExpiredReservations(tx, this.deps.clock.now(), batch);
        for (const row of due) await transitions.expire(tx, row);
        return due.length;
      });
      total += n;
      if (n < batch) return total;
    }
  }

  /**
   * The cluster's answer to a node that stopped (docs/decisions.md, "One broadcast across a node's
   * death"): its live streams' publishers are taken as gone since its last heartbeat, so they end
   * after the reconnect window unless the publisher comes back on any node, and their reservation
   * moves to a node with room, if any, so that their addresses name one; its pending streams
   * move to a node with room, or end `provision_failed` once none has had room for a minute after
   * the node went down (a removed node's at once). A draining node's pending streams move when
   * another has room and otherwise stay.
   */
  async failover(): Promise<{ released: number; moved: number; failed: number }> {
    const { sql, clock } = this.deps;
    return sql.begin(async (tx) => {
      const now = clock.now();
      const cutoff = addSeconds(now, -NODE_DOWN_AFTER_MS / 1000);
      // A node that lost only its database link still publishes: its media reaching the origin lately
      // say so. Noted from a few missed heartbeats on, well before the node counts as down, so that
      // admission on another node sees it from the first moment it could take the key.
      const orphaned: Awaited<ReturnType<typeof q.lockOrphanedLive>> = [];
      for (const row of await q.lockOrphanedLive(tx, addSeconds(now, -MEDIA_WATCH_AFTER_MS / 1000))) {
        const mediaAt = this.deps.mediaSeenAt?.(row.id) ?? null;
        if (mediaAt && mediaAt > cutoff) await updateStream(tx, row.id, { media_seen_at: mediaAt });
        else if (!row.node_last_seen_at || row.node_last_seen_at < cutoff || row.node_status === 'removed')
          orphaned.push(row);
      }
      let moved = 0;
      for (const row of orphaned) {
        const leftAt = row.node_last_seen_at ?? now;
        await updateStream(tx, row.id, { publisher_client_id: null, publisher_left_at: leftAt });
        await publisherGone(tx, row.id, leftAt);
        // Its `srt_url`, `whip_url` and `node_ready` then name a node that can take the publisher back
        // (RTMP through a stable name reaches any node anyway).
        if (await this.moveToRoom(tx, row, now)) moved++;
      }
      let failed = 0;
      for (const row of await q.lockStrandedPending(tx, cutoff)) {
        if (await this.moveToRoom(tx, row, now)) {
          moved++;
          continue;
        }
        const downSince = row.node_last_seen_at ?? row.created_at;
        const hopeless =
          row.node_status === 'removed' ||
          (row.node_status !== 'draining' && now.getTime() - downSince.getTime() >= PROVISION_GRACE_SECONDS * 1000);
        if (hopeless) {
          await transitions.provisionFailed(tx, row, now);
          failed++;
        }
      }
      return { released: orphaned.length, moved, failed };
    });
  }

  /** Moves a stream's reservation to the node with the most room, if that is another node; whether it moved. */
  private async moveToRoom(tx: Tx, row: StreamRow, now: Date): Promise<boolean> {
    const spec = { profile: row.profile, maxResolution: row.max_resolution };
    const placement = await placeStream(tx, this.deps.config.capacity, now, spec, this.self());
    if (placement === 'full' || placement.nodeId === null || placement.nodeId === row.node_id) return false;
    await updateStream(tx, row.id, { node_id: placement.nodeId });
    return true;
  }

  private async createIn(tx: Tx, accountId: string, input: CreateStreamBody): Promise<CreatedStream> {
    const { config, clock } = this.deps;
    const now = clock.now();
    // Limits are checked under the account's row lock, so concurrent creations cannot both pass.
    const account = await lockAccount(tx, accountId);
    if (!account) throw new ApiError('unauthorized', 'The account of this API key no longer exists.');
    const limits = account.trusted ? config.limits.trusted : config.limits.new;
    // Counts stop just past the limit: enough to compare, bounded however many rows exist.
    const { pending, recent, oldestRecent } = await q.creationCounts(tx, account.id, {
      since: addSeconds(now, -3600),
      pendingUpTo: limits.pending_streams + 1,
      recentUpTo: limits.creations_per_hour + 1,
    });
    const maxResolution = input.max_resolution ?? 720;

    if (maxResolution > limits.max_resolution) {
      throw new ApiError(
        'limit_resolution',
        `max_resolution ${maxResolution} is above this account's highest, ${limits.max_resolution}; trusted accounts may use 1080.`,
        { limit: limits.max_resolution },
      );
    }
    await this.deps.billing.checkCreate(tx, account);
    if (pending >= limits.pending_streams) {
      throw new ApiError(
        'limit_pending_streams',
        `${pending} streams are waiting to go live, the most allowed; start or delete one first.`,
        { limit: limits.pending_streams, current: pending },
      );
    }
    if (recent >= limits.creations_per_hour) {
      const retry = oldestRecent ? Math.max(1, secondsUntil(addSeconds(oldestRecent, 3600), now)) : 3600;
      throw new ApiError(
        'limit_creation_rate',
        `${recent} streams were created in the last hour, the most allowed; retry in ${retry} s.`,
        { limit: limits.creations_per_hour, current: recent, retry_after_seconds: retry },
      );
    }

    // Read (and held against deletion) before the slot is reserved: the settings decide nothing
    // above, and a refusal here leaves nothing to undo.
    const channel = input.channel_id ? await lockChannel(tx, account.id, input.channel_id, 'key share') : null;
    if (input.channel_id && !channel)
      throw new ApiError('not_found', `No such channel: ${input.channel_id}.`, { field: 'channel_id' });

    const profile = input.profile ?? 'abr_basic';
    const placement = await placeStream(tx, config.capacity, now, { profile, maxResolution }, this.self());
    if (placement === 'full') {
      throw new ApiError('no_capacity', 'Every ingest slot is reserved; retry shortly.', {
        retry_after_seconds: 30,
      });
    }

    const secret = newSecret();
    // The channel's settings under the body's own fields (docs/decisions.md, "Channels: the API").
    const player: PlayerSettings = { ...DEFAULT_PLAYER, ...channel?.player, ...input.player };
    const row = await insertStream(tx, {
      id: newId('str_'),
      account_id: account.id,
      name: normaliseName(input.name ?? null),
      status: 'pending',
      profile,
      latency_mode: input.latency_mode ?? 'standard',
      record: input.record ?? true,
      replay: input.replay ?? false,
      max_resolution: maxResolution,
      max_duration_seconds: limits.max_duration_seconds,
      recording_retention_days:
        input.recording_retention_days === undefined
          ? account.recording_retention_days
          : input.recording_retention_days,
      metadata: input.metadata ?? null,
      player,
      chat: { ...DEFAULT_CHAT, ...channel?.chat, ...input.chat },
      channel_id: channel?.id ?? null,
      key_hash: sha256(secret),
      created_at: now,
      reservation_expires_at: addSeconds(now, config.reservationSeconds),
      srt_port: await q.takeSrtPort(tx, config.srt),
      node_id: placement.nodeId,
    });
    if (placement.nodeId !== null) await this.deps.nodes?.know(placement.nodeId);
    return presentCreated(row, secret, this.context());
  }

  /** This process's node when its ingest is up: it takes reservations whatever its last heartbeat says. */
  private self(): string | null {
    return this.deps.live.nodeReady() ? this.deps.config.node.id : null;
  }

  private context(): PresentContext {
    const { viewers } = this.deps;
    return {
      urls: this.deps.config.publicUrls,
      srt: { key: this.deps.srtKey, latencyMs: this.deps.config.srt.latency_ms },
      now: this.deps.clock.now(),
      nodeReady: this.deps.live.nodeReady(),
      selfNodeId: this.deps.config.node.id,
      node: (id) => this.deps.nodes?.view(id) ?? null,
      cdn: this.deps.cdn,
      viewersNow: (id) => viewers.viewersNow(id),
    };
  }
}
