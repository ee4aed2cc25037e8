import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { packageRoot } from '../../src/core/package-root.js';

/**
 * Debian's Chromium (never a downloaded browser), headless, with nothing phoning home.
 * `autoplayPolicy`: Chromium's own; the default lets media play with sound without a gesture.
 */
export function launchChromium(opts: { autoplayPolicy?: string } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      `--autoplay-policy=${opts.autoplayPolicy ?? 'no-user-gesture-required'}`,
    ],
  });
}

/** Where a domain's tests write screenshots: `test-output/<domain>/` (ignored by git). */
export function outputDir(domain: string): string {
  const dir = join(packageRoot, 'test-output', domain);
  mkdirSync(dir, { recursive: true });
  return dir;
}
