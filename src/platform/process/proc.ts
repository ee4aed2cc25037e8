import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * Processes as Linux's /proc shows them: what an appliance killed by SIGKILL left behind is
 * found here by its command line (the data dir is in every child's argv).
 */

/** The fields of /proc/PID/stat after the parenthesised command name (which may hold spaces): state, ppid, pgrp, ...; null once gone. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** Alive and not a zombie (an orphaned zombie still answers kill 0 until something reaps it). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  const fields = statFields(pid);
  return fields === null || fields[0] !== 'Z';
}

/** Linux's USER_HZ: /proc gives CPU times in these ticks whatever the kernel's own tick rate. */
const USER_HZ = 100;

/** CPU seconds (user and system) `pid` has used so far, or null once it is gone. */
export function cpuSeconds(pid: number): number | null {
  const fields = statFields(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) / USER_HZ : null;
}

/** The process group `pid` belongs to, or null once it is gone. */
export function processGroupOf(pid: number): number | null {
  const fields = statFields(pid);
  return fields ? Number(fields[2]) : null;
}

/** The processes whose parent is `pid`. */
export function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((child) => Number(statFields(child)?.[1]) === pid);
}

/** A process's argv, or null when it is gone (or a zombie, whose cmdline is empty). */
export function commandLine(pid: number): string[] | null {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return raw === '' ? null : raw.replace(/\0$/, '').split('\0');
  } catch {
    return null;
  }
}

/** Live processes other than this one whose argv `match` accepts. */
export function findProcesses(match: (argv: string[]) => boolean): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    const argv = commandLine(pid);
    if (argv && match(argv) && isAlive(pid)) found.push(pid);
  }
  return found;
}

/** SIGKILL to each process and its process group (the supervisor starts children as group leaders). */
export function killAll(pids: number[]): void {
  for (const pid of pids) {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // Not a group leader, or gone already.
      }
    }
  }
}

/**
 * A process group led by `pid` that is not this process's child (an earlier appliance's): the
 * stop signal to the group, up to `timeoutMs` for the leader to go, then SIGKILL to the group.
 */
export async function stopGroup(pid: number, signal: NodeJS.Signals, timeoutMs: number): Promise<void> {
  try {
    process.kill(-pid, signal);
  } catch {
    // Gone already.
  }
  const deadline = performance.now() + timeoutMs;
  while (isAlive(pid) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  killAll([pid]);
}

/** The live processes of process group `pgid` (a dead leader's group lives on while any member does). */
export function processesInGroup(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => processGroupOf(pid) === pgid && isAlive(pid));
}

/** Waits up to `timeoutMs` for every one of `pids` to be gone (a zombie has closed its files: its ports are free); false if one is still alive. */
export async function waitUntilGone(pids: number[], timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (pids.some(isAlive)) {
    if (performance.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

/** TCP states in /proc/net/tcp. */
const TCP_LISTEN = '0A';
const TCP_ESTABLISHED = '01';

/**
 * The inodes (as a file descriptor's link reads: `socket:[N]`) of the TCP sockets in `state` whose
 * local (`side` 1) or remote (2) port is `port`, on any address, IPv4 or IPv6.
 */
function tcpSockets(port: number, state: string, side: 1 | 2): Set<string> {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    // "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode"
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      const address = cols[side];
      if (!address || cols[3] !== state) continue;
      if (parseInt(address.slice(address.lastIndexOf(':') + 1), 16) === port) inodes.add(`socket:[${cols[9]}]`);
    }
  }
  return inodes;
}

/** Whether one of `pid`'s file descriptors is one of these sockets. */
function holdsOneOf(pid: number | string, inodes: Set<string>): boolean {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  return fds.some((fd) => {
    try {
      return inodes.has(readlinkSync(`/proc/${pid}/fd/${fd}`));
    } catch {
      return false;
    }
  });
}

/**
 * Whether process `pid` holds an established TCP connection to `port` (the SRT relay's to nginx);
 * false when it cannot be told.
 */
export function connectedTo(pid: number, port: number): boolean {
  const inodes = tcpSockets(port, TCP_ESTABLISHED, 2);
  return inodes.size > 0 && holdsOneOf(pid, inodes);
}

/**
 * The processes holding a listening TCP socket on `port` (any address, IPv4 or IPv6): who keeps a
 * port that nginx cannot bind. Only processes whose file descriptors this one may read (root: all).
 */
export function listenersOf(port: number): number[] {
  const inodes = tcpSockets(port, TCP_LISTEN, 1);
  if (inodes.size === 0) return [];
  const holders: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (/^\d+$/.test(entry) && holdsOneOf(entry, inodes)) holders.push(Number(entry));
  }
  return holders;
}
