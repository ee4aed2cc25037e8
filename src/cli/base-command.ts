import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, Errors, Flags, type Interfaces } from '@oclif/core';
import type { Config, ConfigEnv } from '../config/config.js';
import { systemClock } from '../core/clock.js';
import { loadConfig, localApiUrl } from '../config/config.js';
import { dataPaths, defaultDataDir, defaultEdgeDataDir } from '../config/paths.js';
import { isEdgeDataDir, loadEdgeConfig, readEdgeSecrets, type EdgeConfig, type EdgeSecrets } from '../config/edge.js';
import type { Secrets } from '../config/secrets.js';
import { readSecrets } from '../config/secrets.js';
import { ApiClient, retryBudget } from './api-client.js';
import { CliError, describeError } from './errors.js';
import { renderRecord, renderTable, type Column } from './table.js';

export type FlagsOf<T extends typeof Command> = Interfaces.InferredFlags<(typeof SvcCommand)['baseFlags'] & T['flags']>;
export type ArgsOf<T extends typeof Command> = Interfaces.InferredArgs<T['args']>;

/**
 * What every svc command shares: `--data-dir` and `--json`, the error envelope and exit codes,
 * loading the data dir's config. Commands return their data; human output is printed only
 * when JSON is off (`this.log` is silent under `--json`).
 */
export abstract class SvcCommand<T extends typeof Command> extends Command {
  static override enableJsonFlag = true;

  static override baseFlags = {
    'data-dir': Flags.string({
      summary: 'Appliance data directory (config, secrets, database, logs).',
      description: 'Defaults to $SVC_DATA_DIR, else /var/lib/svc for root and ~/.local/share/svc for other users.',
      env: 'SVC_DATA_DIR',
      helpGroup: 'GLOBAL',
    }),
  };

  protected flags!: FlagsOf<T>;
  /**
   * Console output goes into the appliance log (`svc up --detach`'s child): an error ending the
   * command is written as one JSON line like the log's own, not as text.
   */
  protected consoleIsLog = false;
  protected args!: ArgsOf<T>;
  private readonly cleanups: (() => Promise<void> | void)[] = [];

  public override async init(): Promise<void> {
    await super.init();
    const { args, flags } = await this.parse({
      flags: this.ctor.flags,
      baseFlags: (super.ctor as typeof SvcCommand).baseFlags,
      enableJsonFlag: this.ctor.enableJsonFlag,
      args: this.ctor.args,
      strict: this.ctor.strict,
    });
    this.flags = flags as FlagsOf<T>;
    this.args = args as ArgsOf<T>;
  }

  /** The data dir as an absolute path: flag, then SVC_DATA_DIR (read by the flag), then the default. */
  protected get dataDir(): string {
    return resolve(this.flags['data-dir'] ?? defaultDataDir(process.env));
  }

  /** An edge's data dir (`svc edge ...`): the flag, then SVC_DATA_DIR, then the edge's own default. */
  protected get edgeDataDir(): string {
    return resolve(this.flags['data-dir'] ?? defaultEdgeDataDir(process.env));
  }

  /** The edge of `edgeDataDir`, its files read and checked. */
  protected loadEdge(): { config: EdgeConfig; secrets: EdgeSecrets } {
    const dataDir = this.edgeDataDir;
    if (!isEdgeDataDir(dataDir))
      throw new CliError(
        'edge_not_joined',
        `${dataDir} holds no edge: join an origin first (\`svc edge join <origin-api-url> --token <token> --data-dir ${dataDir}\`)`,
      );
    return {
      config: loadEdgeConfig(dataDir, { SVC_LOG_LEVEL: process.env.SVC_LOG_LEVEL }),
      secrets: readEdgeSecrets(dataDir),
    };
  }

  protected get initialised(): boolean {
    return existsSync(dataPaths(this.dataDir).config);
  }

  /** The environment the config may be overridden from; only the CLI reads process.env. */
  protected get configEnv(): ConfigEnv {
    return {
      SVC_DATABASE_URL: process.env.SVC_DATABASE_URL,
      SVC_LOG_LEVEL: process.env.SVC_LOG_LEVEL,
      FFMPEG_PATH: process.env.FFMPEG_PATH,
    };
  }

  protected loadConfig(): Config {
    if (!this.initialised) {
      throw new CliError(
        'not_initialised',
        `${this.dataDir} is not initialised: run \`svc init --data-dir ${this.dataDir}\` (or \`svc up\`, which initialises it)`,
      );
    }
    return loadConfig(this.dataDir, this.configEnv);
  }

  protected loadSecrets(): Secrets {
    if (!existsSync(dataPaths(this.dataDir).secrets)) {
      throw new CliError(
        'not_initialised',
        `${dataPaths(this.dataDir).secrets} is missing: run \`svc init --data-dir ${this.dataDir}\``,
      );
    }
    return readSecrets(this.dataDir);
  }

  /** The HTTP API of this data dir's appliance (or --base-url), with --api-key / SVC_API_KEY. */
  protected apiClient(flags: {
    'api-key'?: string | undefined;
    'base-url'?: string | undefined;
    'retry-seconds'?: number | undefined;
  }): ApiClient {
    const config = flags['base-url'] === undefined ? this.loadConfig() : null;
    // With TLS the public name may not resolve on the machine itself; its loopback API always answers.
    const baseUrl = flags['base-url'] ?? (config?.tls ? localApiUrl(config) : config?.publicUrls.base_url);
    return new ApiClient(baseUrl as string, flags['api-key'], {
      budgetSeconds: retryBudget(flags['retry-seconds']),
      progress: (line) => this.progress(line),
    });
  }

  /** Runs when the command ends, failed or not (database pools, sockets). */
  protected defer(fn: () => Promise<void> | void): void {
    this.cleanups.push(fn);
  }

  /** Progress for people: stderr, so stdout stays one JSON document under --json. */
  protected progress(line: string): void {
    process.stderr.write(`${line}\n`);
  }

  protected printRecord(record: object, keys?: string[]): void {
    this.log(renderRecord(record as Record<string, unknown>, keys));
  }

  protected printTable<R extends object>(rows: R[], columns: Column<R>[], empty = 'nothing to show'): void {
    this.log(rows.length ? renderTable(rows, columns) : empty);
  }

  /** Secrets are shown once; say so where they are printed. */
  protected warnSecret(what: string): void {
    this.log(`\nStore the ${what} now: it is shown only this once and cannot be read again.`);
  }

  public override logJson(json: unknown): void {
    process.stdout.write(JSON.stringify(json, null, 2) + '\n');
  }

  protected override async catch(err: Error & { exitCode?: number }): Promise<void> {
    // this.exit() uses an ExitError to end the command with a chosen code.
    if (err instanceof Errors.ExitError) throw err;
    const described = describeError(err);
    process.exitCode = described.exitCode;
    if (this.consoleIsLog)
      process.stderr.write(
        `${JSON.stringify({ level: 50, time: systemClock.now().toISOString(), code: described.document.error.code, msg: described.line })}\n`,
      );
    else if (this.jsonEnabled()) this.logJson(described.document);
    else process.stderr.write(`Error: ${described.line}\n`);
    if (process.env.SVC_DEBUG && err.stack) process.stderr.write(`${err.stack}\n`);
  }

  protected override async finally(err: Error | undefined): Promise<void> {
    for (const fn of this.cleanups.reverse()) {
      try {
        await fn();
      } catch {
        // Cleanup is best effort; the command's own outcome is what gets reported.
      }
    }
    await super.finally(err);
  }
}
