import { Flags } from '@oclif/core';
import { systemClock } from '../../src/core/clock.js';
import { SvcCommand } from '../../src/cli/base-command.js';
import { presentEdge } from '../../src/domains/ledger/edges/present.js';
import { JOIN_TOKEN_HOURS } from '../../src/domains/ledger/edges/service.js';
import { localApiUrl } from '../../src/config/config.js';
import { openEdges } from '../../src/operator/edges.js';

export default class EdgesAdd extends SvcCommand<typeof EdgesAdd> {
  static override summary =
    'Add an edge (prints a one-use join token) or a third-party CDN (prints its origin header).';
  static override description =
    'An edge is another machine that serves viewers from its cache: run the printed `svc edge join` there within ' +
    `${JOIN_TOKEN_HOURS} hours. A CDN (--kind cdn) sends the printed X-Svc-Edge header on every fetch from this origin.`;
  static override examples = [
    '<%= config.bin %> edges add --name edge-1',
    '<%= config.bin %> edges add --name cloudfront --kind cdn --json',
  ];
  static override flags = {
    name: Flags.string({ summary: 'A name of your own: 1-63 lowercase letters, digits and dashes.', required: true }),
    kind: Flags.string({
      summary: 'edge (an svc edge) or cdn (a third-party CDN).',
      options: ['edge', 'cdn'],
      default: 'edge',
    }),
  };

  async run() {
    const config = this.loadConfig();
    const { edges, close } = await openEdges(config, this.loadSecrets());
    this.defer(close);
    const added = await edges.add({ name: this.flags.name, kind: this.flags.kind as 'edge' | 'cdn' });
    const result = {
      ...presentEdge(added.edge, systemClock.now()),
      join_token: added.join_token,
      credential: added.credential,
    };
    this.printRecord({ id: result.id, name: result.name, kind: result.kind, state: result.state });
    if (added.join_token) {
      this.log('');
      this.log(`On the edge machine (within ${JOIN_TOKEN_HOURS} hours; the token works once):`);
      this.log(`  svc edge join ${config.publicUrls.base_url} --token ${added.join_token}`);
      this.log(`(from this machine's own network, the API is also at ${localApiUrl(config)})`);
      this.warnSecret('join token');
    } else if (added.credential) {
      this.log('');
      this.log('Configure the CDN to send this header on every request to the origin:');
      this.log(`  X-Svc-Edge: ${added.credential}`);
      this.warnSecret('CDN credential');
    }
    return result;
  }
}
