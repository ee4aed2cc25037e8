import { createReadStream, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../src/core/errors.js';
import { createLogger } from '../../src/core/logger.js';
import type { LatencyMode } from '../../src/domains/streams/model.js';
import type { Embed } from '../../src/domains/surfaces/embed/schemas.js';
import { createServer as createApiServer } from '../../src/platform/http/server.js';
import type { PlayerAssets } from '../../src/domains/surfaces/player/assets.js';
import { playerRoutes, type EmbedSource } from '../../src/domains/surfaces/player/routes.js';

export const STREAM = 'str_playertest0000000001';

/** An embed as the API would send it; `over` replaces fields. */
export function embedFixture(over: Partial<Embed> = {}): Embed {
  return {
    object: 'embed',
    id: STREAM,
    status: 'pending',
    title: 'Friday town hall',
    playback_url: null,
    playback_url_expires_at: null,
    replay: false,
    went_live_at: null,
    ended_at: null,
    poll_after_seconds: 5,
    beacon: { rate: 1, interval_seconds: 30 },
    access: 'public',
    poster_url: 'https://cdn.test/str_playertest0000000001/poster.jpg',
    ...over,
  };
}

/** The API with only the player routes, reading embeds from a map (no database). */
export async function playerApi(
  embeds: Map<string, { embed: Embed; allowedDomains: string[] | null; latencyMode?: LatencyMode } | ApiError>,
  assets?: PlayerAssets,
): Promise<FastifyInstance> {
  const app = await createApiServer({ logger: createLogger('silent') });
  const source: EmbedSource = {
    async embed(id) {
      const found = embeds.get(id);
      if (!found) throw new ApiError('not_found', 'No such stream.');
      if (found instanceof ApiError) throw found;
      return found;
    },
  };
  await app.register(playerRoutes, { source, assets });
  await app.ready();
  return app;
}

export interface Beat {
  id: string;
  s: string;
  st: string;
  u: string;
  at: number;
}

export interface PlayerSite {
  /** `{player_url}/<id>`. */
  embedUrl(id?: string): string;
  /** The CDN origin serving `dir` (another origin than the player, with CORS as the appliance's). */
  cdnUrl: string;
  beats: Beat[];
  /** Embed reads per stream id. */
  embedReads: Map<string, number>;
  /** Sets (or adds) the embed of `embed.id`. */
  setEmbed(embed: Embed): void;
  /** The CDN answers 404 under `/<prefix>/` from now on, as if the stream's files were gone. */
  blockCdn(prefix: string): void;
  close(): Promise<void>;
}

/**
 * The player site as nginx presents it, in front of the API's player routes:
 * `/<id>` → `/player/<id>`, `/assets/<name>` → `/player/assets/<name>`, `/api/embed/<id>` the
 * embed read and `/api/embed/<id>/beat` beats (both from here, recorded). `dir` is served as
 * the CDN on a second port, at `/<file>` and under any `/<prefix>/<file>`.
 */
export async function startPlayerSite(first: Embed, dir: string): Promise<PlayerSite> {
  const embeds = new Map<string, { embed: Embed; allowedDomains: string[] | null }>([
    [first.id, { embed: first, allowedDomains: null }],
  ]);
  const app = await playerApi(embeds);
  const beats: Beat[] = [];
  const embedReads = new Map<string, number>();
  const blocked = new Set<string>();

  const proxy = async (req: IncomingMessage, res: ServerResponse, url: string) => {
    const reply = await app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': String(req.headers['accept-encoding'] ?? '') },
    });
    for (const [name, value] of Object.entries(reply.headers))
      if (value !== undefined && name !== 'content-length') res.setHeader(name, value as string);
    res.writeHead(reply.statusCode).end(reply.rawPayload);
  };

  const site = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://site');
    const beat = /^\/api\/embed\/([^/]+)\/beat$/.exec(url.pathname);
    if (req.method === 'POST' && beat) {
      const q = url.searchParams;
      beats.push({
        id: beat[1] ?? '',
        s: q.get('s') ?? '',
        st: q.get('st') ?? '',
        u: q.get('u') ?? '',
        at: Date.now(),
      });
      return void res.writeHead(204).end();
    }
    const read = /^\/api\/embed\/([^/]+)$/.exec(url.pathname);
    if (read) {
      const id = read[1] ?? '';
      embedReads.set(id, (embedReads.get(id) ?? 0) + 1);
      const found = embeds.get(id);
      if (!found)
        return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"not_found"}}');
      return void res
        .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify(found.embed));
    }
    // `/<id>` and `/assets/<name>`.
    return void proxy(req, res, `/player${url.pathname}`);
  });

  const TYPES: Record<string, string> = {
    m3u8: 'application/vnd.apple.mpegurl',
    ts: 'video/mp2t',
    m4s: 'video/iso.segment',
    mp4: 'video/mp4',
  };
  const cdn = createServer((req, res) => {
    const parts = new URL(req.url ?? '/', 'http://cdn').pathname.split('/').slice(1);
    const name = parts.at(-1) ?? '';
    const file = join(dir, name);
    const headers = {
      'access-control-allow-origin': '*',
      'cache-control': name.endsWith('.m3u8') ? 'no-cache' : 'public, max-age=86400',
    };
    if (
      parts.length > 2 ||
      blocked.has(parts.length === 2 ? (parts[0] ?? '') : '') ||
      name.includes('..') ||
      !existsSync(file)
    )
      return void res.writeHead(404, headers).end();
    res.writeHead(200, {
      ...headers,
      'content-type': TYPES[name.split('.').pop() ?? ''] ?? 'application/octet-stream',
    });
    createReadStream(file).pipe(res);
  });

  const [sitePort, cdnPort] = await Promise.all([listen(site), listen(cdn)]);
  return {
    embedUrl: (id = first.id) => `http://127.0.0.1:${sitePort}/${id}`,
    cdnUrl: `http://localhost:${cdnPort}`,
    beats,
    embedReads,
    setEmbed(embed) {
      embeds.set(embed.id, { embed, allowedDomains: null });
    },
    blockCdn(prefix) {
      blocked.add(prefix);
    },
    async close() {
      site.closeAllConnections();
      cdn.closeAllConnections();
      await Promise.all([new Promise((r) => site.close(r)), new Promise((r) => cdn.close(r)), app.close()]);
    },
  };
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
}

export interface LiveHls {
  dir: string;
  /** The publisher drops and comes back `gapMs` later: the playlists go on with a discontinuity. */
  reconnect(gapMs: number): Promise<void>;
  /** The stream ends as the appliance ends it: ffmpeg stops, the playlists get EXT-X-ENDLIST. */
  finish(): Promise<void>;
  kill(): Promise<void>;
}

/**
 * A live-like HLS folder as the appliance writes it: ffmpeg in real time, 4-second segments, a
 * sliding list of 6, two renditions (720p and 360p) behind `master.m3u8`, program date-times for
 * measuring delay; a new ffmpeg per publish session appending to the same playlists.
 */
export function startLiveHls(): LiveHls {
  const dir = mkdtempSync(join(tmpdir(), 'svc-player-hls-'));
  const spawn = (): ResultPromise =>
    execa(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-nostdin',
        '-re',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=1280x720:rate=30',
        '-re',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:sample_rate=48000',
        '-filter_complex',
        '[0:v]split=2[hi][lo0];[lo0]scale=640:360[lo]',
        '-map',
        '[hi]',
        '-map',
        '[lo]',
        '-map',
        '1:a',
        '-map',
        '1:a',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-tune',
        'zerolatency',
        '-pix_fmt',
        'yuv420p',
        '-g',
        '60',
        '-keyint_min',
        '60',
        '-sc_threshold',
        '0',
        '-b:v:0',
        '1500k',
        '-b:v:1',
        '400k',
        '-c:a',
        'aac',
        '-b:a',
        '64k',
        '-f',
        'hls',
        '-hls_time',
        '4',
        '-hls_list_size',
        '6',
        '-hls_flags',
        'delete_segments+independent_segments+program_date_time+temp_file+omit_endlist+append_list',
        '-master_pl_name',
        'master.m3u8',
        '-var_stream_map',
        'v:0,a:0 v:1,a:1',
        '-hls_segment_filename',
        join(dir, 'v%v_%05d.ts'),
        join(dir, 'v%v.m3u8'),
      ],
      { reject: false, stdin: 'ignore' },
    );
  let proc = spawn();
  const stop = async (signal: NodeJS.Signals) => {
    proc.kill(signal);
    await proc;
  };
  return {
    dir,
    async reconnect(gapMs) {
      await stop('SIGKILL');
      await new Promise((r) => setTimeout(r, gapMs));
      proc = spawn();
    },
    async finish() {
      await stop('SIGINT');
      for (const name of ['v0.m3u8', 'v1.m3u8']) {
        const file = join(dir, name);
        writeFileSync(`${file}.tmp`, `${readFileSync(file, 'utf8').trimEnd()}\n#EXT-X-ENDLIST\n`);
        renameSync(`${file}.tmp`, file);
      }
    },
    async kill() {
      await stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
