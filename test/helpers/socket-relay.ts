/**
 * A byte relay between two stream sockets (TCP or unix), for the cluster harness: a node's
 * namespace reaches the test PostgreSQL through it (test/helpers/cluster.ts says why).
 * Run as a program inside a namespace: `node --import tsx socket-relay.ts <listen> <target>`,
 * where each is `host:port` or an absolute unix socket path; it prints `ready` once listening.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';
import { pathToFileURL } from 'node:url';

export type Endpoint = { path: string } | { host: string; port: number };

export function parseEndpoint(text: string): Endpoint {
  if (text.startsWith('/')) return { path: text };
  const at = text.lastIndexOf(':');
  return { host: text.slice(0, at), port: Number(text.slice(at + 1)) };
}

/** Each connection to `listen` gets its own connection to `target`; either end closing closes both (a killed server is seen as such). */
export function relay(listen: Endpoint, target: Endpoint): Promise<Server> {
  const server = createServer((client: Socket) => {
    const upstream = connect(target);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const s of [client, upstream]) {
      s.on('error', close);
      s.on('close', close);
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const ready = () => resolve(server);
    if ('path' in listen) server.listen(listen.path, ready);
    else server.listen(listen.port, listen.host, ready);
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [listen, target] = process.argv.slice(2);
  if (!listen || !target) throw new Error('usage: socket-relay.ts <listen> <target>');
  await relay(parseEndpoint(listen), parseEndpoint(target));
  console.log('ready');
}
