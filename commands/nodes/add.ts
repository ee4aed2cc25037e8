import { Flags } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import { JOIN_TOKEN_HOURS } from '../../src/domains/ledger/nodes/service.js';
import { localApiUrl } from '../../src/config/config.js';
import { openNodes } from '../../src/operator/nodes.js';

export default class NodesAdd extends SvcCommand<typeof NodesAdd> {
  static override summary = 'Add an ingest node to the cluster: prints a one-use join token.';
  static override description =
    'An ingest node is another machine that takes publishers and runs ladders, sharing this PostgreSQL: run the printed ' +
    `\`svc node join\` there within ${JOIN_TOKEN_HOURS} hours.`;
  static override examples = [
    '<%= config.bin %> nodes add --name ingest-2',
    '<%= config.bin %> nodes add --name ingest-2 --json',
  ];
  static override flags = {
    name: Flags.string({ summary: 'A name of your own: 1-63 lowercase letters, digits and dashes.', required: true }),
  };

  async run() {
    const config = this.loadConfig();
    const { nodes, close } = await openNodes(config, this.loadSecrets());
    this.defer(close);
    const added = await nodes.add(this.flags.name);
    const result = { id: added.node.id, object: 'node' as const, name: added.node.name, join_token: added.join_token };
    this.printRecord({ id: result.id, name: result.name, state: 'joining' });
    this.log('');
    this.log(`On the node's machine (within ${JOIN_TOKEN_HOURS} hours; the token works once):`);
    this.log(
      `  svc node join ${config.publicUrls.base_url} --token ${added.join_token} --host <its public address>${config.databaseUrl ? '' : ' --database-url <this PostgreSQL, reachable from there>'}`,
    );
    this.log(`(from this machine's own network, the API is also at ${localApiUrl(config)})`);
    this.warnSecret('join token');
    return result;
  }
}
