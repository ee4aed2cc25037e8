/**
 * The API as `svc up` serves it with workers (nginx on the API port, `api_workers` processes), over
 * the API bench's database, in a process of its own: started only for its rows, so that its idle
 * work (jobs, ticks, nginx) is not charged to the one-process rows. Prints one JSON line when ready.
 */
import { join } from 'node:path';
import { startAppliance } from '../src/composition/appliance.js';
import { resolveConfig } from '../src/config/config.js';
import { createLogger } from '../src/core/logger.js';
import { freePort } from '../test/helpers/ports.js';

const [dir, databaseUrl] = process.argv.slice(2) as [string, string];
const ports = {
  api_port: await freePort(),
  rtmp_port: await freePort(),
  cdn_port: await freePort(),
  player_port: await freePort(),
};
const appliance = await startAppliance({
  config: resolveConfig(join(dir, 'appliance'), { ...ports, database_url: databaseUrl }),
  secrets: { postgres_password: 'bench', signing_key: 'bench', data_key: 'bench' },
  logger: createLogger('warn'),
});
console.log(
  JSON.stringify({ url: `http://127.0.0.1:${ports.api_port}`, workers: appliance.workers?.pids.length ?? 0 }),
);

const shutdown = async () => {
  await appliance.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
