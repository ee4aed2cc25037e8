/**
 * A parent that supervises `sleep 60` (with the parent-death signal when argv[2] is `die`),
 * prints the child's pid and waits to be killed: the supervisor test kills it with SIGKILL.
 */
import { createLogger } from '../../src/core/logger.js';
import { Supervisor } from '../../src/platform/process/supervisor.js';

const proc = new Supervisor().spawn({
  name: 'sleeper',
  file: 'sleep',
  args: ['60'],
  logger: createLogger('silent'),
  restart: () => false,
  dieWithParent: process.argv[2] === 'die',
});
process.stdout.write(`${proc.pid}\n`);
setInterval(() => {}, 1000);
