import { createServer, type Server } from 'node:net';

/**
 * `count` distinct TCP ports free on `host` right now: all held open at once (so none is handed
 * out twice), then released for the caller to listen on.
 */
export async function freePorts(host: string, count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      ports.push(
        await new Promise<number>((resolve, reject) => {
          server.once('error', reject);
          server.listen(0, host, () => resolve((server.address() as { port: number }).port));
        }),
      );
    }
    return ports;
  } finally {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}
