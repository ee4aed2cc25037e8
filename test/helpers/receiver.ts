import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * A webhook receiver on loopback, as a client would write one: it verifies every request with
 * the `standardwebhooks` npm package (never with the appliance's own signing code) against the
 * secrets registered for its path, and answers as each test scripts it.
 */

export interface Received {
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** Per registered secret: whether `standardwebhooks` verified the request with it. */
  verified: Record<string, boolean>;
  verifyError: string | null;
}

export interface Answer {
  status: number;
  delayMs?: number;
  headers?: Record<string, string>;
}

export class Receiver {
  readonly requests: Received[] = [];
  private readonly secrets = new Map<string, string[]>();
  private readonly scripts = new Map<string, Answer[]>();
  private readonly waiters: (() => void)[] = [];

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<Receiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new Receiver(server, (server.address() as AddressInfo).port);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = (req.url ?? '/').split('?')[0] as string;
        const body = Buffer.concat(chunks).toString('utf8');
        const received = receiver.record(path, req.headers, body);
        const answer = receiver.next(path);
        const reply = () => {
          if (res.destroyed) return;
          const status = received.verifyError && answer.status < 300 ? 400 : answer.status;
          res.writeHead(status, { 'content-type': 'text/plain', ...answer.headers });
          res.end(received.verifyError ?? 'ok');
        };
        if (answer.delayMs) setTimeout(reply, answer.delayMs);
        else reply();
      });
    });
    return receiver;
  }

  url(path = '/hook', host = '127.0.0.1'): string {
    return `http://${host}:${this.port}${path}`;
  }

  /** Requests on `path` are verified with these secrets; a request none of them verifies gets 400. */
  expectSecrets(path: string, ...secrets: string[]): void {
    this.secrets.set(path, secrets);
  }

  /** The next answers on `path`, in order; once used up, 200. */
  script(path: string, ...answers: Answer[]): void {
    this.scripts.set(path, answers);
  }

  on(path: string): Received[] {
    return this.requests.filter((r) => r.path === path);
  }

  /** Waits until `path` has received `count` requests. */
  async waitFor(path: string, count: number, timeoutMs = 5000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.on(path).length < count) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`${path}: ${this.on(path).length} of ${count} requests after ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.on(path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private record(path: string, headers: IncomingHttpHeaders, body: string): Received {
    const verified: Record<string, boolean> = {};
    let verifyError: string | null = null;
    const secrets = this.secrets.get(path) ?? [];
    const flat = Object.fromEntries(
      Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
    );
    for (const secret of secrets) {
      try {
        new Webhook(secret).verify(body, flat);
        verified[secret] = true;
      } catch (err) {
        verified[secret] = false;
        verifyError ??= (err as Error).message;
      }
    }
    if (secrets.length && Object.values(verified).some(Boolean)) verifyError = null;
    const received = { at: Date.now(), path, headers, body, verified, verifyError };
    this.requests.push(received);
    for (const w of this.waiters.splice(0)) w();
    return received;
  }

  private next(path: string): Answer {
    return this.scripts.get(path)?.shift() ?? { status: 200 };
  }
}

/** `standardwebhooks` verifying one request with one secret. */
export function verifies(secret: string, r: Received): boolean {
  const flat = Object.fromEntries(
    Object.entries(r.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
  );
  try {
    new Webhook(secret).verify(r.body, flat);
    return true;
  } catch {
    return false;
  }
}
