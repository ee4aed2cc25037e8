import { JsonApiError, requestJson } from '../../../platform/http/json-client.js';
import type { ReaderPosition } from '../cdnlog/queries.js';
import type { BatchRows, LogSink } from '../cdnlog/sink.js';
import { EDGE_API_PREFIX } from './routes.js';

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
 * An edge's log, counted by the origin (docs/decisions.md, "Edge tier"): each batch is posted with
 * the position it starts from, and the origin adds it and moves the position in one transaction. A
 * batch whose answer was lost is refused when sent again (`log_position_moved`): the reader then
 * asks where the position is and reads on from there. Nothing is lost, nothing counted twice. Any
 * other failure (the origin away, a refused credential) is thrown: the reader stops and its caller
 * tries again later.
 */
export class ApiLogSink implements LogSink {
  constructor(
    private readonly opts: {
      /** The origin's API (`base_url`). */
      originApiUrl: string;
      credential: string;
      /** One call's limit; a call cut short is tried again later (a batch that did count is then refused as moved). */
      timeoutMs?: number;
    },
  ) {}

  async position(): Promise<ReaderPosition> {
    return fromWire(await requestJson<WirePosition>(this.url('/log/position'), this.auth()));
  }

  async commit(from: ReaderPosition, to: ReaderPosition, batch: BatchRows): Promise<boolean> {
    try {
      await requestJson(this.url('/log'), {
        ...this.auth(),
        body: {
          from: { file_id: from.file_id, byte_offset: from.byte_offset },
          to: { ...to, counted_until: to.counted_until?.toISOString() ?? null },
          delivery: batch.delivery.map((r) => ({ ...r, minute: r.minute.toISOString() })),
          viewers: batch.viewers.map((r) => ({ ...r, minute: r.minute.toISOString() })),
          served: batch.served,
        },
      });
      return true;
    } catch (err) {
      if (err instanceof JsonApiError && err.code === 'log_position_moved') return false;
      throw err;
    }
  }

  private url(path: string): string {
    return `${this.opts.originApiUrl}${EDGE_API_PREFIX}${path}`;
  }

  private auth() {
    return { bearer: this.opts.credential, timeoutMs: this.opts.timeoutMs ?? 30_000 };
  }
}
