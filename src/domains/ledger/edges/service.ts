import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import { Repeater } from '../../../core/repeater.js';
import { ApiError } from '../../../core/errors.js';
import { newId, newSecret, sha256 } from '../../../core/ids.js';
import type { Sql } from '../../../platform/db/connect.js';
import { MarkerFolder } from '../../../platform/system/marker-folder.js';
import { originCdnUrl, type Config } from '../../../config/config.js';
import { dataPaths } from '../../../config/paths.js';
import type { Secrets } from '../../../config/secrets.js';
import { cdnSecret } from '../cdn/addresses.js';
import { cdnViewerKey } from '../cdnlog/viewer-id.js';
import * as log from '../cdnlog/queries.js';
import { commitBatch, type BatchRows } from '../cdnlog/sink.js';
import { credentialEdgeId, edgeCredential, edgeKey } from './credentials.js';
import { EdgeChallenges } from './challenges.js';
import * as q from './queries.js';

/** A join token is good for one join within this long. */
export const JOIN_TOKEN_HOURS = 24;
const RECONCILE_MS = 5000;
/** An edge not heard from for this long is shown down. */
export const EDGE_DOWN_AFTER_MS = 15_000;

export interface EdgesDeps {
  sql: Sql;
  clock: Clock;
  /** The key of edge credentials (`edgeKey`). */
  key: string;
  /** What an edge needs to check viewers' addresses and log them as the origin does. */
  cdnSecret: string;
  viewerKey: string;
  /** Where edges fetch from: the origin's own CDN port (never `cdn_url`, which may name the edges). */
  originCdnUrl: string;
  live: { segment_seconds: number; window_segments: number };
  /** The edges the origin's nginx lets fetch (one file per edge id). */
  allowed: MarkerFolder;
  /** The streams whose public address is refused now (the origin's own marker folder). */
  refused: () => string[];
  /** ACME answers edges sharing a name put here for each other. */
  challenges: EdgeChallenges;
}

/** What an edge is given when it joins (docs/decisions.md, "Edge tier"): nothing it does not need. */
export interface JoinAnswer {
  edge_id: string;
  name: string;
  credential: string;
  cdn_secret: string;
  viewer_key: string;
  origin_cdn_url: string;
  segment_seconds: number;
  window_segments: number;
}

export interface AddedEdge {
  edge: q.EdgeRow;
  /** For an edge: the one-use token `svc edge join` takes. */
  join_token: string | null;
  /** For a CDN: the credential it sends in `X-Svc-Edge` on every fetch from the origin. */
  credential: string | null;
}

const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

/**
 * The edge tier as the origin sees it: edges and CDNs registered by the operator, an edge's join,
 * the credential every later call and fetch carries, its heartbeats, and its log batches, each
 * counted exactly once with the position after it.
 */
export class EdgesService {
  constructor(private readonly deps: EdgesDeps) {}

  async add(input: { name: string; kind: q.EdgeKind }): Promise<AddedEdge> {
    if (!NAME.test(input.name))
      throw new ApiError(
        'invalid_request',
        'name: 1-63 lowercase letters, digits and dashes, starting with a letter or digit.',
        {
          field: 'name',
        },
      );
    const { sql, clock } = this.deps;
    if (await q.nameTaken(sql, input.name))
      throw new ApiError('invalid_request', `name: an edge named ${input.name} exists already.`, { field: 'name' });
    const id = newId('edg_');
    const now = clock.now();
    const token = input.kind === 'edge' ? newSecret('ejt_') : null;
    await q.insertEdge(sql, {
      id,
      name: input.name,
      kind: input.kind,
      joinTokenHash: token ? sha256(token) : null,
      joinExpiresAt: token ? new Date(now.getTime() + JOIN_TOKEN_HOURS * 3_600_000) : null,
      now,
    });
    // A CDN fetches from the first minute; an edge once it has joined.
    if (input.kind === 'cdn') this.deps.allowed.set(id, true);
    const edge = (await q.findEdge(sql, id)) as q.EdgeRow;
    return { edge, join_token: token, credential: input.kind === 'cdn' ? edgeCredential(this.deps.key, id) : null };
  }

  /** An edge joins with its token: from now on its log counts, from this moment. */
  async join(token: string, address: string | null): Promise<JoinAnswer> {
    const { sql, clock } = this.deps;
    const now = clock.now();
    const id = await sql.begin(async (tx) => {
      const joined = await q.useJoinToken(tx, sha256(token), address, now);
      if (joined) await log.readPosition(tx, joined, now, now);
      return joined;
    });
    if (!id)
      throw new ApiError(
        'invalid_join_token',
        'The join token is unknown, used, expired or its edge removed: make a new one on the origin with `svc edges add --name NAME`.',
      );
    this.deps.allowed.set(id, true);
    const edge = (await q.findEdge(sql, id)) as q.EdgeRow;
    return {
      edge_id: id,
      name: edge.name,
      credential: edgeCredential(this.deps.key, id),
      cdn_secret: this.deps.cdnSecret,
      viewer_key: this.deps.viewerKey,
      origin_cdn_url: this.deps.originCdnUrl,
      segment_seconds: this.deps.live.segment_seconds,
      window_segments: this.deps.live.window_segments,
    };
  }

  /** The edge an `Authorization: Bearer <credential>` names, if it is one and not removed. */
  async authenticate(authorization: string | undefined): Promise<q.EdgeRow> {
    const credential = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
    const id = credential ? credentialEdgeId(this.deps.key, credential) : null;
    const edge = id ? await q.findEdge(this.deps.sql, id) : null;
    if (!edge || edge.removed_at || !edge.joined_at)
      throw new ApiError(
        'edge_unauthorized',
        'This edge is not known here or was removed: join it again with a new token.',
      );
    return edge;
  }

  async heartbeat(
    edge: q.EdgeRow,
    beat: { address: string | null; nginxUp: boolean },
  ): Promise<{ refused: string[]; now: string }> {
    const now = this.deps.clock.now();
    await q.recordHeartbeat(this.deps.sql, edge.id, beat, now);
    return { refused: this.deps.refused(), now: now.toISOString() };
  }

  position(edge: q.EdgeRow): Promise<log.ReaderPosition> {
    return log.readPosition(this.deps.sql, edge.id, this.deps.clock.now());
  }

  /** One batch of the edge's log, with the position after it; `log_position_moved` when `from` is not where it stands. */
  async commitLog(
    edge: q.EdgeRow,
    from: Pick<log.ReaderPosition, 'file_id' | 'byte_offset'>,
    to: log.ReaderPosition,
    batch: BatchRows,
  ): Promise<log.ReaderPosition> {
    const { sql, clock } = this.deps;
    const done = await commitBatch(sql, edge.id, from, to, batch, clock.now(), (tx) =>
      q.addServed(tx, edge.id, batch.served),
    );
    const position = await this.position(edge);
    if (!done)
      throw new ApiError(
        'log_position_moved',
        'The log position is not where this batch starts: go on from the position.',
        {
          position: { ...position, counted_until: position.counted_until?.toISOString() ?? null },
        },
      );
    return position;
  }

  /** The ACME answers edges sharing a name keep here for each other (docs/decisions.md, "Edges over https"). */
  get challenges(): EdgeChallenges {
    return this.deps.challenges;
  }

  list(): Promise<q.EdgeRow[]> {
    return q.listEdges(this.deps.sql);
  }

  /** Removes an edge or CDN by id or name: refused at once, its log no longer holds counting back. */
  async remove(idOrName: string): Promise<string> {
    const { sql, clock } = this.deps;
    const now = clock.now();
    const id = await sql.begin(async (tx) => {
      const removed = await q.markRemoved(tx, idOrName, now);
      if (removed) await log.retireSource(tx, removed, now);
      return removed;
    });
    if (!id) throw new ApiError('not_found', `No edge ${idOrName}: \`svc edges list\` shows them.`);
    this.deps.allowed.set(id, false);
    return id;
  }

  /** The allowed edges' folder names exactly the joined edges not removed (at start, then `start`). */
  async reconcile(): Promise<void> {
    this.deps.allowed.reconcile(await q.activeEdgeIds(this.deps.sql));
  }

  /**
   * Keeps the folder current every few seconds on every node: an edge added or removed by the CLI
   * or another node is let in or refused here too. A failure (the database away) waits for the next.
   */
  start(logger: Logger): () => Promise<void> {
    const repeater = new Repeater(
      () => this.reconcile().catch((err: unknown) => logger.warn({ err }, 'edges: the allowed list was not refreshed')),
      RECONCILE_MS,
    );
    repeater.start();
    return () => repeater.stop();
  }
}

/** The origin's edges service for an appliance's config and secrets (the API's, the CLI's). */
export function edgesService(config: Config, secrets: Secrets, sql: Sql, clock: Clock): EdgesService {
  const paths = dataPaths(config.dataDir);
  return new EdgesService({
    sql,
    clock,
    key: edgeKey(secrets.signing_key),
    cdnSecret: cdnSecret(secrets.signing_key),
    viewerKey: cdnViewerKey(secrets.signing_key),
    originCdnUrl: originCdnUrl(config),
    live: config.live,
    allowed: new MarkerFolder(paths.edgesAllowed),
    refused: () => new MarkerFolder(paths.publicRefused).names(),
    challenges: new EdgeChallenges(paths.edgeAcmeChallenges, paths.acmeChallenges, () => clock.now()),
  });
}

/** Up: heard from within EDGE_DOWN_AFTER_MS (a CDN ships nothing: never up or down). */
export const edgeUp = (edge: q.EdgeRow, now: Date): boolean | null =>
  edge.kind === 'cdn'
    ? null
    : edge.last_seen_at !== null && now.getTime() - edge.last_seen_at.getTime() < EDGE_DOWN_AFTER_MS;
