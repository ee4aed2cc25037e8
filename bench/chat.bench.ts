/**
 * Chat under load (issue 14), against the goal of 5,000 connected feed readers and 50 posts/s with
 * a p95 post-to-screen delay of at most 1 s on this machine, and past it. The appliance runs in its
 * own process (`pipeline-serve.ts`: real PostgreSQL, real nginx); the readers, as real viewers,
 * read `{player_url}/api/embed/{id}/chat/feed` through nginx from their own processes
 * (`chat-readers.ts`); anonymous posters, many client ids on many loopback addresses so that the
 * per-viewer and per-network limits are not what is measured, post through nginx from this one.
 * Every client shares the appliance's cores. `runChatSteps` also takes an appliance started
 * otherwise (e.g. under `node --cpu-prof`, to see where its time goes).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { childrenOf } from '../src/platform/process/proc.js';
import type { Counts, Opened, ReaderCommand, Report } from './chat-readers.js';
import { api, applianceCpu, cpuOf, startServe } from './pipeline.bench.js';
import { table } from './player.bench.js';

export interface Step {
  readers: number;
  postsPerSecond: number;
  note: string;
}

const STEPS: Step[] = [
  { readers: 1000, postsPerSecond: 10, note: 'warm-up' },
  { readers: 5000, postsPerSecond: 50, note: 'the goal' },
  { readers: 5000, postsPerSecond: 150, note: '3× the posts' },
  { readers: 8000, postsPerSecond: 50, note: '1.6× the readers' },
];
/** BENCH_CHAT_STEPS=`1000x10,5000x50` (readers × posts/s, readers never fewer than the step before) replaces the steps. */
function steps(): Step[] {
  const spec = process.env.BENCH_CHAT_STEPS;
  if (!spec) return STEPS;
  return spec.split(',').map((s) => {
    const [readers, postsPerSecond] = s.split('x').map(Number);
    if (!Number.isInteger(readers) || !Number.isFinite(postsPerSecond))
      throw new Error(`BENCH_CHAT_STEPS: ${s} is not READERSxPOSTS`);
    return { readers: readers as number, postsPerSecond: postsPerSecond as number, note: 'BENCH_CHAT_STEPS' };
  });
}
const READER_PROCESSES = 2;
/** Readers (spread over the reader processes) that parse events and time messages. */
const SAMPLE = 200;
const SETTLE_MS = 3000;
/** After the last post of a step, how long messages still count for its delays. */
const GRACE_MS = 3000;
const POSTS_IN_FLIGHT = 500;
const VIEWERS_PER_NETWORK = 10;
const stepSeconds = (): number => Number(process.env.BENCH_CHAT_SECONDS ?? 25);

/** One process of feed readers, driven over IPC. */
class Readers {
  private readonly child: ChildProcess = fork(join(import.meta.dirname, 'chat-readers.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });

  tell(cmd: ReaderCommand): void {
    this.child.send(cmd);
  }

  ask<T>(cmd: ReaderCommand, answer: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const onMessage = (msg: { type: string }) => {
        if (msg.type !== answer) return;
        this.child.off('message', onMessage);
        this.child.off('exit', onExit);
        resolve(msg as T);
      };
      const onExit = (code: number | null) => reject(new Error(`chat-readers exited ${code}`));
      this.child.on('message', onMessage);
      this.child.once('exit', onExit);
      this.child.send(cmd);
    });
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null) return resolve();
      this.child.once('exit', () => resolve());
      this.child.kill('SIGTERM');
    });
  }
}

interface Posted {
  sent: number;
  /** Answers by `status code` (`201`, `429 chat_rate_limited`, `503 chat_busy`, ...). */
  answers: Record<string, number>;
  withRetryAfter: number;
  /** Posts without an answer, by the socket error's code. */
  errors: Record<string, number>;
  /** Posts not sent because POSTS_IN_FLIGHT were still unanswered. */
  skipped: number;
  /** POST to answer, ms. */
  answerMs: number[];
}

/** `rate` posts per second for `seconds` to `{origin}/api/embed/{id}/chat/messages`, each text tagged and stamped `t=<ms>`. */
async function post(origin: URL, streamId: string, rate: number, seconds: number, tag: string): Promise<Posted> {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  // Each client id posts once in 20 s, far under the per-viewer 5 in 10 s; ten of them share a
  // network (a loopback address of their own: nginx passes it on as the viewer's), so a network
  // posts 5 in 10 s, under the 15 anonymous posts in 10 s allowed from one.
  const viewers = Math.max(100, Math.ceil(rate) * 20);
  const out: Posted = { sent: 0, answers: {}, withRetryAfter: 0, errors: {}, skipped: 0, answerMs: [] };
  let inFlight = 0;
  const one = (n: number) => {
    const started = performance.now();
    const body = JSON.stringify({
      text: `${tag} t=${Date.now()} hello from viewer ${n % viewers}, how is everyone doing`,
      nickname: `Viewer ${n % viewers}`,
      client_id: `bench-${tag.replace(/\W/g, '')}-${n % viewers}`,
    });
    inFlight++;
    const network = (n % viewers) % (viewers / VIEWERS_PER_NETWORK);
    const localAddress = `127.1.${Math.floor(network / 250)}.${(network % 250) + 1}`;
    const req = request(
      {
        agent,
        localAddress,
        host: origin.hostname,
        port: origin.port,
        method: 'POST',
        path: `/api/embed/${streamId}/chat/messages`,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          inFlight--;
          out.answerMs.push(performance.now() - started);
          const code =
            res.statusCode === 201 ? undefined : /"code"\s*:\s*"([a-z_]+)"/.exec(Buffer.concat(chunks).toString())?.[1];
          const key = code ? `${res.statusCode} ${code}` : String(res.statusCode);
          out.answers[key] = (out.answers[key] ?? 0) + 1;
          if (res.headers['retry-after'] !== undefined) out.withRetryAfter++;
        });
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      inFlight--;
      const why = err.code ?? err.message;
      out.errors[why] = (out.errors[why] ?? 0) + 1;
    });
    req.end(body);
  };
  const t0 = performance.now();
  let due = 0;
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const elapsed = (performance.now() - t0) / 1000;
      const target = Math.floor(Math.min(elapsed, seconds) * rate);
      while (due < target) {
        if (inFlight >= POSTS_IN_FLIGHT) out.skipped++;
        else one(out.sent++);
        due++;
      }
      if (elapsed >= seconds) {
        clearInterval(tick);
        resolve();
      }
    }, 10);
  });
  for (const deadline = performance.now() + 10_000; inFlight > 0 && performance.now() < deadline;) await sleep(50);
  agent.destroy();
  return out;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resident set of a process, bytes (0 once gone). */
function rss(pid: number): number {
  try {
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** CPU-seconds all processes on the machine have used (every field of /proc/stat's cpu line but idle and iowait). */
function machineCpu(): number {
  const f = (/^cpu\s+(.*)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1] ?? '').split(' ').map(Number);
  // user nice system idle iowait irq softirq steal (guest time is already in user)
  return [0, 1, 2, 5, 6, 7].reduce((sum, i) => sum + (f[i] ?? 0), 0) / 100;
}

function fdLimit(): number {
  return Number(/^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? 1024);
}

/** The cluster's postmaster with its backends (those that exited are in its reaped time). */
function postgresCpu(dataDir: string): number {
  const master = Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  return cpuOf(master, true) + childrenOf(master).reduce((sum, pid) => sum + cpuOf(pid, false), 0);
}

const nginxPids = (dataDir: string): number[] => {
  const master = Number(readFileSync(join(dataDir, 'run', 'nginx.pid'), 'utf8'));
  return [master, ...childrenOf(master)];
};

interface StepResult {
  step: Step;
  skipped?: string;
  opened: Opened;
  counts: Counts;
  report: Report;
  posted: Posted;
  seconds: number;
  cpu: { node: number; nginx: number; postgres: number; clients: number; machine: number };
  rss: { nodePeak: number; nodeEnd: number; nginxPeak: number };
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

function merge(opened: Opened[]): Opened {
  const refused: Record<string, number> = {};
  const errors: Record<string, number> = {};
  for (const o of opened) {
    for (const [k, v] of Object.entries(o.refused)) refused[k] = (refused[k] ?? 0) + v;
    for (const [k, v] of Object.entries(o.errors)) errors[k] = (errors[k] ?? 0) + v;
  }
  return {
    type: 'opened',
    connected: sum(opened.map((o) => o.connected)),
    refused,
    withRetryAfter: sum(opened.map((o) => o.withRetryAfter)),
    errors,
  };
}

export interface ChatTarget {
  playerUrl: string;
  streamId: string;
  /** The appliance's node process, and its data dir (nginx.pid under run/, PostgreSQL under pg/). */
  pid: number;
  dataDir: string;
}

/** The steps against a running appliance; readers are added step by step (never fewer). */
export async function runChatSteps(
  target: ChatTarget,
  plan: Step[] = steps(),
): Promise<{ results: StepResult[]; limit: number }> {
  const origin = new URL(target.playerUrl);
  const readers = Array.from({ length: READER_PROCESSES }, () => new Readers());
  const results: StepResult[] = [];
  const limit = fdLimit();
  const opened: Opened[] = [];
  let asked = 0;
  try {
    for (const [i, step] of plan.entries()) {
      // nginx holds two sockets per reader (viewer and API); keep a margin for everything else.
      if (step.readers * 2 + 500 > limit)
        throw new Error(`${step.readers} readers need more than the ${limit} open files allowed`);
      const more = step.readers - asked;
      if (more > 0) {
        const share = (n: number, k: number) => Math.floor(n / READER_PROCESSES) + (k < n % READER_PROCESSES ? 1 : 0);
        const sample = Math.max(0, SAMPLE - asked);
        opened.push(
          ...(await Promise.all(
            readers.map((r, k) =>
              r.ask<Opened>(
                {
                  type: 'open',
                  host: origin.hostname,
                  port: Number(origin.port),
                  path: `/api/embed/${target.streamId}/chat/feed`,
                  count: share(more, k),
                  sample: share(sample, k),
                },
                'opened',
              ),
            ),
          )),
        );
        asked = step.readers;
      }
      await sleep(SETTLE_MS);

      const tag = `#s${i + 1}#`;
      for (const r of readers) r.tell({ type: 'mark', tag });
      const before = {
        ...applianceCpu(target.pid, target.dataDir),
        postgres: postgresCpu(target.dataDir),
        clients: process.cpuUsage(),
        machine: machineCpu(),
      };
      const peaks = { nodePeak: 0, nginxPeak: 0 };
      const watch = setInterval(() => {
        peaks.nodePeak = Math.max(peaks.nodePeak, rss(target.pid));
        peaks.nginxPeak = Math.max(peaks.nginxPeak, sum(nginxPids(target.dataDir).map(rss)));
      }, 1000);
      const t0 = performance.now();
      const posted = await post(origin, target.streamId, step.postsPerSecond, stepSeconds(), tag);
      const seconds = (performance.now() - t0) / 1000;
      clearInterval(watch);
      const after = {
        ...applianceCpu(target.pid, target.dataDir),
        postgres: postgresCpu(target.dataDir),
        clients: process.cpuUsage(before.clients),
        machine: machineCpu(),
      };
      const counts = await Promise.all(readers.map((r) => r.ask<Counts>({ type: 'counts' }, 'counts')));
      await sleep(GRACE_MS);
      const reports = await Promise.all(readers.map((r) => r.ask<Report>({ type: 'report' }, 'report')));
      results.push({
        step,
        opened: merge(opened),
        counts: {
          type: 'counts',
          open: sum(counts.map((c) => c.open)),
          closed: sum(counts.map((c) => c.closed)),
          messages: sum(counts.map((c) => c.messages)),
          bytes: sum(counts.map((c) => c.bytes)),
          cpuUs: sum(counts.map((c) => c.cpuUs)),
        },
        report: {
          type: 'report',
          delays: reports.flatMap((r) => r.delays),
          sampleOpen: sum(reports.map((r) => r.sampleOpen)),
          sampleMessages: sum(reports.map((r) => r.sampleMessages)),
        },
        posted,
        seconds,
        cpu: {
          node: after.node - before.node,
          nginx: after.nginx - before.nginx,
          postgres: after.postgres - before.postgres,
          clients: (after.clients.user + after.clients.system + sum(counts.map((c) => c.cpuUs))) / 1e6,
          machine: after.machine - before.machine,
        },
        rss: { ...peaks, nodeEnd: rss(target.pid) },
      });
    }
  } finally {
    await Promise.all(readers.map((r) => r.ask({ type: 'close' }, 'closed').catch(() => undefined)));
    await Promise.all(readers.map((r) => r.stop()));
  }
  return { results, limit };
}

/** The q-quantile of numbers sorted ascending. */
const quantile = (sorted: number[], q: number): number | null =>
  sorted.length === 0 ? null : (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number);
const ascending = (xs: number[]): number[] => [...xs].sort((a, b) => a - b);

const ms = (x: number | null) => (x === null ? '-' : Math.round(x).toString());
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const tally = (t: Record<string, number>) =>
  Object.entries(t)
    .map(([k, v]) => `${v} × ${k}`)
    .join(', ') || '-';

export function formatChat(results: StepResult[], limit: number): string {
  const out = [
    `Chat under load: feed readers through nginx (SSE, ${SAMPLE} of them timing messages), anonymous posts through nginx from many client ids (10 to a loopback address, so neither the per-viewer nor the per-network limit is what is measured); ${stepSeconds()} s of posting per step, readers added step by step`,
    `Goal: 5,000 readers and 50 posts/s with p95 post-to-screen ≤ 1 s. ${availableParallelism()} cores shared by the appliance, nginx, PostgreSQL and the bench's own clients (${READER_PROCESSES} reader processes + the poster); open files allowed per process: ${limit}`,
    '',
  ];
  out.push(
    ...table(
      [
        'step',
        'readers asked',
        'feeds open',
        'refused (total so far)',
        'closed in step',
        'posts/s asked',
        'sent',
        'answers',
        'POST p95 ms',
      ],
      results.map((r) => [
        `${r.step.readers} × ${r.step.postsPerSecond}/s (${r.step.note})`,
        r.step.readers,
        r.counts.open,
        `${tally(r.opened.refused)}${r.opened.withRetryAfter > 0 ? ` (${r.opened.withRetryAfter} with Retry-After)` : ''}${Object.keys(r.opened.errors).length > 0 ? `; no answer: ${tally(r.opened.errors)}` : ''}`,
        r.counts.closed,
        r.step.postsPerSecond,
        `${r.posted.sent}${r.posted.skipped > 0 ? ` (+${r.posted.skipped} not sent: ${POSTS_IN_FLIGHT} unanswered)` : ''}`,
        `${tally(r.posted.answers)}${r.posted.withRetryAfter > 0 ? ` (${r.posted.withRetryAfter} with Retry-After)` : ''}${Object.keys(r.posted.errors).length > 0 ? `; no answer: ${tally(r.posted.errors)}` : ''}`,
        ms(quantile(ascending(r.posted.answerMs), 0.95)),
      ]),
    ),
  );
  out.push('');
  out.push(
    ...table(
      [
        'step',
        'accepted/s',
        'delay p50 ms',
        'p95 ms',
        'p99 ms',
        'max ms',
        'sample got / expected',
        'delivered/s',
        'of expected',
        'MiB/s out',
        'node CPU',
        'node RSS MiB peak/end',
        'nginx CPU',
        'nginx RSS MiB',
        'PostgreSQL CPU',
        'bench clients CPU',
        'anything else',
      ],
      results.map((r) => {
        const accepted = r.posted.answers['201'] ?? 0;
        const expected = accepted * r.counts.open;
        const sampleExpected = accepted * r.report.sampleOpen;
        const d = ascending(r.report.delays);
        return [
          `${r.step.readers} × ${r.step.postsPerSecond}/s`,
          (accepted / r.seconds).toFixed(1),
          ms(quantile(d, 0.5)),
          ms(quantile(d, 0.95)),
          ms(quantile(d, 0.99)),
          ms(quantile(d, 1)),
          `${r.report.sampleMessages} / ${sampleExpected}`,
          Math.round(r.counts.messages / r.seconds),
          expected > 0 ? `${((100 * r.counts.messages) / expected).toFixed(0)}%` : '-',
          (r.counts.bytes / r.seconds / 2 ** 20).toFixed(1),
          (r.cpu.node / r.seconds).toFixed(2),
          `${mib(r.rss.nodePeak)} / ${mib(r.rss.nodeEnd)}`,
          (r.cpu.nginx / r.seconds).toFixed(2),
          mib(r.rss.nginxPeak),
          (r.cpu.postgres / r.seconds).toFixed(2),
          (r.cpu.clients / r.seconds).toFixed(2),
          (Math.max(0, r.cpu.machine - r.cpu.node - r.cpu.nginx - r.cpu.postgres - r.cpu.clients) / r.seconds).toFixed(
            2,
          ),
        ];
      }),
    ),
  );
  out.push(
    '',
    `CPU in cores (CPU-seconds per second of posting; the machine has ${availableParallelism()}), "anything else": the rest of the machine's busy time (other jobs, the kernel's share not charged to a process); delay = a sample reader parsing the message − the send time in its text (same clock);`,
    'delivered/s: message events read by all readers while posting, beside accepted posts × feeds open; refused readers are not retried.',
  );
  return out.join('\n');
}

export async function benchChat(): Promise<string> {
  const { served, stop } = await startServe();
  try {
    const stream = await api<{ id: string }>(served, 'POST', '/v1/streams', { name: 'Chat bench', record: false });
    const { results, limit } = await runChatSteps({
      playerUrl: served.playerUrl,
      streamId: stream.id,
      pid: served.pid,
      dataDir: served.dataDir,
    });
    return formatChat(results, limit);
  } finally {
    await stop();
  }
}
