import { createRequire } from 'node:module';
import { shippedFile } from '../../../core/resources.js';
import { loadAssets, type AssetSource, type LoadedAssets } from '../../../platform/http/static-assets.js';

/** What the page links to: root-based paths on the player site (nginx maps `/assets/` to the API). */
export interface AssetUrls {
  player: string;
  hls: string;
  /** The publish page's script. */
  publish: string;
}

export type PlayerAssets = LoadedAssets<keyof AssetUrls>;

const JS = 'text/javascript; charset=utf-8';

/**
 * The player script and hls.js (light build: no subtitles, alternate audio or DRM; we use none).
 * The CSS is not an asset: it is small enough to inline in the page (see page.ts).
 */
function sources(): Record<keyof AssetUrls, AssetSource> {
  return {
    player: { file: shippedFile('player', 'player.js'), name: (h) => `player.${h}.js`, contentType: JS },
    publish: { file: shippedFile('player', 'publish.js'), name: (h) => `publish.${h}.js`, contentType: JS },
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
