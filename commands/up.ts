import { Flags } from '@oclif/core';
import { dataPaths } from '../src/config/paths.js';
import { SvcCommand } from '../src/cli/base-command.js';
import { startDetached } from '../src/operator/detach.js';
import { OperatorError } from '../src/operator/errors.js';
import { CliError } from '../src/cli/errors.js';
import { configFlags } from '../src/cli/flags.js';
import { runForeground } from '../src/operator/foreground.js';
import { configChanges, ensureNodeIdentity, initialise, updateConfigFile } from '../src/operator/init.js';
import { runningPid } from '../src/operator/pid.js';
import { applianceStatus, describeStatus, type ApplianceStatus } from '../src/operator/status.js';

export default class Up extends SvcCommand<typeof Up> {
  static override summary = 'Start the appliance (PostgreSQL, API, jobs); in the foreground unless --detach.';
  static override description =
    'A data dir never initialised is initialised first (as `svc init` would, with the same flags). ' +
    'Config flags given for an initialised data dir update its config.json. Logs go to <data dir>/logs/svc.log.';
  static override examples = [
    '<%= config.bin %> up',
    '<%= config.bin %> up --detach',
    '<%= config.bin %> up --detach --data-dir /srv/svc --api-port 9080 --no-install',
  ];
  static override flags = {
    ...configFlags,
    detach: Flags.boolean({
      char: 'd',
      summary: 'Run in the background; return once every part answers its health check.',
    }),
    verbose: Flags.boolean({
      char: 'v',
      summary: 'Also print the logs on the console (at debug level unless log_level says more).',
    }),
    // Set by --detach for the process it starts, whose console is the log file: print nothing there but JSON lines.
    'detached-child': Flags.boolean({ hidden: true }),
  };

  async run(): Promise<ApplianceStatus | { stopped_by: string }> {
    if (this.jsonEnabled() && !this.flags.detach)
      throw new CliError(
        'invalid_usage',
        '--json needs --detach (the foreground appliance prints no JSON document)',
        {},
        2,
      );
    const dataDir = this.dataDir;
    const changes = configChanges(this.flags);
    const child = this.flags['detached-child'];
    this.consoleIsLog = child;
    // The child's progress is in the log already (the appliance logs each step).
    const progress = child ? () => {} : (line: string) => this.progress(line);
    if (!this.initialised) {
      progress(`${dataDir} is not initialised yet: initialising it`);
      await initialise({ dataDir, changes, install: this.flags.install, env: this.configEnv, progress });
    } else if (Object.keys(changes).length) {
      updateConfigFile(dataDir, changes);
      progress(`updated ${dataPaths(dataDir).config}: ${Object.keys(changes).join(', ')}`);
    }
    ensureNodeIdentity(dataDir);
    const config = this.loadConfig();
    const secrets = this.loadSecrets();

    const pid = runningPid(dataPaths(dataDir).pidFile);
    if (pid !== null) {
      this.log(`svc is already running (pid ${pid})`);
      return this.reportStatus();
    }
    if (this.flags.detach) {
      try {
        await startDetached({ config, args: this.flags.verbose ? ['--verbose'] : [], progress });
      } catch (err) {
        const tail = err instanceof OperatorError ? (err.details.log_tail as string[] | undefined) : undefined;
        if (tail?.length && !this.jsonEnabled()) for (const line of tail) process.stderr.write(`  | ${line}\n`);
        throw err;
      }
      return this.reportStatus();
    }
    return runForeground({
      config,
      secrets,
      verbose: this.flags.verbose,
      print: child ? () => {} : (line) => this.log(line),
      progress,
    });
  }

  private async reportStatus(): Promise<ApplianceStatus> {
    const status = await applianceStatus(this.loadConfig(), this.loadSecrets());
    for (const line of describeStatus(status)) this.log(line);
    return status;
  }
}
