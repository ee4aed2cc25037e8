import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../core/errors.js';

/*
 * Static files of the pages the appliance serves (the player's, the dashboard's): named by content
 * hash, compressed once, served immutable.
 */

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const IMMUTABLE = 'public, max-age=31536000, immutable';

export type Encoding = 'br' | 'gzip' | 'identity';

export interface Asset {
  /** Hashed file name, e.g. `player.1a2b3c4d.js`. */
  name: string;
  contentType: string;
  etag: string;
  bodies: Record<Encoding, Buffer>;
}

/** A file served as a hashed, compressed, immutable asset. */
export interface AssetSource {
  file: string;
  /** `player.js` → `player.<hash8>.js`. */
  name: (hash: string) => string;
  contentType: string;
}

/** A set of assets: each one's address by key, and each asset by its hashed name. */
export interface LoadedAssets<K extends string> {
  urls: Record<K, string>;
  get(name: string): Asset | undefined;
}

/**
 * Reads the assets once, names them by content hash and compresses them once (brotli at its
 * best level: paid once at startup, saved on every viewer). Served immutable, so a new build
 * is a new name and never a stale cache. `prefix` is where the site serves them.
 */
export async function loadAssets<K extends string>(
  sources: Record<K, AssetSource>,
  prefix: string,
): Promise<LoadedAssets<K>> {
  const byName = new Map<string, Asset>();
  const urls = {} as Record<K, string>;
  await Promise.all(
    (Object.entries(sources) as [K, AssetSource][]).map(async ([key, source]) => {
      const asset = await buildAsset(await readFile(source.file), source);
      byName.set(asset.name, asset);
      urls[key] = `${prefix}${asset.name}`;
    }),
  );
  return { urls, get: (name) => byName.get(name) };
}

async function buildAsset(body: Buffer, source: AssetSource): Promise<Asset> {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 8);
  const [br, gz] = await Promise.all([
    brotli(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }),
    gzipAsync(body, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  return {
    name: source.name(hash),
    contentType: source.contentType,
    etag: hash,
    bodies: { br, gzip: gz, identity: body },
  };
}

/** Strong ETag per representation: the encoded bytes differ, so their tags must too. */
export const etagOf = (asset: Asset, encoding: Encoding): string =>
  `"${asset.etag}${encoding === 'identity' ? '' : `-${encoding}`}"`;

/**
 * br, else gzip, else identity, as `Accept-Encoding` allows (RFC 9110 §12.5.3): a coding with
 * q=0 is refused; `*` stands for the codings not named.
 */
export function chooseEncoding(header: string | undefined): Encoding {
  if (!header) return 'identity';
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [coding, ...params] = part.trim().split(';');
    if (!coding) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(coding.trim() === 'x-gzip' ? 'gzip' : coding.trim(), Number.isFinite(value) ? value : 0);
  }
  const accepts = (coding: string) => (q.get(coding) ?? q.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return 'identity';
}

/**
 * `GET <prefix>/:name`: hashed assets, immutable, br or gzip as the browser accepts, with ETags;
 * an unknown name is the API's JSON 404 (`notFound` its message).
 */
export function registerAssetRoute(
  app: FastifyInstance,
  prefix: string,
  assets: { get(name: string): Asset | undefined },
  notFound: string,
): void {
  app.get<{ Params: { name: string } }>(`${prefix}/:name`, { schema: { hide: true } }, async (request, reply) => {
    const asset = assets.get(request.params.name);
    if (!asset) throw new ApiError('not_found', notFound);
    const encoding = chooseEncoding(request.headers['accept-encoding']);
    const etag = etagOf(asset, encoding);
    reply
      .header('cache-control', IMMUTABLE)
      .header('vary', 'Accept-Encoding')
      .header('etag', etag)
      .header('x-content-type-options', 'nosniff')
      .type(asset.contentType);
    if (encoding !== 'identity') reply.header('content-encoding', encoding);
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
    return reply.send(asset.bodies[encoding]);
  });
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}
