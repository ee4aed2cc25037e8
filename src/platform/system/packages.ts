import { CommandError, run } from '../process/run.js';

/** Debian packages the appliance runs on (design.md, "System packages"). */
export const SYSTEM_PACKAGES: readonly string[] = [
  'nginx',
  'libnginx-mod-rtmp',
  'libnginx-mod-http-geoip',
  'geoip-database',
  'libnginx-mod-http-js',
  'libnginx-mod-stream',
  'ffmpeg',
  'postgresql',
];
/**
 * The tests add Debian's Chromium, which drives the hosted player (never a downloaded browser),
 * Pebble, a real ACME server that issues the test certificates offline, iproute2 for the cluster
 * tests' network namespaces, and Ceph (a monitor, an OSD and radosgw), the real S3 server of the
 * object-storage tests.
 */
export const TEST_PACKAGES: readonly string[] = [
  ...SYSTEM_PACKAGES,
  'chromium',
  'pebble',
  'iproute2',
  'ceph-mon',
  'ceph-osd',
  'radosgw',
];

export interface SystemCommand {
  file: string;
  args: string[];
  env?: Record<string, string>;
}

// dpkg-query's own field syntax, not a template literal.
const DPKG_FORMAT = '${Package}\t${Status}\n';

export function dpkgQueryCommand(packages: readonly string[]): SystemCommand {
  return { file: 'dpkg-query', args: ['-W', `-f=${DPKG_FORMAT}`, ...packages] };
}

/**
 * Packages dpkg reports as installed. Lines look like `nginx\tinstall ok installed`;
 * removed-but-configured (`deinstall ok config-files`) and dpkg's "no packages found" lines do not count.
 */
export function parseInstalled(output: string): Set<string> {
  const installed = new Set<string>();
  for (const line of output.split('\n')) {
    const [name, status] = line.split('\t');
    if (!name || !status) continue;
    const [want, , state] = status.trim().split(/\s+/);
    if (want === 'install' && state === 'installed') installed.add(name.split(':')[0] as string);
  }
  return installed;
}

export function missingPackages(required: readonly string[], dpkgOutput: string): string[] {
  const installed = parseInstalled(dpkgOutput);
  return required.filter((p) => !installed.has(p));
}

/** `apt-get update` then one non-interactive install of exactly what is missing. */
export function aptInstallCommands(missing: readonly string[]): SystemCommand[] {
  if (missing.length === 0) return [];
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  return [
    { file: 'apt-get', args: ['update'], env },
    { file: 'apt-get', args: ['install', '-y', '--no-install-recommends', ...missing], env },
  ];
}

/** The same commands as one line an operator can paste (with sudo when not root). */
export function formatCommands(commands: readonly SystemCommand[], sudo: boolean): string {
  return commands.map((c) => [...(sudo ? ['sudo'] : []), c.file, ...c.args].join(' ')).join(' && ');
}

export class MissingPackagesError extends Error {
  constructor(
    readonly missing: string[],
    readonly command: string,
  ) {
    super(
      `missing system packages: ${missing.join(', ')}. Install them with \`${command}\` (or run \`svc init\` as root), then run this again`,
    );
  }
}

/** dpkg-query exits 1 when a package is unknown; its output still lists the known ones. */
export async function findMissingPackages(required: readonly string[] = SYSTEM_PACKAGES): Promise<string[]> {
  const { file, args } = dpkgQueryCommand(required);
  let output: string;
  try {
    output = await run(file, args);
  } catch (err) {
    if (!(err instanceof CommandError) || err.exitCode === undefined) {
      throw new Error(
        `cannot check system packages (${(err as Error).message}): this needs Debian or Ubuntu; install ${required.join(', ')} yourself and pass --no-install`,
      );
    }
    output = err.output;
  }
  return missingPackages(required, output);
}

export interface EnsurePackagesResult {
  checked: string[];
  missing: string[];
  installed: string[];
}

/** Installs what is missing when root (apt output goes to `onLine`); otherwise fails with the exact command. */
export async function ensureSystemPackages(opts: {
  isRoot: boolean;
  required?: readonly string[];
  onLine?: (line: string) => void;
}): Promise<EnsurePackagesResult> {
  const required = opts.required ?? SYSTEM_PACKAGES;
  const missing = await findMissingPackages(required);
  const commands = aptInstallCommands(missing);
  if (commands.length === 0) return { checked: [...required], missing: [], installed: [] };
  if (!opts.isRoot) throw new MissingPackagesError(missing, formatCommands(commands, true));
  for (const c of commands) {
    opts.onLine?.(`$ ${formatCommands([c], false)}`);
    await run(c.file, c.args, { env: c.env, onLine: opts.onLine, timeoutMs: 30 * 60_000 });
  }
  const still = await findMissingPackages(required);
  if (still.length) throw new MissingPackagesError(still, formatCommands(aptInstallCommands(still), false));
  return { checked: [...required], missing, installed: missing };
}
