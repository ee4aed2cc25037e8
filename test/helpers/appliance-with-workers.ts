/**
 * An appliance with API workers in a process of its own, which prints its data dir and its
 * workers' pids as one JSON line and waits to be killed: the workers test kills it with SIGKILL.
 */
import { startTestAppliance } from './appliance.js';

const env = await startTestAppliance({ api_workers: 2 });
process.stdout.write(`${JSON.stringify({ dataDir: env.dataDir, workers: env.running.workers?.pids ?? [] })}\n`);
setInterval(() => {}, 1000);
