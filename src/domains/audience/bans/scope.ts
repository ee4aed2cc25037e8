import type { Db } from '../../../platform/db/connect.js';
import { ownChannel, ownStream } from '../../streams/model.js';

/**
 * What a ban or a moderator covers: one stream, or every stream of a channel, present and future
 * (the spec's "moderation group"). Exactly one of the two is set, as on the rows.
 */
export type Scope = { stream_id: string; channel_id: null } | { stream_id: null; channel_id: string };

export const streamScope = (id: string): Scope => ({ stream_id: id, channel_id: null });
export const channelScope = (id: string): Scope => ({ stream_id: null, channel_id: id });
/** The id a row is keyed by (`scope_id`): the stream's or the channel's. */
export const scopeId = (scope: Scope): string => scope.stream_id ?? scope.channel_id;

/** A stream as bans and moderators see it. */
export interface ScopedStream {
  id: string;
  channel_id: string | null;
}

/** The scopes whose rows apply on a stream: its own, and its channel's when it is in one. */
export const scopesOf = (stream: ScopedStream): string[] =>
  stream.channel_id === null ? [stream.id] : [stream.id, stream.channel_id];

/** A scope as an API path names it, before it is checked to be the account's. */
export interface ScopeRef {
  kind: 'stream' | 'channel';
  id: string;
}

/** The account's stream or channel as a scope; any other id is `404 not_found`. */
export async function ownScope(db: Db, accountId: string, ref: ScopeRef): Promise<Scope> {
  return ref.kind === 'stream'
    ? streamScope((await ownStream(db, accountId, ref.id)).id)
    : channelScope(await ownChannel(db, accountId, ref.id));
}
