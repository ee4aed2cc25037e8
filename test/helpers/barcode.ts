/**
 * A 24-bit barcode of floor(t × 100) burned into every frame of a live-encoded test source, read
 * back from decoded pictures (research/pipeline_feasibility.md, section 4): bit i is a white
 * block on a black strip at the top while mod(floor(t×100 / 2^i), 2) is 1.
 */

export const BITS = 24;

/** Where the blocks are in the 1280×720 source; a rendition scales them with its size. */
export const GEOMETRY = {
  width: 1280,
  height: 720,
  stripHeight: 48,
  x0: 64,
  y0: 12,
  block: 48,
  blockHeight: 24,
} as const;

export interface Point {
  x: number;
  y: number;
}

/** Centre of each bit's block in a picture of `width`×`height` (bit 0 first). */
export function blockCentres(width: number, height: number): Point[] {
  const sx = width / GEOMETRY.width;
  const sy = height / GEOMETRY.height;
  return Array.from({ length: BITS }, (_, i) => ({
    x: Math.floor((GEOMETRY.x0 + i * GEOMETRY.block + GEOMETRY.block / 2) * sx),
    y: Math.floor((GEOMETRY.y0 + GEOMETRY.blockHeight / 2) * sy),
  }));
}

/** The value from the luma (0-255) at each block's centre, bit 0 first. */
export function decodeLumas(lumas: readonly number[]): number {
  return lumas.reduce((value, luma, i) => value + (luma >= 128 ? 2 ** i : 0), 0);
}

/** The value in a grey (one byte per pixel) picture of `width`×`height`. */
export function decodeGray(pixels: Uint8Array, width: number, height: number): number {
  return decodeLumas(blockCentres(width, height).map((p) => pixels[p.y * width + p.x] ?? 0));
}

/** The drawbox chain that burns the barcode into a picture of `width` (default 1280; the blocks scale with it, as blockCentres expects). */
export function barcodeFilter(width: number = GEOMETRY.width): string {
  const k = width / GEOMETRY.width;
  const px = (v: number) => Math.round(v * k);
  const { stripHeight, x0, y0, block, blockHeight } = GEOMETRY;
  const boxes = Array.from(
    { length: BITS },
    (_, i) =>
      `drawbox=x=${px(x0 + i * block)}:y=${px(y0)}:w=${px(block)}:h=${px(blockHeight)}:color=white:t=fill:enable='mod(floor(t*100/pow(2,${i})),2)'`,
  );
  return [`drawbox=x=0:y=0:w=${width}:h=${px(stripHeight)}:color=black:t=fill`, ...boxes].join(',');
}

/**
 * ffmpeg arguments (after the global ones) of a live publisher as a camera and OBS would be:
 * testsrc2 720p30 with the barcode and a sine tone, x264 zerolatency with a 2 s GOP (or
 * `gopSeconds`: 1 is the advice for low latency), 1280×720 unless `width` says otherwise, sent in real time (`-re`) to `url` for at most `seconds`.
 */
export function barcodePublisherArgs(
  url: string,
  opts: { seconds: number; preset: string; videoKbps: number; gopSeconds?: number; width?: number },
): string[] {
  // 16:9 at `width` (a test keeps its source small; 640 px leaves blocks of 24 × 12).
  const width = opts.width ?? GEOMETRY.width;
  const height = Math.round((width * GEOMETRY.height) / GEOMETRY.width);
  const fps = 30;
  const gop = String(Math.round((opts.gopSeconds ?? 2) * fps));
  const kbps = `${opts.videoKbps}k`;
  return [
    '-re',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${width}x${height}:rate=${fps}`,
    '-re',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000',
    '-t',
    String(opts.seconds),
    '-vf',
    barcodeFilter(width),
    '-c:v',
    'libx264',
    '-preset',
    opts.preset,
    '-tune',
    'zerolatency',
    '-pix_fmt',
    'yuv420p',
    '-b:v',
    kbps,
    '-maxrate',
    kbps,
    '-bufsize',
    kbps,
    '-g',
    gop,
    '-keyint_min',
    gop,
    '-sc_threshold',
    '0',
    '-c:a',
    'aac',
    '-b:a',
    '96k',
    '-ar',
    '48000',
    '-f',
    'flv',
    url,
  ];
}
