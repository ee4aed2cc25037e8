import { existsSync } from 'node:fs';
import { templateEnvironment } from '../core/resources.js';
import { run } from '../platform/process/run.js';

export const UNIT_NAME = 'svc.service';
export const SYSTEM_UNIT_DIR = '/etc/systemd/system';

export interface ServiceUnitInput {
  /** Absolute path of the Node.js binary (systemd has no PATH lookup for ExecStart's program worth relying on). */
  node: string;
  /** Absolute path of svc's bin/run.js. */
  bin: string;
  dataDir: string;
}

/** The text of templates/systemd/svc.service.njk for these values: nothing looked up, nothing written. */
export function renderServiceUnit(input: ServiceUnitInput): string {
  for (const [name, value] of Object.entries(input)) {
    // systemd splits ExecStart on whitespace and expands % and $: refuse what it would misread.
    if (!value.startsWith('/') || /[\s%$"'\\]/.test(value))
      throw new Error(`${name} must be an absolute path without spaces, quotes, % or $: ${value}`);
  }
  return templateEnvironment('config').render('systemd/svc.service.njk', {
    node: input.node,
    bin: input.bin,
    data_dir: input.dataDir,
  });
}

/** Where systemd is the running init (not in most containers). */
export const systemdRunning = (): boolean => existsSync('/run/systemd/system');

/** `systemctl daemon-reload`, then enable (and start, with `start`) the unit. */
export async function enableUnit(start: boolean): Promise<void> {
  await run('systemctl', ['daemon-reload']);
  if (start) await run('systemctl', ['enable', '--now', UNIT_NAME], { timeoutMs: 180_000 });
}
