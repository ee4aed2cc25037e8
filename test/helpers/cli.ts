import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import * as assert from 'uvu/assert';
import { packageRoot } from '../../src/core/package-root.js';
import { connect } from '../../src/platform/db/connect.js';
import { openForTraversal } from '../../src/platform/system/users.js';

export const BIN = join(packageRoot, 'bin', 'run.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON (null when it is not one JSON document). */
  // Tests read arbitrary fields of the documents.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/** The result of a command that must have exited 0 (its output in the failure message otherwise). */
export function ok(res: CliResult): CliResult {
  assert.is(res.code, 0, `exit ${res.code}\nstdout: ${res.stdout}\nstderr: ${res.stderr}`);
  return res;
}

/** The environment of the test run minus anything that would steer the CLI (SVC_*, tsx's loader). */
function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || k.startsWith('SVC_') || k === 'NODE_OPTIONS' || k === 'TEST_DATABASE_URL') continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

export interface SvcOptions {
  env?: Record<string, string>;
  timeoutMs?: number;
  onStdout?: (chunk: string) => void;
  onStderr?: (chunk: string) => void;
  /** A command the CLI runs under, such as `['ip', 'netns', 'exec', name]` (test/helpers/cluster.ts). */
  via?: string[];
}

/**
 * Starts the built CLI (`node bin/run.js ...`) and returns the running child (an appliance in the
 * foreground, to be killed); no timeout unless `timeoutMs`.
 * `onStdout`, `onStderr`: each chunk as it comes (a command that runs until something happens).
 */
export function startSvc(args: string[], opts: SvcOptions = {}) {
  const argv = [...(opts.via ?? []), process.execPath, BIN, ...args];
  const child = execa(argv[0] as string, argv.slice(1), {
    env: cleanEnv(opts.env ?? {}),
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: opts.timeoutMs,
    cwd: packageRoot,
  });
  const { onStdout } = opts;
  if (onStdout) child.stdout.on('data', (chunk: Buffer) => onStdout(String(chunk)));
  const { onStderr } = opts;
  if (onStderr) child.stderr.on('data', (chunk: Buffer) => onStderr(String(chunk)));
  return child;
}

/** Runs the built CLI as an operator would, to its end (60 s at most unless `timeoutMs`). */
export async function svc(args: string[], opts: SvcOptions = {}): Promise<CliResult> {
  const child = startSvc(args, { ...opts, timeoutMs: opts.timeoutMs ?? 60_000 });
  const res = await child;
  let json: unknown = null;
  try {
    json = JSON.parse(String(res.stdout));
  } catch {
    json = null;
  }
  return { code: res.exitCode ?? 1, stdout: String(res.stdout), stderr: String(res.stderr), json };
}

/** A fresh data dir the PostgreSQL user can reach (tests run as root too). */
export function makeDataDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
  openForTraversal(dir);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** An empty database on the test cluster, for `svc init --database-url`. */
export async function createEmptyDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const server = process.env.TEST_DATABASE_URL;
  if (!server)
    throw new Error('TEST_DATABASE_URL is not set: run the tests with `npm test` (it starts a PostgreSQL cluster)');
  const name = `svc_cli_${randomBytes(6).toString('hex')}`;
  const admin = connect(server, { max: 1 });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const again = connect(server, { max: 1 });
      await again.unsafe(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}
