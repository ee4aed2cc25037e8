import { homedir } from 'node:os';
import { join } from 'node:path';

/** Root keeps state where system services do; other users under their XDG data home. */
export function defaultDataDir(env: { XDG_DATA_HOME?: string | undefined }, uid = process.getuid?.() ?? 0): string {
  if (uid === 0) return '/var/lib/svc';
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'svc');
}

/** An edge's own default (`svc edge ...`): never the origin's, so one machine can be both. */
export function defaultEdgeDataDir(env: { XDG_DATA_HOME?: string | undefined }, uid = process.getuid?.() ?? 0): string {
  if (uid === 0) return '/var/lib/svc-edge';
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'svc-edge');
}

export const dataPaths = (dataDir: string) => ({
  config: join(dataDir, 'config.json'),
  secrets: join(dataDir, 'secrets.json'),
  postgres: join(dataDir, 'postgres'),
  logs: join(dataDir, 'logs'),
  media: join(dataDir, 'media'),
  run: join(dataDir, 'run'),
  pidFile: join(dataDir, 'run', 'svc.pid'),
  applianceLog: join(dataDir, 'logs', 'svc.log'),
  postgresLog: join(dataDir, 'logs', 'postgres.log'),
  nginx: join(dataDir, 'nginx'),
  nginxConf: join(dataDir, 'nginx', 'nginx.conf'),
  nginxPid: join(dataDir, 'run', 'nginx.pid'),
  nginxControl: join(dataDir, 'run', 'nginx-control.sock'),
  cdnLog: join(dataDir, 'logs', 'cdn-access.log'),
  /** The CDN log while the reader finishes it after a rotation; deleted once read. */
  cdnLogRotated: join(dataDir, 'logs', 'cdn-access.log.rotated'),
  /** nginx's njs scripts, copied from appliance/nginx/ at start (see NJS_SCRIPTS). */
  ...njsScriptPaths(dataDir),
  /** What publishers send, as nginx-rtmp records it (FLV per publish session). */
  ingest: join(dataDir, 'media', 'ingest'),
  /** The ladder's working output, per stream. */
  live: join(dataDir, 'media', 'live'),
  /** The CDN origin: what viewers fetch, per stream. */
  origin: join(dataDir, 'media', 'origin'),
  recordings: join(dataDir, 'media', 'recordings'),
  /** Uploads to object storage waiting their turn (docs/operations.md, "Object storage"). */
  spool: join(dataDir, 'spool'),
  /** What the running appliance last knew of its object storage and spool, for `svc status`. */
  storageState: join(dataDir, 'run', 'storage-state.json'),
  /** The latest still of each stream (`<id>.jpg`), served publicly by the CDN. */
  thumbs: join(dataDir, 'media', 'thumbs'),
  /** One empty file per stream whose public address nginx refuses (player closed or members-only). */
  publicRefused: join(dataDir, 'media', 'public-refused'),
  /** One empty file per edge or CDN the origin's nginx lets fetch (docs/decisions.md, "Edge tier"). */
  edgesAllowed: join(dataDir, 'media', 'edges'),
  /** One empty file per ingest node the origin's nginx lets write media (docs/decisions.md, "Ingest nodes: media to the origin"). */
  nodesAllowed: join(dataDir, 'media', 'nodes'),
  /** Recorded publish sessions shipped in pieces by ingest nodes (`<stream id>/<session file>/<nnnnnn>`). */
  sessions: join(dataDir, 'media', 'sessions'),
  /** The certificate nginx serves (key and chain in one file, replaced atomically) and ACME's state. */
  tls: join(dataDir, 'tls'),
  tlsCertificate: join(dataDir, 'tls', 'current.pem'),
  /** ACME http-01 tokens, served on the http port at /.well-known/acme-challenge/. */
  acmeChallenges: join(dataDir, 'tls', 'acme-challenge'),
  /** ACME tokens that edges sharing a name put here for each other (docs/decisions.md, "Edges over https"). */
  edgeAcmeChallenges: join(dataDir, 'tls', 'edge-acme-challenge'),
  /** nginx's micro-cache of the player site and the public embed read (on an edge: its cache of the origin). */
  nginxCache: join(dataDir, 'nginx', 'cache'),
  /** An edge's config (`svc edge join` writes it); an edge's data dir has the nginx files above too. */
  edgeConfig: join(dataDir, 'edge.json'),
  /** An edge's credential and the origin's CDN keys (mode 0600). */
  edgeSecrets: join(dataDir, 'edge-secrets.json'),
  edgeLog: join(dataDir, 'logs', 'edge.log'),
  edgePidFile: join(dataDir, 'run', 'edge.pid'),
  /** What the running edge last knew (origin reachable, log position, served counts), for `svc edge status`. */
  edgeState: join(dataDir, 'run', 'edge-state.json'),
});

/**
 * nginx's njs scripts: the file shipped in appliance/nginx/ and the path in a data dir's nginx/
 * folder it is copied to before nginx starts (the master reads it as root, so a copy the
 * appliance owns). The one list: the configs name them by these keys, the data dir protects them.
 */
export const NJS_SCRIPTS = {
  /** The CDN log's viewer ids. */
  cdnViewerScript: 'cdn-viewer.js',
  /** A media playlist's age (`X-Playlist-Age`). */
  playlistAgeScript: 'playlist-age.js',
  /** Checks the public embed read's address. */
  publicLinkScript: 'public-link.js',
  /** Names the edge a fetch, or the ingest node a media write, comes from by its credential. */
  originAuthScript: 'origin-auth.js',
  /** Serves playlists in the query token form. */
  queryTokenScript: 'query-token.js',
  /** An edge's header filter that tells a cached media playlist's age. */
  edgePlaylistAgeScript: 'edge-playlist-age.js',
} as const;

export type NjsScript = keyof typeof NJS_SCRIPTS;

const njsScriptPaths = (dataDir: string) =>
  Object.fromEntries(Object.entries(NJS_SCRIPTS).map(([name, file]) => [name, join(dataDir, 'nginx', file)])) as Record<
    NjsScript,
    string
  >;
