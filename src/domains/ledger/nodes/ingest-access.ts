import { dataPaths } from '../../../config/paths.js';
import { MarkerFolder } from '../../../platform/system/marker-folder.js';
import { NODE_ID } from './credentials.js';

/**
 * Which ingest nodes the origin's nginx lets write media (`/_ingest/`, docs/decisions.md, "Ingest
 * nodes: media to the origin"): an empty file per node in the data dir's media/nodes/, looked up
 * per request, so a removed node is refused at its next write without a reload.
 */
export class IngestAccess {
  private readonly folder: MarkerFolder;

  constructor(dataDir: string) {
    this.folder = new MarkerFolder(dataPaths(dataDir).nodesAllowed);
  }

  /** Exactly these nodes may write from now on (the active and draining ones: a draining node still publishes). */
  allow(nodeIds: readonly string[]): void {
    const bad = nodeIds.find((id) => !NODE_ID.test(id));
    // Ids come from the database; a malformed one would name a file nginx could never match.
    if (bad !== undefined) throw new Error(`not a node id: ${JSON.stringify(bad)}`);
    this.folder.reconcile(nodeIds);
  }
}
