import type { Clock } from '../../../core/clock.js';
import { ApiError, notFound } from '../../../core/errors.js';
import { newId } from '../../../core/ids.js';
import type { Sql, Tx } from '../../../platform/db/connect.js';
import { checkHostOnSave, TargetRefused, type HostPolicy } from '../../../platform/http/ssrf.js';
import type { Account } from '../../ledger/accounts/model.js';
import type { Idempotency } from '../../ledger/idempotency/service.js';
import { FINISHED, lockStream, ownStream, type StreamRow } from '../../streams/model.js';
import { presentOutput } from './present.js';
import * as q from './queries.js';
import {
  MAX_OUTPUTS,
  type CreateOutputBody,
  type PatchOutputBody,
  type StreamOutput,
  type StreamOutputList,
} from './schemas.js';
import { BadOutputUrl, keyRequired, parseOutputUrl, type OutputTarget } from './target.js';

export interface OutputsDeps {
  sql: Sql;
  clock: Clock;
  idempotency: Idempotency;
  /** `allowPrivate` is the operator's `allow_private_outputs`. */
  policy: HostPolicy;
}

const invalid = (field: string, message: string): ApiError => new ApiError('invalid_request', message, { field });

/**
 * Restreaming outputs of a stream, the API's side (docs/decisions.md, "Restreaming: outputs API"):
 * what the owner asks for. The node that pushes reads the rows and writes `status`, `last_error`,
 * `connected_at` and `bytes_sent`. The stream key is never answered whole nor logged.
 */
export class OutputsService {
  constructor(private readonly deps: OutputsDeps) {}

  async create(
    account: Account,
    streamId: string,
    body: CreateOutputBody,
    idempotencyKey: string | undefined,
  ): Promise<{ output: StreamOutput; replayed: boolean }> {
    // Checked before any transaction: the DNS lookup may take seconds, no lock is held meanwhile.
    // An unknown stream is still 404 before a bad URL is 400 (a stranger learns nothing from the order).
    await ownStream(this.deps.sql, account.id, streamId);
    const target = await this.checkUrl(body.url);
    const key = body.stream_key ?? '';
    checkKey(target, key);
    const work = async (tx: Tx): Promise<StreamOutput> => {
      await this.changeableStream(tx, account, streamId);
      // Counted under the stream's row lock: two creations at once cannot make a sixth.
      const current = await q.countOutputs(tx, streamId);
      if (current >= MAX_OUTPUTS)
        throw new ApiError(
          'limit_stream_outputs',
          `${current} outputs exist on this stream, the most allowed; delete one first.`,
          { limit: MAX_OUTPUTS, current },
        );
      const now = this.deps.clock.now();
      const row = await q.insertOutput(tx, {
        id: newId('out_'),
        stream_id: streamId,
        account_id: account.id,
        name: normaliseName(body.name ?? null),
        url: body.url,
        stream_key: key,
        enabled: body.enabled ?? true,
        created_at: now,
        updated_at: now,
      });
      return presentOutput(row);
    };
    if (!idempotencyKey) return { output: await this.deps.sql.begin(work), replayed: false };
    // The sealed answer holds the key masked only, like every answer.
    const result = await this.deps.idempotency.run(account.id, idempotencyKey, { streamId, body }, async (tx) => ({
      status: 201,
      body: await work(tx),
    }));
    return { output: result.body as StreamOutput, replayed: result.replayed };
  }

  async list(account: Account, streamId: string): Promise<StreamOutputList> {
    const stream = await ownStream(this.deps.sql, account.id, streamId);
    const rows = await q.listOutputs(this.deps.sql, stream.id);
    return { object: 'list', data: rows.map(presentOutput), has_more: false };
  }

  async get(account: Account, streamId: string, id: string): Promise<StreamOutput> {
    const stream = await ownStream(this.deps.sql, account.id, streamId);
    const row = await q.findOutput(this.deps.sql, stream.id, id);
    if (!row) throw notFound('output on this stream');
    return presentOutput(row);
  }

  /**
   * Fields left out stay. A new `url` or `stream_key` sets the output back to `idle` (its error and
   * connection time cleared): the pusher connects again with what was saved.
   */
  async update(account: Account, streamId: string, id: string, body: PatchOutputBody): Promise<StreamOutput> {
    await ownStream(this.deps.sql, account.id, streamId);
    const newTarget = body.url !== undefined ? await this.checkUrl(body.url) : null;
    return this.deps.sql.begin(async (tx) => {
      await this.changeableStream(tx, account, streamId);
      const row = await q.findOutput(tx, streamId, id);
      if (!row) throw notFound('output on this stream');
      const url = body.url ?? row.url;
      const key = body.stream_key === undefined ? row.stream_key : (body.stream_key ?? '');
      checkKey(newTarget ?? parseOutputUrl(url), key, body.stream_key === undefined && body.url !== undefined);
      const changes: q.OutputChanges = { updated_at: this.deps.clock.now() };
      if (body.name !== undefined) changes.name = normaliseName(body.name);
      if (body.enabled !== undefined) changes.enabled = body.enabled;
      if (url !== row.url || key !== row.stream_key) {
        Object.assign(changes, { url, stream_key: key, status: 'idle', last_error: null, connected_at: null });
      }
      return presentOutput(await q.updateOutput(tx, row.id, changes));
    });
  }

  /** Allowed whatever the stream's state (an ended stream's outputs can be tidied away). */
  async remove(account: Account, streamId: string, id: string): Promise<void> {
    const stream = await ownStream(this.deps.sql, account.id, streamId);
    if (!(await q.deleteOutput(this.deps.sql, stream.id, id))) throw notFound('output on this stream');
  }

  /** The stream, locked, while outputs may change: pending or live (its reconnect window included). */
  private async changeableStream(tx: Tx, account: Account, streamId: string): Promise<StreamRow> {
    const stream = await lockStream(tx, account.id, streamId);
    if (!stream) throw notFound('stream');
    if (FINISHED.includes(stream.status))
      throw new ApiError(
        'stream_ended',
        `The stream is ${stream.status}; outputs can be added or changed only while it is pending or live.`,
        { status: stream.status },
      );
    return stream;
  }

  private async checkUrl(url: string): Promise<OutputTarget> {
    try {
      const target = parseOutputUrl(url);
      await checkHostOnSave(target.host, this.deps.policy, { unresolved: 'refuse' });
      return target;
    } catch (err) {
      if (err instanceof BadOutputUrl || err instanceof TargetRefused) {
        const hint =
          err instanceof TargetRefused && !this.deps.policy.allowPrivate && !/does not resolve/.test(err.message)
            ? ' (private addresses are allowed only with the operator setting allow_private_outputs)'
            : '';
        throw invalid('url', `\`url\` ${err.message}${hint}.`);
      }
      throw err;
    }
  }
}

/** rtmp and rtmps need a key; `urlOnly`: the key was kept from before, so say why it is now needed. */
function checkKey(target: OutputTarget, key: string, urlOnly = false): void {
  if (key === '' && keyRequired(target.scheme))
    throw invalid(
      'stream_key',
      urlOnly
        ? `\`stream_key\` is required with an ${target.scheme} URL and this output has none; send one with the URL.`
        : `\`stream_key\` is required with an ${target.scheme} URL.`,
    );
}

const normaliseName = (name: string | null): string | null => (name === null || name.trim() === '' ? null : name);
