import { basename } from 'node:path';
import { commandLine, findProcesses } from '../platform/process/proc.js';

/** The programs the appliance starts under a data dir; anything else (a `tail -f` of its log) is left alone. */
const OURS = new Set(['nginx', 'ffmpeg', 'postgres']);
/** Its API worker processes: Node running this script (never `svc up` itself, which names the data dir too). */
const API_WORKER = 'api-worker.js';

export interface LeftoverProcess {
  pid: number;
  command: string;
}

/**
 * Processes of programs the appliance starts (nginx, ffmpeg, PostgreSQL, API workers) whose command line
 * names a path under `dataDir`: what a killed appliance can leave behind, found without its
 * config or pid files. Read from /proc.
 */
export function leftoverProcesses(dataDir: string): LeftoverProcess[] {
  const under = (arg: string) => arg === dataDir || arg.includes(`${dataDir}/`);
  const ours = (argv: string[]) =>
    (OURS.has(basename(argv[0] as string)) || basename(argv[1] ?? '') === API_WORKER) && argv.some(under);
  return findProcesses((argv) => ours(untitled(argv))).map((pid) => ({
    pid,
    command: commandLine(pid)?.join(' ') ?? '',
  }));
}

const NGINX_MASTER = 'nginx: master process ';

/**
 * nginx overwrites its master's command line with a title, "nginx: master process " and the
 * command line it was started with, as one argument. Its workers' titles name nothing: `svc down`
 * finds those of a killed master by its process group (`orphanedWorkers`).
 */
function untitled(argv: string[]): string[] {
  const first = argv[0] ?? '';
  return first.startsWith(NGINX_MASTER) ? first.slice(NGINX_MASTER.length).split(' ').filter(Boolean) : argv;
}
