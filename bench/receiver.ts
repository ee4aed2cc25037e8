/**
 * The webhook benchmark's receiver, in its own process so that it does not share the
 * dispatcher's event loop: answers 200 at once; prints its port, then per request the
 * `webhook-id` and the arrival time (epoch ms, sub-millisecond) on one line.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    process.stdout.write(`${String(req.headers['webhook-id'])} ${performance.timeOrigin + performance.now()}\n`);
    res.writeHead(200).end();
  });
});
server.listen(0, '127.0.0.1', () => console.log((server.address() as AddressInfo).port));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
