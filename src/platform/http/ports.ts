import { createServer, type Server } from 'node:net';

/**
 * `count` distinct TCP ports free on `host` right now, none of them in `avoid`: all held open at
 * once (so none is handed out twice, and an avoided one the kernel offers is not offered again),
 * then released for the caller to listen on.
 */
export async function freePorts(host: string, count: number, avoid: readonly number[] = []): Promise<number[]> {
  const servers: Server[] = [];
  try {
    const ports: number[] = [];
    while (ports.length < count) {
      const server = createServer();
      servers.push(server);
      const port = await new Promise<number>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, host, () => resolve((server.address() as { port: number }).port));
      });
      if (!avoid.includes(port)) ports.push(port);
    }
    return ports;
  } finally {
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
}
