import { Args, Flags } from '@oclif/core';
import { edgeAddress, loadEdgeConfig, type EdgeTlsFile } from '../../src/config/edge.js';
import { CliError } from '../../src/cli/errors.js';
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
    '<%= config.bin %> edge join https://live.example.com --token ejt_... --domain cdn.example.com --acme-email ops@example.com',
    '<%= config.bin %> edge join https://live.example.com --token ejt_... --domain cdn.example.com --certificate-file /etc/ssl/cdn.pem --key-file /etc/ssl/cdn.key',
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
    domain: Flags.string({
      summary:
        "Name viewers reach the edges by (the origin's cdn_url; several edges may share it): turns on https for viewers (needs --acme-email or --certificate-file).",
    }),
    'acme-email': Flags.string({
      summary: "Contact of the ACME account: this edge's certificate from Let's Encrypt (or --acme-directory).",
    }),
    'acme-directory': Flags.string({ summary: "ACME directory URL (default: Let's Encrypt's)." }),
    'acme-ca-file': Flags.string({ summary: 'PEM bundle to trust the ACME directory with (a private CA).' }),
    'certificate-file': Flags.string({
      summary: 'Your own certificate chain (PEM), instead of ACME; with --key-file.',
    }),
    'key-file': Flags.string({ summary: 'The key of --certificate-file (PEM).' }),
    'https-port': Flags.integer({
      summary: 'Port of https for viewers with --domain (default 443).',
      min: 1,
      max: 65535,
    }),
    'http-port': Flags.integer({
      summary: 'Port of ACME challenges and the redirect to https with --domain (default 80).',
      min: 1,
      max: 65535,
    }),
    start: Flags.boolean({
      summary: 'Start the edge once joined (--no-start: only write its files).',
      allowNo: true,
      default: true,
    }),
  };

  /** `tls` of edge.json from the flags; none without --domain (then the certificate's flags are refused). */
  private tlsFlags(): EdgeTlsFile | undefined {
    const f = this.flags;
    const given = [
      'acme-email',
      'acme-directory',
      'acme-ca-file',
      'certificate-file',
      'key-file',
      'https-port',
      'http-port',
    ] as const;
    if (f.domain === undefined) {
      const stray = given.find((name) => f[name] !== undefined);
      if (stray)
        throw new CliError('invalid_usage', `--${stray} needs --domain (the name viewers reach this edge by)`, {}, 2);
      return undefined;
    }
    const defined = <T extends object>(o: T): T =>
      Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
    const acme = defined({ email: f['acme-email'], directory_url: f['acme-directory'], ca_file: f['acme-ca-file'] });
    return defined({
      domain: f.domain,
      certificate_file: f['certificate-file'],
      key_file: f['key-file'],
      https_port: f['https-port'],
      http_port: f['http-port'],
      ...(Object.keys(acme).length ? { acme: acme as NonNullable<EdgeTlsFile['acme']> } : {}),
    });
  }

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
      tls: this.tlsFlags(),
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
