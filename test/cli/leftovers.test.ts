import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { leftoverProcesses } from '../../src/operator/leftovers.js';
import { nginxArgs } from '../../src/platform/nginx/config.js';
import { commandLine } from '../../src/platform/process/proc.js';
import { freePort } from '../helpers/ports.js';
import { sleep } from '../helpers/streams.js';

/**
 * `svc down` stops what a killed appliance left under its data dir, found by command line. nginx
 * rewrites its master's command line into a title ("nginx: master process nginx -e stderr -p
 * <prefix> ..."), which the first version of this search never matched.
 */
test('a real nginx master left under the data dir is found by its title; one under another dir is not', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-test-leftovers-'));
  const otherDir = mkdtempSync(join(tmpdir(), 'svc-test-leftovers-other-'));
  const started: number[] = [];
  try {
    for (const dir of [dataDir, otherDir]) {
      const prefix = join(dir, 'nginx');
      mkdirSync(join(prefix, 'logs'), { recursive: true });
      const conf = join(prefix, 'nginx.conf');
      writeFileSync(
        conf,
        `daemon off; master_process on; worker_processes 1; pid ${join(prefix, 'nginx.pid')};\nevents {}\nhttp { access_log off; server { listen 127.0.0.1:${await freePort()}; } }\n`,
      );
      const child = spawn('nginx', nginxArgs(prefix, conf), { stdio: 'ignore', detached: true });
      started.push(child.pid as number);
    }
    const [master, otherMaster] = started as [number, number];
    // The title is set once nginx has read its config.
    for (let i = 0; i < 50 && !commandLine(master)?.[0]?.startsWith('nginx: master process'); i++) await sleep(100);
    assert.ok(
      commandLine(master)?.[0]?.startsWith('nginx: master process'),
      `title: ${commandLine(master)?.join(' ')}`,
    );
    const found = leftoverProcesses(dataDir).map((p) => p.pid);
    assert.ok(found.includes(master), `found ${found.join(', ')}; the master is ${master}`);
    assert.not.ok(found.includes(otherMaster), 'the master of another data dir is left alone');
  } finally {
    for (const pid of started) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(otherDir, { recursive: true, force: true });
  }
});

test.run();
