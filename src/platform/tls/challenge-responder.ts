import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { TlsError } from './errors.js';

export const CHALLENGE_PATH = '/.well-known/acme-challenge/';

/** An ACME token is base64url: nothing else is ever a file name looked up in the folder. */
const TOKEN = /^[A-Za-z0-9_-]{1,256}$/;

export interface ChallengeResponder {
  port: number;
  stop(): Promise<void>;
}

export interface ChallengeResponderOptions {
  challengeDir: string;
  port: number;
  host?: string;
}

/**
 * Serves `/.well-known/acme-challenge/<token>` from `challengeDir` and nothing else (404): what
 * nginx does once it runs, for the first order at `svc up`, before nginx has a certificate to
 * start with. A port that cannot be bound is a TlsError saying what to do.
 */
export async function startChallengeResponder(options: ChallengeResponderOptions): Promise<ChallengeResponder> {
  const { challengeDir, port, host = '0.0.0.0' } = options;
  const server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] as string;
    const token = path.startsWith(CHALLENGE_PATH) ? path.slice(CHALLENGE_PATH.length) : '';
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !TOKEN.test(token)) {
      res.writeHead(404).end();
      return;
    }
    readFile(join(challengeDir, token)).then(
      (body) => res.writeHead(200, { 'content-type': 'text/plain' }).end(req.method === 'HEAD' ? undefined : body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new TlsError(`port ${port} is in use by another program: stop it or set tls.http_port`)
          : error.code === 'EACCES'
            ? new TlsError(
                `port ${port} needs root (or CAP_NET_BIND_SERVICE) to listen on: run svc up as root or set tls.http_port`,
              )
            : new TlsError(`cannot listen on ${host}:${port} for ACME challenges: ${error.message}`),
      ),
    );
    server.listen(port, host, resolve);
  });
  return {
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
