import * as assert from 'uvu/assert';
import type { EventRow } from '../../src/domains/ledger/events/outbox.js';
import { lockStream, type StreamRow } from '../../src/domains/streams/model.js';
import * as transitions from '../../src/domains/streams/transitions.js';
import { createTestApi, type Reply, type TestApi } from './api.js';

/** Asserts the spec's error shape, the status and code, and `X-Request-Id` equal to `error.request_id`. */
export function assertError(res: Reply, status: number, code: string): void {
  assert.is(res.status, status, `expected ${status} ${code}, got ${res.status}: ${res.text}`);
  assert.ok(res.body && typeof res.body.error === 'object', `no error object: ${res.text}`);
  assert.equal(Object.keys(res.body).sort(), ['error']);
  const e = res.body.error;
  assert.equal(Object.keys(e).sort(), ['code', 'details', 'message', 'request_id']);
  assert.is(e.code, code, res.text);
  assert.type(e.message, 'string');
  assert.ok(e.message.length > 0);
  assert.ok(e.details !== null && typeof e.details === 'object' && !Array.isArray(e.details), 'details is an object');
  assert.match(e.request_id, /^req_[a-z0-9]{20}$/);
  assert.is(res.headers['x-request-id'], e.request_id);
}

/** `400 invalid_request` naming `field` in `details.field` and in the message. */
export function assertInvalidField(res: Reply, field: string): void {
  assertError(res, 400, 'invalid_request');
  assert.is(res.body.error.details.field, field, res.text);
  assert.ok(res.body.error.message.includes(field), `message names ${field}: ${res.body.error.message}`);
}

/** Creates a stream and returns the 201 body (a CreatedStream). */
export async function createStream(env: TestApi, key: string, body: unknown = {}) {
  const res = await env.call('POST', '/v1/streams', { key, body });
  assert.is(res.status, 201, res.text);
  return res.body;
}

/** What a publisher accepted by ingest does: `transitions.goLive` under the row lock. */
export async function goLive(env: TestApi, accountId: string, streamId: string): Promise<StreamRow> {
  return env.db.sql.begin(async (tx) => {
    const row = await lockStream(tx, accountId, streamId);
    if (!row) throw new Error(`no stream ${streamId}`);
    return transitions.goLive(tx, row, env.clock.now());
  });
}

export async function eventsOf(env: TestApi, streamId: string): Promise<EventRow[]> {
  return env.db.sql<EventRow[]>`select * from events where stream_id = ${streamId} order by seq`;
}

/** The spec's WebhookEvent for stream events: exactly these keys. */
export function assertStreamEvent(event: EventRow, type: string, stream: Record<string, unknown>): void {
  assert.is(event.type, type);
  assert.match(event.id, /^evt_[a-z0-9]{20}$/);
  const p = event.payload;
  assert.equal(Object.keys(p).sort(), ['data', 'timestamp', 'type']);
  assert.is(p.type, type);
  assert.is(new Date(p.timestamp).toISOString(), p.timestamp);
  assert.equal(Object.keys(p.data).sort(), [
    'channel_id',
    'created_at',
    'end_reason',
    'ended_at',
    'id',
    'metadata',
    'name',
    'object',
    'recording',
    'status',
    'went_live_at',
  ]);
  for (const k of [
    'id',
    'name',
    'channel_id',
    'status',
    'metadata',
    'created_at',
    'went_live_at',
    'ended_at',
    'end_reason',
  ]) {
    assert.equal(p.data[k], stream[k], `data.${k}`);
  }
  assert.is(p.data.object, 'stream');
  const rec = p.data.recording as Record<string, unknown> | null;
  const streamRec = stream.recording as Record<string, unknown> | null;
  if (streamRec === null) assert.is(rec, null);
  else {
    assert.equal(Object.keys(rec ?? {}).sort(), ['bytes', 'deleted_at', 'duration_seconds', 'ready_at', 'status']);
    assert.is(rec?.status, streamRec.status);
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A copy of `obj` without `keys`. */
export function without<T extends Record<string, unknown>>(obj: T, ...keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).filter(([k]) => !keys.includes(k)));
}

/**
 * What a CLI test drives its commands against: a listening test API, an account and one of its
 * streams, and the flags (`--base-url`, `--api-key`) that make `svc` a thin client of it.
 */
export async function listeningApiWithStream(): Promise<{ env: TestApi; flags: string[]; streamId: string }> {
  const env = await createTestApi();
  const { key } = await env.newAccount();
  const streamId = (await createStream(env, key)).id as string;
  const address = await env.api.app.listen({ host: '127.0.0.1', port: 0 });
  return { env, flags: ['--base-url', address, '--api-key', key], streamId };
}
