/**
 * `npm run bench`: prints figures; it asserts nothing (tests check behaviour).
 * `npm run bench -- player pipeline` runs only the benches named.
 */
import { benchApi, formatApiRows } from './api.bench.js';
import { benchApiNodes } from './api-nodes.bench.js';
import { benchCdnLog } from './cdnlog.bench.js';
import { benchChat } from './chat.bench.js';
import { benchCost } from './cost.bench.js';
import { benchEdges } from './edges.bench.js';
import { benchIdentity } from './identity.bench.js';
import { benchWebhooks } from './webhooks.bench.js';
import { benchPipeline } from './pipeline.bench.js';
import { benchSegment } from './segment.bench.js';
import { benchPlayer } from './player.bench.js';
import { benchLoadLive } from './load-live.bench.js';
import { benchWhip } from './whip.bench.js';
import { benchTls } from './tls.bench.js';
import { benchIngest } from './ingest.bench.js';
import { benchWhipStart } from './whip-start.bench.js';
import { benchOriginStore } from './origin-store.bench.js';
import { benchStorage } from './storage.bench.js';
import { benchNodes } from './nodes.bench.js';
import { benchOutputs } from './outputs.bench.js';

const benches: Record<string, () => Promise<string>> = {
  api: async () => formatApiRows(await benchApi()),
  'api-nodes': benchApiNodes,
  cost: benchCost,
  webhooks: benchWebhooks,
  pipeline: benchPipeline,
  segment: benchSegment,
  player: benchPlayer,
  load: benchLoadLive,
  cdnlog: benchCdnLog,
  identity: benchIdentity,
  whip: benchWhip,
  'whip-start': benchWhipStart,
  chat: benchChat,
  tls: benchTls,
  ingest: benchIngest,
  edges: benchEdges,
  'origin-store': benchOriginStore,
  storage: benchStorage,
  nodes: benchNodes,
  outputs: benchOutputs,
};

const chosen = process.argv.slice(2);
const unknown = chosen.filter((name) => !(name in benches));
if (unknown.length > 0)
  throw new Error(`unknown bench ${unknown.join(', ')}; known: ${Object.keys(benches).join(', ')}`);
const names = chosen.length > 0 ? chosen : Object.keys(benches);
for (const [i, name] of names.entries()) {
  if (i > 0) console.log();
  console.log(await (benches[name] as () => Promise<string>)());
}
