import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { packageRoot } from '../../src/core/package-root.js';

/** Debian's Chromium (the test runner installs the package); never a downloaded browser. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Headless, no sandbox (root), and none of the background traffic a closed network refuses;
 * `extraArgs` for what one test needs (fake camera).
 */
export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      // Tests reach loopback and the cluster harness's 10.77.x.y only: an http_proxy of the machine must not take them.
      '--no-proxy-server',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--autoplay-policy=no-user-gesture-required',
      ...extraArgs,
    ],
  });
}

/** Where a test writes what a person should look at (screenshots): `test-output/<name>/`. */
export function outputDir(name: string): string {
  const dir = join(packageRoot, 'test-output', name);
  mkdirSync(dir, { recursive: true });
  return dir;
}
