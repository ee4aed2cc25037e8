import { Agent, get } from 'node:http';

/** What a CDN client received: the body bytes of its 2xx answers (what the CDN log reader counts). */
export interface Received {
  bytes: number;
  requests: number;
  /** Segments fetched with a 2xx answer. */
  segments: number;
  /** Answers with a 5xx status (a CDN or edge that could not serve). */
  serverErrors?: number;
}

/**
 * A GET from `localAddress` (loopback 127.0.0.x: the test's country table maps them) with a user
 * agent; the body's bytes are counted when the answer is 2xx.
 */
export function fetchFrom(
  url: string,
  opts: { localAddress: string; userAgent: string; agent?: Agent; range?: string },
  into: Received,
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'user-agent': opts.userAgent };
    if (opts.range) headers.range = opts.range;
    const req = get(url, { localAddress: opts.localAddress, headers, agent: opts.agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const status = res.statusCode ?? 0;
        into.requests++;
        if (status >= 200 && status < 300) into.bytes += body.length;
        if (status >= 500) into.serverErrors = (into.serverErrors ?? 0) + 1;
        resolve({ status, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/**
 * A player in a loop until `stop()`: the master playlist, its first rendition's playlist, and
 * every segment listed that it has not fetched yet, about once a second, from one address.
 */
export function watchStream(
  playbackUrl: string,
  opts: { localAddress: string; userAgent: string },
): { received: Received; stop: () => Promise<Received> } {
  const received: Received = { bytes: 0, requests: 0, segments: 0 };
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const base = playbackUrl.slice(0, playbackUrl.lastIndexOf('/') + 1);
  const fetched = new Set<string>();
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        const master = await fetchFrom(playbackUrl, { ...opts, agent }, received);
        const variant =
          master.status === 200
            ? master.body
                .toString()
                .split('\n')
                .find((l) => /\.m3u8(\?.*)?$/.test(l))
            : undefined;
        if (variant) {
          const media = await fetchFrom(base + variant, { ...opts, agent }, received);
          const segments =
            media.status === 200
              ? media.body
                  .toString()
                  .split('\n')
                  .filter((l) => /\.ts(\?.*)?$/.test(l))
              : [];
          for (const segment of segments) {
            if (fetched.has(segment)) continue;
            const res = await fetchFrom(base + segment, { ...opts, agent }, received);
            if (res.status === 200) {
              fetched.add(segment);
              received.segments++;
            }
          }
        }
      } catch {
        // The CDN may be briefly away (a restart): try again.
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  return {
    received,
    async stop() {
      running = false;
      await loop;
      agent.destroy();
      return received;
    },
  };
}

/** `url` with the first character of its `svc=` token changed (to another one, whatever it was). */
export const tamperedToken = (url: string): string =>
  url.replace(/svc=(.)/, (_m, c: string) => `svc=${c === 'A' ? 'B' : 'A'}`);
