/**
 * What the composition root builds: every service from config, secrets, clock and the database;
 * the live pipeline from the supervisor and nginx; the scheduled jobs from the services. Nothing
 * here starts anything (see appliance.ts for the order things start and stop in).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { localUrlHost, originCdnUrl, type Config } from '../config/config.js';
import { deriveKey, type Secrets } from '../config/secrets.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { AttendanceRecorder } from '../domains/audience/attendance/recorder.js';
import { AttendanceService } from '../domains/audience/attendance/service.js';
import { BansService } from '../domains/audience/bans/service.js';
import { ChatHub } from '../domains/audience/chat/hub.js';
import { DashboardAccess } from '../domains/surfaces/dashboard/access.js';
import { DashboardService } from '../domains/surfaces/dashboard/service.js';
import { chatNetworkKey } from '../domains/audience/chat/network.js';
import { ChatService, chatBanHooks } from '../domains/audience/chat/service.js';
import type { BillingService } from '../domains/ledger/billing/service.js';
import { ViewerKeys } from '../domains/audience/identity/keys.js';
import { IdentityService } from '../domains/audience/identity/service.js';
import { SessionTokens, sessionSecret } from '../domains/audience/identity/session-token.js';
import { ModeratorLinkTokens, moderatorLinkSecret } from '../domains/audience/moderators/link-token.js';
import { ModeratorsService } from '../domains/audience/moderators/service.js';
import { CdnAddresses, cdnSecret } from '../domains/ledger/cdn/addresses.js';
import { MarkerFolder } from '../platform/system/marker-folder.js';
import { MeteringService } from '../domains/back-office/metering/service.js';
import { CdnLogReader } from '../domains/ledger/cdnlog/reader.js';
import { DbLogSink } from '../domains/ledger/cdnlog/sink.js';
import { edgesService, type EdgesService } from '../domains/ledger/edges/service.js';
import { nodeKey } from '../domains/ledger/nodes/credentials.js';
import { IngestAccess } from '../domains/ledger/nodes/ingest-access.js';
import { NodeDirectory } from '../domains/ledger/nodes/directory.js';
import { NodesService } from '../domains/ledger/nodes/service.js';
import { EmbedService } from '../domains/surfaces/embed/service.js';
import { Idempotency } from '../domains/ledger/idempotency/service.js';
import { IngestHistory } from '../domains/engine/live/history.js';
import { hookToken, hooksPath } from '../domains/engine/live/hooks.routes.js';
import { LiveService, type IngestControl } from '../domains/engine/live/service.js';
import { RecordingsService, type RecordingsDeps } from '../domains/engine/recordings/service.js';
import { ThumbnailsService } from '../domains/engine/recordings/thumbnails.js';
import { joinStorage, objectStore } from './storage.js';
import { PublicRefusalKeeper } from '../domains/streams/public-playback.js';
import { NO_LIVE, StreamsService, type LiveLink } from '../domains/streams/service.js';
import { ChannelsService } from '../domains/streams/channels/service.js';
import { Thumbnailer } from '../domains/engine/thumbnails/capture.js';
import { recordCapture } from '../domains/engine/thumbnails/queries.js';
import { ViewerCounter } from '../domains/audience/viewers/counter.js';
import { NodeFigures } from '../domains/audience/viewers/nodes.js';
import { ViewersService } from '../domains/audience/viewers/service.js';
import { WebhooksService } from '../domains/back-office/webhooks/service.js';
import { systemLookup, type TargetPolicy } from '../domains/back-office/webhooks/ssrf.js';
import { OutputsService } from '../domains/engine/outputs/service.js';
import type { HostPolicy } from '../platform/http/ssrf.js';
import { OutputPushers } from '../domains/engine/outputs/pushers.js';
import { dataPaths } from '../config/paths.js';
import type { Sql } from '../platform/db/connect.js';
import type { Job } from '../platform/jobs/scheduler.js';
import { readSegmentFile } from '../platform/media/segment-reader.js';
import { srtPassphraseKey } from '../platform/media/srt.js';
import type { Supervisor } from '../platform/process/supervisor.js';
import { FsStore } from '../platform/storage/fs-store.js';
import type { ObjectStore } from '../platform/storage/store.js';
import { MEDIA_FOLDER_MODE } from '../platform/system/data-dir.js';
import { buildBilling } from './billing.js';

export interface Foundation {
  sql: Sql;
  config: Config;
  secrets: Secrets;
  clock: Clock;
  logger: Logger;
}

export interface Services {
  cdn: CdnAddresses;
  billing: BillingService;
  metering: MeteringService;
  idempotency: Idempotency;
  counter: ViewerCounter;
  viewers: ViewersService;
  /** Token viewers' attendance; the embed domain reports to `attendance.recorder`. */
  attendance: AttendanceService;
  streams: StreamsService;
  channels: ChannelsService;
  bans: BansService;
  moderators: ModeratorsService;
  identity: IdentityService;
  embed: EmbedService;
  chat: ChatService;
  recordings: RecordingsService;
  thumbnails: ThumbnailsService;
  webhooks: WebhooksService;
  /** Restreaming outputs (the API's side; the pusher reads their rows). */
  outputs: OutputsService;
  /** Every live stream's ingest series (the live tick writes it). */
  ingestHistory: IngestHistory;
  dashboard: DashboardService;
  dashboardAccess: DashboardAccess;
  /** This node's refusal files for nginx, rebuilt from the database (the appliance process starts it). */
  publicRefusals: PublicRefusalKeeper;
  /** Edges and CDNs in front of this origin: joins, heartbeats, their logs. */
  edges: EdgesService;
  /** The cluster's ingest nodes: joins, drain, removal. */
  nodes: NodesService;
  /** The nodes as stream reads show them (`node_ready`, ingest addresses), read every two seconds. */
  nodeDirectory: NodeDirectory;
}

/** A stream's origin folder changes with every segment any node writes to it (files are renamed in). */
function originFolderTime(config: Config, streamId: string): Date | null {
  try {
    return statSync(join(dataPaths(config.dataDir).origin, streamId)).mtime;
  } catch {
    return null;
  }
}

/** Where webhooks may go: the operator's setting, and the system's DNS. */
export const webhookPolicy = (config: Config): TargetPolicy => ({
  allowPrivate: config.allowPrivateWebhooks,
  lookup: systemLookup,
});

/** Where restreaming outputs may push: the operator's `allow_private_outputs`, and the system's DNS. */
export const outputPolicy = (config: Config): HostPolicy => ({
  allowPrivate: config.allowPrivateOutputs,
  lookup: systemLookup,
});

/** Where nginx reaches the ingest hooks: the appliance's own API process on this machine, at `port`. */
export function hooksUrl(config: Config, secrets: Secrets, port: number): string {
  return `http://${localUrlHost(config)}:${port}${hooksPath(hookToken(secrets.signing_key))}`;
}

/**
 * What an API worker process has instead of a live pipeline and a counter of its own: the
 * appliance process's readings, mirrored (see api-workers.ts).
 */
export interface MirroredNode {
  link: LiveLink;
  counter: ViewerCounter;
}

/**
 * Every domain service; `live` links streams to this node's ingest (absent: an API-only node),
 * or `mirrored` to the appliance process's (an API worker process).
 */
export function buildServices(
  f: Foundation,
  live?: LiveService,
  mirrored?: MirroredNode,
  storage?: RecordingsDeps['storage'],
): Services {
  const { sql, config, clock, logger } = f;
  const cdn = new CdnAddresses(config.publicUrls.cdn_url, cdnSecret(f.secrets.signing_key), config.cdn.token_form);
  const idempotency = new Idempotency(sql, clock, f.secrets.data_key);
  const link: LiveLink = live
    ? { nodeReady: () => live.nodeReady, ended: (id) => live.ended(id) }
    : (mirrored?.link ?? NO_LIVE);
  const counter =
    mirrored?.counter ??
    new ViewerCounter({
      clock,
      intervalSeconds: config.viewers.beat_interval_seconds,
      sampleSeconds: config.viewers.sample_seconds,
      perAddress: {
        burst: config.viewers.address_new_viewers_burst,
        perMinute: config.viewers.address_new_viewers_per_minute,
        max: config.viewers.address_max_viewers,
      },
    });
  // A worker mirrors its appliance's figures, the other nodes' already added.
  const viewers = new ViewersService({
    sql,
    logger,
    counter,
    others: mirrored ? undefined : new NodeFigures(sql, clock),
  });
  const attendance = new AttendanceService({
    sql,
    clock,
    logger,
    recorder: new AttendanceRecorder({ intervalSeconds: config.viewers.attendance_interval_seconds }),
    flushSeconds: config.viewers.attendance_flush_seconds,
  });
  const billing = buildBilling(f);
  // Chat is built below: the hook reaches it once a patch runs.
  const refusals = new MarkerFolder(dataPaths(config.dataDir).publicRefused);
  const nodeDirectory = new NodeDirectory(sql, clock, logger.child({ domain: 'nodes' }));
  const streams = new StreamsService({
    sql,
    clock,
    config,
    idempotency,
    cdn,
    srtKey: srtPassphraseKey(f.secrets.signing_key),
    refusals,
    live: link,
    nodes: nodeDirectory,
    mediaSeenAt: (id) => originFolderTime(config, id),
    viewers,
    billing,
    chat: { settingsChanged: (tx, row) => chat.settingsChanged(tx, row) },
  });
  const bans = new BansService(sql, clock, chatBanHooks());
  const moderators = new ModeratorsService({
    sql,
    clock,
    links: new ModeratorLinkTokens(moderatorLinkSecret(f.secrets.signing_key)),
    playerUrl: config.publicUrls.player_url,
  });
  const identity = new IdentityService({
    sql,
    clock,
    cdn,
    keys: new ViewerKeys(sql, clock),
    tokens: new SessionTokens(sessionSecret(f.secrets.signing_key)),
    bans,
    moderators,
    personalPlaybackSeconds: config.viewers.personal_playback_seconds,
    attendanceIntervalSeconds: config.viewers.attendance_interval_seconds,
  });
  const embed = new EmbedService({
    sql,
    clock,
    cdn,
    viewers: {
      beacon: (id) => counter.beacon(id),
      beat: (id, beat, network) => counter.beat(id, beat, network),
      limitMinutes: (id) => viewers.limitMinutes(id),
    },
    identity,
    attendance: attendance.recorder,
    addressKey: deriveKey(f.secrets.signing_key, 'svc rate limit addresses v1'),
  });
  const chat = new ChatService({
    sql,
    clock,
    hub: new ChatHub({
      sql,
      clock,
      logger: logger.child({ domain: 'chat' }),
      tickMs: config.chat.fanout_ms,
      maxReaders: config.chat.max_readers,
    }),
    bans,
    limits: config.chat,
    streams: embed,
    sessions: { claims: (streamId, token) => identity.beatSession(streamId, token) },
    moderators,
    beaconRate: (id) => counter.beacon(id).rate,
    networkKey: chatNetworkKey(f.secrets.signing_key),
    ownOrigins: [new URL(config.publicUrls.player_url).origin, new URL(config.publicUrls.base_url).origin],
  });
  // Without the appliance's spool (an API worker): the bucket, for deletions queued and presigned sources.
  const bucket = storage ?? (config.storage ? { store: objectStore(config, f.secrets)!, spool: null } : undefined);
  const recordings = new RecordingsService({
    sql,
    config,
    clock,
    logger: logger.child({ domain: 'recordings' }),
    cdn,
    storage: bucket,
    shipped: localMedia(config),
  });
  const thumbnails = new ThumbnailsService({
    sql,
    config,
    clock,
    logger: logger.child({ domain: 'thumbnails' }),
    cdn,
    store: bucket?.store,
  });
  const webhooks = new WebhooksService({ sql, clock, policy: webhookPolicy(config) });
  const outputs = new OutputsService({ sql, clock, idempotency, policy: outputPolicy(config) });
  const channels = new ChannelsService({ sql, clock, idempotency, urls: config.publicUrls });
  const metering = new MeteringService({
    sql,
    clock,
    config,
    logger,
    live: link,
    publishersCheckedUntil: () => live?.publishersCheckedUntil() ?? null,
  });
  const ingestHistory = new IngestHistory({ sql, clock });
  const dashboard = new DashboardService({
    sql,
    clock,
    logger: logger.child({ domain: 'dashboard' }),
    cdn,
    playerUrl: config.publicUrls.player_url,
    viewers,
    history: ingestHistory,
    billing,
  });
  const dashboardAccess = new DashboardAccess({ sql, clock, signingKey: f.secrets.signing_key });
  const publicRefusals = new PublicRefusalKeeper({ sql, clock, logger, refusals, viewers });
  const edges = edgesService(config, f.secrets, sql, clock);
  const nodes = new NodesService({
    sql,
    clock,
    key: nodeKey(f.secrets.signing_key),
    // The origin's nginx lets joined nodes write live media (`/_ingest/`): one marker file each.
    allow: (ids) => new IngestAccess(config.dataDir).allow(ids),
    join: {
      signingKey: f.secrets.signing_key,
      dataKey: f.secrets.data_key,
      databaseUrl: config.databaseUrl,
      originUrl: originCdnUrl(config),
      storage: joinStorage(config, f.secrets),
    },
  });
  return {
    cdn,
    billing,
    metering,
    idempotency,
    counter,
    viewers,
    attendance,
    streams,
    channels,
    bans,
    moderators,
    identity,
    embed,
    chat,
    recordings,
    thumbnails,
    webhooks,
    outputs,
    ingestHistory,
    dashboard,
    dashboardAccess,
    publicRefusals,
    edges,
    nodes,
    nodeDirectory,
  };
}

/** This machine's media folder as a store (the one-box origin); folders made group-writable for nginx's `/_ingest/`. */
export const localMedia = (config: Config): FsStore =>
  new FsStore(dataPaths(config.dataDir).media, { folderMode: MEDIA_FOLDER_MODE });

/**
 * This node's live pipeline: a worker per live stream under the supervisor, fed by nginx. `media`
 * is where its live media goes: localMedia on the node that holds the origin, an OriginStore on
 * an ingest node.
 */
export function buildLive(
  f: Foundation,
  parts: { supervisor: Supervisor; ingest: IngestControl; media: ObjectStore },
): LiveService {
  const { sql, config, clock } = f;
  const logger = f.logger.child({ domain: 'live' });
  const thumbnails = new Thumbnailer({
    ffmpegPath: config.live.ffmpeg_path,
    store: parts.media,
    scratchDir: dataPaths(config.dataDir).live,
    everySeconds: { abr_basic: config.live.thumbnail_seconds, passthrough: config.live.passthrough_thumbnail_seconds },
    clock,
    logger,
    onCaptured: (streamId, at) => recordCapture(sql, streamId, at),
  });
  return new LiveService({
    sql,
    config,
    clock,
    logger,
    supervisor: parts.supervisor,
    ingest: parts.ingest,
    probe: readSegmentFile,
    thumbnails,
    media: parts.media,
    billing: buildBilling(f),
    outputs: new OutputPushers({
      sql,
      clock,
      logger: f.logger.child({ domain: 'outputs' }),
      supervisor: parts.supervisor,
      ffmpegPath: config.live.ffmpeg_path,
      policy: outputPolicy(config),
      caFile: config.outputCaFile,
      liveUrl: (id) => `rtmp://${localUrlHost(config)}:${config.ports.rtmp}/live/${id}`,
    }),
  });
}

/** The reader of this node's CDN log; `reopen` has nginx reopen its logs after a rotation. */
export function buildCdnLogReader(f: Foundation, reopen: () => boolean): CdnLogReader {
  const paths = dataPaths(f.config.dataDir);
  return new CdnLogReader({
    sink: new DbLogSink(f.sql, f.clock),
    clock: f.clock,
    logger: f.logger,
    file: paths.cdnLog,
    rotatedFile: paths.cdnLogRotated,
    maxBytes: f.config.logs.max_bytes,
    reopen,
  });
}

/**
 * The scheduled jobs: each runs on one node at a time (a lease in `job_runs`), within its
 * timeout. The recordings job remuxes recordings one after another, so it gets the longest.
 * The CDN log reader runs where nginx writes the log (absent: a node without one).
 */
export function buildJobs(config: Config, s: Services, cdnLog?: CdnLogReader): Job[] {
  // These settings are 1-59 seconds.
  const every = (seconds: number) => `*/${seconds} * * * * *`;
  return [
    {
      name: 'reservation-expiry',
      schedule: every(config.expiryCheckSeconds),
      periodSeconds: config.expiryCheckSeconds,
      timeoutSeconds: 60,
      run: () => s.streams.expireReservations(),
    },
    // A node that stopped: its publishers' reconnect windows start, its reservations move (once, cluster-wide).
    {
      name: 'node-failover',
      schedule: every(2),
      periodSeconds: 2,
      timeoutSeconds: 60,
      run: () => s.streams.failover(),
    },
    {
      name: 'idempotency-purge',
      schedule: '17 * * * *',
      periodSeconds: 3600,
      timeoutSeconds: 300,
      run: () => s.idempotency.purge(),
    },
    {
      name: 'webhook-deliveries-purge',
      schedule: '23 * * * *',
      periodSeconds: 3600,
      timeoutSeconds: 300,
      run: () => s.webhooks.purgeDeliveries(),
    },
    {
      name: 'ingest-samples-purge',
      schedule: '29 * * * *',
      periodSeconds: 3600,
      timeoutSeconds: 300,
      run: () => s.ingestHistory.purge(),
    },
    {
      name: 'viewer-sessions-purge',
      schedule: '35 * * * *',
      periodSeconds: 3600,
      timeoutSeconds: 300,
      run: (signal: AbortSignal) => s.identity.purgeSessions(signal),
    },
    {
      name: 'recordings',
      schedule: every(config.recordings.check_seconds),
      periodSeconds: config.recordings.check_seconds,
      timeoutSeconds: 900,
      run: () => s.recordings.processDue(),
    },
    // A run killed with the appliance holds the lease until its timeout: a short one lets the next
    // appliance end prepaid streams out of credit within about a minute after a crash.
    {
      name: 'metering',
      schedule: every(config.billing.meter_seconds),
      periodSeconds: config.billing.meter_seconds,
      timeoutSeconds: 3 * config.billing.meter_seconds,
      run: () => s.metering.run(),
    },
    {
      name: 'recording-retention',
      schedule: '41 * * * * *',
      periodSeconds: 60,
      timeoutSeconds: 300,
      run: () => s.recordings.expire(),
    },
    ...(config.storage
      ? [
          {
            name: 'storage-deletions',
            schedule: every(config.recordings.check_seconds),
            periodSeconds: config.recordings.check_seconds,
            timeoutSeconds: 600,
            run: () => s.recordings.processDeletions(),
          },
        ]
      : []),
    ...(cdnLog
      ? [
          {
            name: 'cdn-log',
            schedule: every(config.cdn.log_read_seconds),
            periodSeconds: config.cdn.log_read_seconds,
            timeoutSeconds: 600,
            run: (signal: AbortSignal) => cdnLog.run(signal),
          },
        ]
      : []),
  ];
}
