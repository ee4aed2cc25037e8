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
  return findProcesses((argv) => (OURS.has(basename(argv[0] as string)) || basename(argv[1] ?? '') === API_WORKER) && argv.some(under)).map((pid) => ({ pid, command: commandLine(pid)?.join(' ') ?? '' }));
}
