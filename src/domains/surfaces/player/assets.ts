import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { packageRoot } from '../../../core/package-root.js';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export type Encoding = 'br' | 'gzip' | 'identity';

export interface Asset {
  /** Hashed file name, e.g. `player.1a2b3c4d.js`. */
  name: string;
  contentType: string;
  etag: string;
  bodies: Record<Encoding, Buffer>;
}

/** What the page links to: root-based paths on the player site (nginx maps `/assets/` to the API). */
export interface AssetUrls {
  player: string;
  hls: string;
  /** The publish page's script. */
  publish: string;
}

export type PlayerAssets = LoadedAssets<keyof AssetUrls>;

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

const JS = 'text/javascript; charset=utf-8';

/**
 * The player script and hls.js (light build: no subtitles, alternate audio or DRM; we use none).
 * The CSS is not an asset: it is small enough to inline in the page (see page.ts).
 */
function sources(): Record<keyof AssetUrls, AssetSource> {
  const dir = join(packageRoot, 'appliance', 'player');
  return {
    player: { file: join(dir, 'player.js'), name: (h) => `player.${h}.js`, contentType: JS },
    publish: { file: join(dir, 'publish.js'), name: (h) => `publish.${h}.js`, contentType: JS },
    hls: {
      file: createRequire(import.meta.url).resolve('hls.js/dist/hls.light.min.js'),
      name: (h) => `hls.light.${h}.min.js`,
      contentType: JS,
    },
  };
}

/** The player's assets, at `/assets/<name>` on the player site. */
export function loadPlayerAssets(): Promise<PlayerAssets> {
  return loadAssets(sources(), '/assets/');
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
