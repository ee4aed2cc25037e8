import { Args, Flags } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import { configFlags } from '../../src/cli/flags.js';
import { configChanges } from '../../src/operator/init.js';
import { joinCluster, type NodeJoinResult } from '../../src/operator/node-join.js';

export default class NodeJoin extends SvcCommand<typeof NodeJoin> {
  static override summary = 'Join this machine to a cluster as an ingest node (then `svc up`).';
  static override description =
    "Trades a one-use join token (from `svc nodes add` on the primary) for this node's identity and the cluster's keys, " +
    'and initialises the data dir on the shared PostgreSQL (like `svc init`). Publishers reach this node at --host; ' +
    "its live media go to the primary, which viewers, edges and CDNs fetch from. The primary's object storage " +
    '(settings and key pair) is written here too: the node ships its publish sessions where the primary records from.';
  static override examples = [
    '<%= config.bin %> node join http://primary.example.com:8080 --token njt_... --host ingest-2.example.com --database-url postgres://svc:...@db.internal/svc',
  ];
  static override args = {
    primary: Args.string({ required: true, description: "The primary's API address (http(s)://host[:port])." }),
  };
  static override flags = {
    ...configFlags,
    token: Flags.string({ required: true, summary: 'The join token `svc nodes add` printed on the primary.' }),
  };

  async run(): Promise<NodeJoinResult> {
    const result = await joinCluster({
      primaryApiUrl: this.args.primary,
      token: this.flags.token,
      dataDir: this.dataDir,
      changes: configChanges({ ...this.flags, 'database-url': undefined }),
      databaseUrl: this.flags['database-url'],
      install: this.flags.install,
      env: this.configEnv,
      progress: (line) => this.progress(line),
    });
    this.printRecord({
      node: `${result.name} (${result.node_id})`,
      data_dir: result.data_dir,
      primary: result.primary_api_url,
      origin: result.origin_url,
      rtmp_url: result.rtmp_url,
      object_storage: result.storage ?? 'none: publish sessions go to the origin',
    });
    this.log(`\nNext: svc up --detach${this.flags['data-dir'] ? ` --data-dir ${result.data_dir}` : ''}`);
    return result;
  }
}
