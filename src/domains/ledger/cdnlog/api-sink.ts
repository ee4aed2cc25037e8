import { JsonApiError, requestJson } from '../../../platform/http/json-client.js';
import type { ReaderPosition } from './queries.js';
import type { BatchRows, LogSink } from './sink.js';

interface WirePosition {
  file_id: string | null;
  byte_offset: number;
  counted_until: string | null;
}

const fromWire = (p: WirePosition): ReaderPosition => ({
  file_id: p.file_id,
  byte_offset: p.byte_offset,
  counted_until: p.counted_until === null ? null : new Date(p.counted_until),
});

/**
 * An edge's log batches, counted by the origin (`POST /edge/v1/log`, docs/decisions.md, "Edge
 * tier"): the origin adds a batch and moves the edge's position in one transaction, so a batch
 * sent again after a lost answer is refused (`log_position_moved`) and the reader goes on from
 * the position the origin has. Network failures are thrown: the edge retries later.
 */
export class ApiLogSink implements LogSink {
  constructor(
    private readonly originApiUrl: string,
    private readonly credential: string,
  ) {}

  async position(): Promise<ReaderPosition> {
    return fromWire(
      await requestJson<WirePosition>(`${this.originApiUrl}/edge/v1/log/position`, { bearer: this.credential }),
    );
  }

  async commit(from: ReaderPosition, to: ReaderPosition, batch: BatchRows): Promise<boolean> {
    try {
      await requestJson(`${this.originApiUrl}/edge/v1/log`, {
        bearer: this.credential,
        body: {
          from: { file_id: from.file_id, byte_offset: from.byte_offset },
          to: { ...to, counted_until: to.counted_until?.toISOString() ?? null },
          delivery: batch.delivery.map((r) => ({ ...r, minute: r.minute.toISOString() })),
          viewers: batch.viewers.map((r) => ({ ...r, minute: r.minute.toISOString() })),
          served: batch.served,
        },
        timeoutMs: 30_000,
      });
      return true;
    } catch (err) {
      if (err instanceof JsonApiError && err.code === 'log_position_moved') return false;
      throw err;
    }
  }
}
