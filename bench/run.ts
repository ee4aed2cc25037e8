/** `npm run bench`: prints figures; it asserts nothing (tests check behaviour). */
import { benchApi, formatApiRows } from './api.bench.js';
import { benchCost } from './cost.bench.js';
import { benchWebhooks } from './webhooks.bench.js';
import { benchPipeline } from './pipeline.bench.js';

console.log(formatApiRows(await benchApi()));
console.log();
console.log(await benchCost());
console.log();
console.log(await benchWebhooks());
console.log();
console.log(await benchPipeline());
