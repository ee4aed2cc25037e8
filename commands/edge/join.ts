import { Args, Flags } from '@oclif/core';
import { edgeAddress, loadEdgeConfig } from '../../src/config/edge.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { joinOrigin, type JoinResult } from '../../src/operator/edge-join.js';
import { startEdgeDetached } from '../../src/operator/edge-run.js';
import { describeEdgeStatus, edgeStatus, type EdgeStatus } from '../../src/operator/edge-status.js';
import { OperatorError } from '../../src/operator/errors.js';

export default class EdgeJoin extends SvcCommand<typeof EdgeJoin> {
  static override summary = 'Join this machine to an origin as an edge, then start the edge (detached).';
  static override description =
    "Trades a one-use join token (from `svc edges add` on the origin) for this edge's credential and the origin's CDN keys, " +
    'writes <data dir>/edge.json and edge-secrets.json (0600), then starts the edge in the background like `svc edge up --detach`. ' +
    "The data dir defaults to /var/lib/svc-edge (root) or ~/.local/share/svc-edge, never the appliance's.";
  static override examples = [
    '<%= config.bin %> edge join http://origin.example.com:8080 --token ejt_...',
    '<%= config.bin %> edge join https://live.example.com --token ejt_... --cdn-port 80 --no-start',
  ];
  static override args = {
    origin: Args.string({ required: true, description: "The origin's API address (http(s)://host[:port])." }),
  };
  static override flags = {
    token: Flags.string({ required: true, summary: 'The join token `svc edges add` printed on the origin.' }),
    name: Flags.string({ summary: "This edge's name in its own status (default: the name given on the origin)." }),
    'listen-host': Flags.string({
      summary: 'Address viewers reach this edge on (default 0.0.0.0: every address).',
      default: '0.0.0.0',
    }),
    'cdn-port': Flags.integer({
      summary: "Port viewers reach this edge on (default 8081, the origin's CDN port).",
      min: 1,
      max: 65535,
      default: 8081,
    }),
    start: Flags.boolean({
      summary: 'Start the edge once joined (--no-start: only write its files).',
      allowNo: true,
      default: true,
    }),
  };

  async run(): Promise<{ joined: JoinResult; status: EdgeStatus | null }> {
    const dataDir = this.edgeDataDir;
    const listen = { listenHost: this.flags['listen-host'], cdnPort: this.flags['cdn-port'] };
    const joined = await joinOrigin({
      originApiUrl: this.args.origin,
      token: this.flags.token,
      dataDir,
      name: this.flags.name,
      ...listen,
      address: edgeAddress(listen),
    });
    this.log(`joined ${joined.origin_api_url} as edge ${joined.name} (${joined.edge_id}); files in ${dataDir}`);
    if (!this.flags.start) {
      this.log(`start it with \`svc edge up --detach --data-dir ${dataDir}\``);
      return { joined, status: null };
    }
    const config = loadEdgeConfig(dataDir);
    try {
      await startEdgeDetached({ config, args: [], progress: (line) => this.progress(line) });
    } catch (err) {
      const tail = err instanceof OperatorError ? (err.details.log_tail as string[] | undefined) : undefined;
      if (tail?.length && !this.jsonEnabled()) for (const line of tail) process.stderr.write(`  | ${line}\n`);
      throw err;
    }
    const status = await edgeStatus(config);
    for (const line of describeEdgeStatus(status)) this.log(line);
    return { joined, status };
  }
}
