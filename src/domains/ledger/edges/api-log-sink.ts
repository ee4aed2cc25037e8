import type { ReaderPosition } from '../cdnlog/queries.js';
import type { BatchRows, LogSink } from '../cdnlog/sink.js';
import { EDGE_API_PREFIX } from './routes.js';

/** A call to the origin that did not give an answer to go on with: the reader stops and tries again later. */
export class OriginCallError extends Error {}

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
 * asks where the position is and reads on from there. Nothing is lost, nothing counted twice.
 */
export class ApiLogSink implements LogSink {
  constructor(
    private readonly opts: {
      /** The origin's API (`base_url`). */
      originApiUrl: string;
      credential: string;
      /** One call's limit; a call cut short is an error (tried again with the rest of the batch). */
      timeoutMs?: number;
    },
  ) {}

  async position(): Promise<ReaderPosition> {
    const res = await this.call('GET', '/log/position');
    if (res.status !== 200)
      throw new OriginCallError(`the origin answered ${res.status} for the log position: ${res.text}`);
    return fromWire(res.body as WirePosition);
  }

  async commit(from: ReaderPosition, to: ReaderPosition, batch: BatchRows): Promise<boolean> {
    const res = await this.call('POST', '/log', {
      from: { file_id: from.file_id, byte_offset: from.byte_offset },
      to: { ...to, counted_until: to.counted_until?.toISOString() ?? null },
      delivery: batch.delivery.map((r) => ({ ...r, minute: r.minute.toISOString() })),
      viewers: batch.viewers.map((r) => ({ ...r, minute: r.minute.toISOString() })),
      served: batch.served,
    });
    if (res.status === 200) return true;
    if (res.status === 409 && (res.body as { error?: { code?: string } } | null)?.error?.code === 'log_position_moved')
      return false;
    throw new OriginCallError(`the origin answered ${res.status} to a log batch: ${res.text}`);
  }

  private async call(method: string, path: string, body?: unknown) {
    let res: Response;
    try {
      res = await fetch(`${this.opts.originApiUrl}${EDGE_API_PREFIX}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${this.opts.credential}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? 30_000),
      });
    } catch (err) {
      throw new OriginCallError(`the origin did not answer: ${(err as Error).message}`, { cause: err });
    }
    const text = await res.text().catch(() => '');
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
    return { status: res.status, text: text.slice(0, 500), body: parsed };
  }
}
