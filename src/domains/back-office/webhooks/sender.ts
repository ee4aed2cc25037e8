import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { resolveTarget, TargetRefused, type Target, type TargetPolicy } from './ssrf.js';

/** What one attempt came to: the receiver's status code when it answered, and why it failed if it did. */
export interface SendOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/** The part of an answer read (and thrown away): enough to end the exchange, never unbounded. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * One POST to a webhook target. The host is resolved and checked by the SSRF guard, and the
 * socket connects to that very address (a `lookup` that answers with it), while TLS still
 * verifies the host name. Redirects are failures and are not followed. `timeoutMs` bounds
 * everything from the DNS lookup to the status line.
 */
export async function postWebhook(
  urlText: string,
  headers: Record<string, string>,
  body: string,
  opts: { policy: TargetPolicy; timeoutMs: number },
): Promise<SendOutcome> {
  const deadline = performance.now() + opts.timeoutMs;
  let target: Target;
  try {
    target = await resolveTarget(urlText, opts.policy, opts.timeoutMs);
  } catch (err) {
    return {
      ok: false,
      statusCode: null,
      error: err instanceof TargetRefused ? err.message : `target check failed: ${(err as Error).message}`,
    };
  }
  const remaining = deadline - performance.now();
  if (remaining <= 0) return { ok: false, statusCode: null, error: `timed out after ${opts.timeoutMs / 1000} s (DNS)` };
  return request(target, headers, body, remaining, opts.timeoutMs);
}

function request(
  target: Target,
  headers: Record<string, string>,
  body: string,
  remainingMs: number,
  timeoutMs: number,
): Promise<SendOutcome> {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address: target.address, family: target.family },
      ]);
    else callback(null, target.address, target.family);
  };
  const payload = Buffer.from(body);
  const options: https.RequestOptions = {
    method: 'POST',
    host: target.host,
    port: target.port,
    path: `${target.url.pathname}${target.url.search}`,
    headers: {
      ...headers,
      host: target.url.host,
      'content-type': 'application/json',
      'content-length': String(payload.length),
      'user-agent': 'svc-webhooks/1',
    },
    lookup: pinned,
    // A fresh connection each time: a pooled socket would skip the check of the next send.
    // TLS takes SNI and the certificate check from `host`, the name, not from the pinned address.
    agent: false,
  };
  const transport = target.url.protocol === 'https:' ? https : http;

  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const req = transport.request(options, (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 300) finish({ ok: true, statusCode: status, error: null });
      else if (status >= 300 && status < 400) {
        const location = res.headers.location ? ` to ${res.headers.location.slice(0, 300)}` : '';
        finish({ ok: false, statusCode: status, error: `redirect ${status}${location} not followed` });
      } else finish({ ok: false, statusCode: status, error: `receiver answered ${status}` });
      // Drain a bounded answer so the exchange ends cleanly; the deadline timer cuts the rest.
      let read = 0;
      res.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_RESPONSE_BYTES) req.destroy();
      });
      res.on('end', () => clearTimeout(timer));
      res.on('error', () => {});
    });
    const timer = setTimeout(() => {
      finish({ ok: false, statusCode: null, error: `timed out after ${timeoutMs / 1000} s` });
      req.destroy();
    }, remainingMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      finish({ ok: false, statusCode: null, error: describeSocketError(err) });
    });
    req.on('close', () => clearTimeout(timer));
    req.end(payload);
  });
}

function describeSocketError(err: NodeJS.ErrnoException): string {
  const code = err.code ?? '';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET') return 'connection reset by the receiver';
  if (code === 'ETIMEDOUT') return 'connection timed out';
  if (code.startsWith('ERR_TLS') || code.includes('CERT') || code === 'EPROTO') return `TLS failed: ${err.message}`;
  return code ? `${code}: ${err.message}` : err.message;
}
