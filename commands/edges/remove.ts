import { Args } from '@oclif/core';
import { SvcCommand } from '../../src/cli/base-command.js';
import { openEdges } from '../../src/operator/edges.js';

export default class EdgesRemove extends SvcCommand<typeof EdgesRemove> {
  static override summary =
    'Remove an edge or CDN: the origin refuses it at once and counting no longer waits for its log.';
  static override description =
    'Lines of its log not yet shipped are not counted: remove an edge that is gone for good, not one that is restarting.';
  static override examples = ['<%= config.bin %> edges remove edge-1'];
  static override args = { edge: Args.string({ description: 'Edge id (edg_...) or name.', required: true }) };

  async run() {
    const { edges, close } = await openEdges(this.loadConfig(), this.loadSecrets());
    this.defer(close);
    const id = await edges.remove(this.args.edge);
    this.log(`removed ${id}`);
    return { id, object: 'edge' as const, removed: true };
  }
}
