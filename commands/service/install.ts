import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Flags } from '@oclif/core';
import { dataPaths } from '../../src/config/paths.js';
import { packageRoot } from '../../src/core/package-root.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { CliError } from '../../src/cli/errors.js';
import { runningPid } from '../../src/operator/pid.js';
import {
  enableUnit,
  renderServiceUnit,
  SYSTEM_UNIT_DIR,
  systemdRunning as isSystemdRunning,
  UNIT_NAME,
} from '../../src/operator/service-unit.js';

export interface ServiceInstallResult {
  unit_file: string;
  data_dir: string;
  /** False where systemd is not the running init (a container): the unit is written, nothing enabled. */
  systemd_running: boolean;
  enabled: boolean;
  started: boolean;
}

export default class ServiceInstall extends SvcCommand<typeof ServiceInstall> {
  static override summary = 'Install a systemd unit that keeps the appliance running (restarted if it dies).';
  static override description =
    `Writes ${SYSTEM_UNIT_DIR}/${UNIT_NAME} for this data dir (Restart=always), then, where systemd runs, reloads it, enables the unit and starts it. ` +
    'Stop an appliance started with `svc up --detach` first: systemd must own the process it restarts.';
  static override examples = [
    '<%= config.bin %> service install',
    '<%= config.bin %> service install --data-dir /srv/svc --no-start',
  ];
  static override flags = {
    start: Flags.boolean({
      summary: 'Enable and start the unit now (where systemd runs).',
      default: true,
      allowNo: true,
    }),
    'unit-dir': Flags.string({ summary: 'Where the unit file goes.', default: SYSTEM_UNIT_DIR, hidden: true }),
  };

  async run(): Promise<ServiceInstallResult> {
    const dataDir = this.dataDir;
    const unit = renderServiceUnit({ node: process.execPath, bin: join(packageRoot, 'bin', 'run.js'), dataDir });
    const systemdRunning = isSystemdRunning();
    const detached = runningPid(dataPaths(dataDir).pidFile);
    if (this.flags.start && systemdRunning && detached !== null) {
      throw new CliError(
        'already_running',
        `svc is already running (pid ${detached}) outside systemd: stop it with \`svc down --data-dir ${dataDir}\`, then install again`,
      );
    }
    mkdirSync(this.flags['unit-dir'], { recursive: true });
    const unitFile = join(this.flags['unit-dir'], UNIT_NAME);
    writeFileSync(unitFile, unit, { mode: 0o644 });
    this.log(`wrote ${unitFile}`);
    const result: ServiceInstallResult = {
      unit_file: unitFile,
      data_dir: dataDir,
      systemd_running: systemdRunning,
      enabled: false,
      started: false,
    };
    if (!systemdRunning) {
      this.log('systemd is not running on this machine: the unit is written but not enabled.');
      return result;
    }
    if (this.flags.start) this.progress(`enabling and starting ${UNIT_NAME}`);
    await enableUnit(this.flags.start);
    if (this.flags.start) {
      result.enabled = result.started = true;
      this.log(
        `${UNIT_NAME} is enabled and started: \`systemctl status svc\`, logs in ${dataPaths(dataDir).applianceLog}`,
      );
    } else {
      this.log(`start it with \`systemctl enable --now ${UNIT_NAME}\``);
    }
    return result;
  }
}
