import { chmodSync, chownSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { dataPaths, NJS_SCRIPTS, type NjsScript } from '../../config/paths.js';
import type { SystemUser } from './users.js';

/** A file only its owner reads (created so, or made so): logs, config, secrets. */
export function privateFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  closeSync(openSync(path, 'a', 0o600));
  chmodSync(path, 0o600);
}

/** A secret nginx's workers read (the certificate's key): its group's, nobody else's. */
export function servedPrivately(path: string, worker: SystemUser | null): void {
  if (worker) chownSync(path, 0, worker.gid);
  chmodSync(path, worker ? 0o640 : 0o600);
}

function dir(path: string, mode: number, owner?: { uid: number; gid: number }): void {
  mkdirSync(path, { recursive: true, mode });
  if (owner) chownSync(path, owner.uid, owner.gid);
  // Exactly this mode: mkdir's is cut by the umask, and an existing folder keeps whatever it had.
  chmodSync(path, mode);
}

/**
 * The folders of live media the origin's nginx workers write too (ingest nodes' media through
 * `/_ingest/`), and those the appliance makes below them: the workers' group writes, and what is
 * made inside inherits the group (setgid).
 */
export const MEDIA_FOLDER_MODE = 0o2770;

/**
 * Creates the data dir's folders and sets who may reach what (docs/decisions.md, "Hardening: data
 * dir modes"), at every start: a data dir made by an older version is fixed by `svc up`.
 *
 * `worker` is nginx's worker user when the appliance runs as root (null otherwise: then every
 * part runs as the appliance's user and nobody else needs anything). Other local users may only
 * pass through the data dir and logs/ by name, because PostgreSQL (its own user) opens its folder
 * and its log by path, and nginx's workers reopen the CDN log; every file there is 0600. media/
 * is the appliance's and the worker group's only, so whatever ffmpeg, the uploader or the
 * recorder write below it (with the usual 0644) is out of others' reach without a mode of its
 * own. run/ (the control socket, pid files, WHIP relay SDPs) is the appliance's only: nginx's
 * master binds the socket as root and its workers inherit it.
 */
export function protectDataDir(dataDir: string, worker: SystemUser | null): void {
  const paths = dataPaths(dataDir);
  const group = worker ? { uid: 0, gid: worker.gid } : undefined;
  protectShared(dataDir, [paths.config, paths.secrets], worker);
  // Workers write what publishers send; the appliance (root) reads it.
  dir(paths.ingest, 0o700, worker ?? undefined);
  dir(paths.live, 0o700);
  protectTls(dataDir, worker);
  // What the CDN serves, the streams whose public address it refuses, the edges it lets fetch and
  // the ingest nodes it lets write: the worker group reads them.
  for (const served of [paths.recordings, paths.publicRefused, paths.edgesAllowed, paths.nodesAllowed])
    dir(served, worker ? 0o750 : 0o700, group);
  // What ingest nodes write through the workers too (`/_ingest/`): the group writes, and folders
  // below inherit the group (setgid); the appliance makes its own group-writable (FsStore's folderMode).
  for (const written of [paths.origin, paths.thumbs, paths.sessions])
    dir(written, worker ? MEDIA_FOLDER_MODE : 0o700, group);
}

/**
 * The certificate: nginx's workers read it at each TLS handshake (a renewal needs no reload), and
 * serve ACME's challenges (docs/decisions.md, "Public edge"). An appliance's and an edge's alike.
 */
function protectTls(dataDir: string, worker: SystemUser | null): void {
  const paths = dataPaths(dataDir);
  const group = worker ? { uid: 0, gid: worker.gid } : undefined;
  dir(paths.tls, worker ? 0o750 : 0o700, group);
  dir(paths.acmeChallenges, worker ? 0o750 : 0o700, group);
  if (existsSync(paths.tlsCertificate)) servedPrivately(paths.tlsCertificate, worker);
}

/**
 * What an appliance's and an edge's data dirs share: the dir and its own files (`privateFiles`),
 * logs/, run/, nginx/ with its temp/ and cache/, media/.
 */
function protectShared(dataDir: string, privateFiles: string[], worker: SystemUser | null): void {
  const paths = dataPaths(dataDir);
  const byName = worker ? 0o711 : 0o700;
  dir(dataDir, byName);
  for (const file of privateFiles) if (existsSync(file)) chmodSync(file, 0o600);
  dir(paths.logs, byName);
  for (const name of readdirSync(paths.logs)) {
    const file = join(paths.logs, name);
    if (statSync(file).isFile()) chmodSync(file, 0o600);
  }
  dir(paths.run, 0o700);
  // The master reads the config and scripts (as root); workers only pass through to temp/ and cache/.
  dir(paths.nginx, byName);
  for (const file of [paths.nginxConf, ...Object.keys(NJS_SCRIPTS).map((name) => paths[name as NjsScript])])
    if (existsSync(file)) chmodSync(file, 0o600);
  dir(join(paths.nginx, 'temp'), 0o700, worker ?? undefined);
  if (existsSync(paths.nginxCache)) chmodSync(paths.nginxCache, 0o700);
  dir(paths.media, worker ? 0o710 : 0o700, worker ? { uid: 0, gid: worker.gid } : undefined);
}

/**
 * An edge's data dir (docs/operations.md, "Edges"): as an appliance's for what both have (its
 * certificate too), and the refused public addresses nginx's workers look at; nothing else.
 */
export function protectEdgeDataDir(dataDir: string, worker: SystemUser | null): void {
  const paths = dataPaths(dataDir);
  protectShared(dataDir, [paths.edgeConfig, paths.edgeSecrets], worker);
  protectTls(dataDir, worker);
  dir(paths.publicRefused, worker ? 0o750 : 0o700, worker ? { uid: 0, gid: worker.gid } : undefined);
}
