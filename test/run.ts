/**
 * `npm test`: one throwaway PostgreSQL cluster for the whole run (the appliance's own managed
 * cluster code, in a temp dir), or DATABASE_URL when set; then every test file under uvu.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManagedCluster } from '../src/platform/db/managed-cluster.js';
import { openForTraversal } from '../src/platform/system/users.js';
import { freePort } from './helpers/ports.js';
import { packageRoot } from '../src/core/package-root.js';
import { ensureSystemPackages, TEST_PACKAGES } from '../src/platform/system/packages.js';

const pattern = process.argv[2] ?? '\\.test\\.ts$';
let cluster: ManagedCluster | undefined;
let dir: string | undefined;
let databaseUrl = process.env.DATABASE_URL;

// The tests use the real parts: on a fresh machine, install the system packages as `svc init` does.
const packages = await ensureSystemPackages({
  isRoot: process.getuid?.() === 0,
  required: TEST_PACKAGES,
  onLine: (line) => console.log(`  apt: ${line}`),
});
if (packages.installed.length) console.log(`installed ${packages.installed.join(', ')}`);

if (!databaseUrl) {
  dir = mkdtempSync(join(tmpdir(), 'svc-test-pg-'));
  openForTraversal(dir);
  cluster = new ManagedCluster({
    dir: join(dir, 'pg'),
    port: await freePort(),
    password: 'test',
    logFile: join(dir, 'postgres.log'),
  });
  const started = Date.now();
  await cluster.init();
  await cluster.start();
  databaseUrl = cluster.url;
  console.log(`test cluster up in ${Date.now() - started} ms (${dir})`);
}

const uvu = join(packageRoot, 'node_modules', 'uvu', 'bin.js');
const stopCluster = async () => {
  await cluster?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
};
process.on('SIGINT', () => void stopCluster().finally(() => process.exit(130)));

const child = spawn(process.execPath, ['--import', 'tsx', uvu, 'test', pattern], {
  env: { ...process.env, TEST_DATABASE_URL: databaseUrl },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let output = '';
child.stdout.on('data', (chunk: Buffer) => {
  output += chunk.toString();
  process.stdout.write(chunk);
});
const code: number = await new Promise((resolve) => child.on('close', (c) => resolve(c ?? 1)));

await stopCluster();

// eslint-disable-next-line no-control-regex -- strips terminal colours
const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
const total = Number(/Total:\s+(\d+)/.exec(plain)?.[1] ?? 0);
const passed = Number(/Passed:\s+(\d+)/.exec(plain)?.[1] ?? 0);
const skipped = Number(/Skipped:\s+(\d+)/.exec(plain)?.[1] ?? 0);
const failures = failureReports(plain);
if (failures.length)
  console.log(`\nfailures, repeated here so that the end of the output names them:\n\n${failures.join('\n\n')}\n`);
console.log(`${passed} passed, ${total - passed - skipped} failed, ${skipped} skipped`);
process.exit(code !== 0 ? code : total === 0 ? 1 : 0);

/** Each uvu failure with the test file it came from: uvu prints them mid-run, where a log's tail does not reach. */
function failureReports(text: string): string[] {
  const isFile = (line: string) => /^\S+\.test\.ts$/.test(line);
  const isFailure = (line: string) => /^\s+FAIL\s/.test(line);
  const reports: string[][] = [];
  let file = '';
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    if (isFile(line) || /^\s+Total:/.test(line)) {
      file = line;
      current = undefined;
    } else if (isFailure(line)) {
      current = [file, line];
      reports.push(current);
    } else if (current && current.length < 18) {
      current.push(line);
    }
  }
  return reports.map((report) => report.join('\n').trimEnd());
}
