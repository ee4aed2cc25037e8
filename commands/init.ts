import { SvcCommand } from '../src/cli/base-command.js';
import { configFlags } from '../src/cli/flags.js';
import { dataPaths } from '../src/config/paths.js';
import { configChanges, initialise, type InitResult } from '../src/operator/init.js';
import { runningPid } from '../src/operator/pid.js';

export default class Init extends SvcCommand<typeof Init> {
  static override summary = 'Create or update the data dir: config, secrets, system packages, database schema.';
  static override description =
    'Safe to run again: values already in config.json and the secrets are kept; flags given override. ' +
    'As root, missing system packages (nginx, libnginx-mod-rtmp, ffmpeg, postgresql) are installed with apt; otherwise the command to run is printed.';
  static override examples = [
    '<%= config.bin %> init',
    '<%= config.bin %> init --data-dir /srv/svc --host media.example.com --api-port 8080',
    '<%= config.bin %> init --database-url postgres://svc:secret@db.internal/svc --no-install --json',
  ];
  static override flags = { ...configFlags };

  async run(): Promise<InitResult> {
    const result = await initialise({
      dataDir: this.dataDir,
      changes: configChanges(this.flags),
      install: this.flags.install,
      env: this.configEnv,
      progress: (line) => this.progress(line),
    });
    this.log(`${result.created ? 'Initialised' : 'Updated'} ${result.data_dir}`);
    this.printRecord({
      config: result.config_file,
      secrets: `${result.secrets_file} (mode 0600)`,
      database: result.database.managed ? 'appliance-owned PostgreSQL' : 'external (database_url)',
      migrations: result.database.migrations_applied.length
        ? result.database.migrations_applied.join(', ')
        : 'up to date',
      packages: result.packages
        ? result.packages.installed.length
          ? `installed ${result.packages.installed.join(', ')}`
          : 'all present'
        : 'not checked (--no-install)',
      base_url: result.base_url,
      player_url: result.player_url,
      cdn_url: result.cdn_url,
      rtmp_url: result.rtmp_url,
    });
    if (result.allow_private_webhooks)
      this.log(
        'Warning: allow_private_webhooks is on: webhooks may target http and private addresses (local testing only).',
      );
    const pid = runningPid(dataPaths(result.data_dir).pidFile);
    if (pid !== null) {
      this.progress(
        `svc is running (pid ${pid}): restart it (\`svc down && svc up --detach\`) for config changes to take effect`,
      );
      return result;
    }
    this.log(`\nNext: svc up --detach${this.flags['data-dir'] ? ` --data-dir ${result.data_dir}` : ''}`);
    return result;
  }
}
