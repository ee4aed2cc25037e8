import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { execa } from 'execa';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger } from '../../src/core/logger.js';
import { GrowingFile } from '../../src/platform/process/growing-file.js';
import { isAlive } from '../../src/platform/process/proc.js';
import { launchArgv, SETPRIV, Supervisor } from '../../src/platform/process/supervisor.js';

function memoryLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n'))
        if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger('debug', stream), lines };
}

/** Processes of a process group that still run (zombies are dead; this machine's init may reap late). */
function liveMembersOf(pgid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function waitUntil(check: () => boolean, ms = 5000): Promise<void> {
  for (const deadline = Date.now() + ms; !check(); await sleep(20))
    if (Date.now() > deadline) throw new Error('timed out');
}

test('a crashing child is restarted with growing pauses, its stderr logged; stop() ends it for good', async () => {
  const { logger, lines } = memoryLogger();
  const supervisor = new Supervisor();
  const exits: (number | null)[] = [];
  const proc = supervisor.spawn({
    name: 'crasher',
    file: 'sh',
    args: ['-c', 'echo boom >&2; exit 3'],
    logger,
    restart: () => true,
    onExit: (e) => exits.push(e.code),
  });
  await sleep(2000);
  // Pauses of 0.5 s then 1 s: three or four runs in two seconds, not dozens.
  assert.ok(exits.length >= 2 && exits.length <= 4, `runs: ${exits.length}`);
  assert.ok(exits.every((c) => c === 3));
  assert.ok(
    lines.some((l) => l.proc === 'crasher' && l.msg === 'boom'),
    'stderr is logged',
  );
  assert.ok(lines.some((l) => l.msg === 'process exited; restarting' && typeof l.restart_in_ms === 'number'));
  await supervisor.stopAll();
  const after = exits.length;
  await sleep(1500);
  assert.is(exits.length, after, 'no restart after stop');
  assert.is(proc.running, false);
});

test('stop() sends the stop signal, then SIGKILL to a child that ignores it; forked children go with it', async () => {
  const { logger } = memoryLogger();
  const supervisor = new Supervisor();
  // The shell ignores SIGTERM and forks a sleeper that would outlive it.
  const proc = supervisor.spawn({
    name: 'stubborn',
    file: 'sh',
    args: ['-c', "trap '' TERM; sleep 30 & wait"],
    logger,
    restart: () => false,
    stopTimeoutMs: 300,
  });
  await sleep(200);
  const pid = proc.pid as number;
  const started = Date.now();
  await supervisor.stopAll();
  assert.ok(Date.now() - started < 3000, 'killed after the timeout');
  await sleep(200);
  assert.equal(liveMembersOf(pid), [], 'nothing of its process group is left');
});

test('exit 0 with a restart policy that declines: not restarted', async () => {
  const { logger } = memoryLogger();
  const supervisor = new Supervisor();
  let runs = 0;
  supervisor.spawn({
    name: 'once',
    file: 'true',
    args: [],
    logger,
    restart: (e) => e.code !== 0,
    onExit: () => runs++,
  });
  await sleep(800);
  assert.is(runs, 1);
  await supervisor.stopAll();
});

test('launchArgv: setpriv with the parent-death signal only when asked and present', () => {
  const spec = { file: 'ffmpeg', args: ['-i', 'x'] };
  assert.equal(launchArgv({ ...spec, dieWithParent: true }, SETPRIV), {
    file: SETPRIV,
    args: ['--pdeathsig', 'SIGKILL', '--', 'ffmpeg', '-i', 'x'],
  });
  assert.equal(launchArgv(spec, SETPRIV), spec);
  assert.equal(launchArgv({ ...spec, dieWithParent: true }, null), spec);
});

/** The parent (a real Node process running the supervisor) is killed with SIGKILL: no cleanup code of its own runs. */
async function childAfterParentKilled(mode: 'die' | 'keep'): Promise<boolean> {
  const parent = execa(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, '..', 'helpers', 'supervising-parent.ts'), mode],
    { reject: false, stdin: 'ignore', buffer: false },
  );
  const line: string = await new Promise((resolve) => createInterface({ input: parent.stdout! }).once('line', resolve));
  const child = Number(line);
  const ranBefore = isAlive(child);
  parent.kill('SIGKILL');
  await parent;
  await sleep(300);
  const alive = isAlive(child);
  if (alive) process.kill(child, 'SIGKILL');
  assert.ok(ranBefore, `the child ran (${line})`);
  return alive;
}

test('dieWithParent: the child dies when its parent is killed with SIGKILL; without it, it is orphaned', async () => {
  assert.is(await childAfterParentKilled('die'), false, 'gone with its parent');
  assert.is(await childAfterParentKilled('keep'), true, 'the control: an orphan without the signal');
});

test('stdin: the first start reads a growing file to where finish() found it; a restart runs restartArgs without it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-growing-'));
  const file = join(dir, 'session.flv');
  writeFileSync(file, 'a'.repeat(1000));
  const feed = new GrowingFile(file);
  const { logger, lines } = memoryLogger();
  const supervisor = new Supervisor();
  let exits = 0;
  const proc = supervisor.spawn({
    name: 'reader',
    file: '/bin/sh',
    // Exits 1 after its input ends: the restart must not read it again.
    args: ['-c', 'echo "read $(wc -c)"; exit 1'],
    restartArgs: ['-c', 'echo restarted'],
    stdin: feed,
    logger,
    restart: () => ++exits === 1,
  });
  // The writer pauses longer than a look at the end: the reader waits, it does not end.
  await sleep(300);
  appendFileSync(file, 'b'.repeat(500));
  await sleep(300);
  assert.ok(proc.running, 'still reading while the file may grow');
  appendFileSync(file, 'c'.repeat(24));
  feed.finish();
  await waitUntil(() => lines.some((l) => l.msg === 'restarted'));
  assert.ok(
    lines.some((l) => l.msg === 'read 1524'),
    JSON.stringify(lines.map((l) => l.msg)),
  );
  await supervisor.stopAll();
  rmSync(dir, { recursive: true, force: true });
});

test.run();
