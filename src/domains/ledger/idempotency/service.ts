import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../../core/clock.js';
import { ApiError } from '../../../core/errors.js';
import type { Sql, Tx } from '../../../platform/db/connect.js';
import { deleteOlderThan, findRecord, lockKey, saveRecord } from './queries.js';

export const IDEMPOTENCY_WINDOW_SECONDS = 24 * 3600;

export interface StoredResponse {
  status: number;
  body: unknown;
}

/**
 * Idempotent creation: the first successful response under a key is stored (sealed, since it
 * holds a stream key) and replayed for 24 hours; the same key with another body is refused.
 * Failures are not stored, so a retry after fixing the cause (credit, limits) can succeed.
 */
export class Idempotency {
  private readonly key: Buffer;

  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
    dataKey: string,
  ) {
    this.key = createHash('sha256').update(dataKey).digest();
  }

  async run(
    accountId: string,
    idempotencyKey: string,
    requestBody: unknown,
    work: (tx: Tx) => Promise<StoredResponse>,
  ): Promise<StoredResponse & { replayed: boolean }> {
    const requestHash = createHash('sha256')
      .update(canonicalJson(requestBody ?? null))
      .digest();
    return this.sql.begin(async (tx) => {
      await lockKey(tx, accountId, idempotencyKey);
      const now = this.clock.now();
      const since = new Date(now.getTime() - IDEMPOTENCY_WINDOW_SECONDS * 1000);
      const existing = await findRecord(tx, accountId, idempotencyKey, since);
      if (existing) {
        if (!timingSafeEqual(existing.request_hash, requestHash)) {
          throw new ApiError(
            'idempotency_key_reused',
            'This Idempotency-Key was used with a different body; use a new key.',
            { field: 'idempotency-key' },
          );
        }
        return { status: existing.response_status, body: this.open(existing.response_sealed), replayed: true };
      }
      const response = await work(tx);
      await saveRecord(tx, {
        account_id: accountId,
        key: idempotencyKey,
        request_hash: requestHash,
        response_status: response.status,
        response_sealed: this.seal(response.body),
        created_at: now,
      });
      return { ...response, replayed: false };
    });
  }

  /** Removes records past the window (run by a job). */
  purge(): Promise<number> {
    return deleteOlderThan(this.sql, new Date(this.clock.now().getTime() - IDEMPOTENCY_WINDOW_SECONDS * 1000));
  }

  private seal(body: unknown): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(body)), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), data]);
  }

  private open(sealed: Buffer): unknown {
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(12, 28));
    return JSON.parse(Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString());
  }
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` count as the same body. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}
