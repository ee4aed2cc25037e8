import { requestJson } from '../../../platform/http/json-client.js';
import type { ChallengeShare } from '../../../platform/tls/acme.js';
import { EDGE_API_PREFIX } from './routes.js';

/**
 * An edge's ACME tokens put at the origin (docs/decisions.md, "Edges over https"): the CA's fetch
 * for a name several edges share may reach another edge, which asks the origin for a token it
 * does not hold.
 */
export class ApiChallengeShare implements ChallengeShare {
  constructor(private readonly opts: { originApiUrl: string; credential: string; timeoutMs?: number }) {}

  async put(token: string, keyAuthorization: string): Promise<void> {
    await requestJson(this.url(token), {
      method: 'PUT',
      body: { key_authorization: keyAuthorization },
      bearer: this.opts.credential,
      timeoutMs: this.opts.timeoutMs ?? 10_000,
    });
  }

  async remove(token: string): Promise<void> {
    await requestJson(this.url(token), {
      method: 'DELETE',
      bearer: this.opts.credential,
      timeoutMs: this.opts.timeoutMs ?? 10_000,
    });
  }

  private url(token: string): string {
    return `${this.opts.originApiUrl}${EDGE_API_PREFIX}/acme-challenge/${encodeURIComponent(token)}`;
  }
}
