import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp } from '../../../platform/http/schema-helpers.js';

/** The events a push makes, once per transition (docs/decisions.md, "Restreaming: pushing"). */
export type OutputEventType = 'output.connected' | 'output.errored' | 'output.disconnected';

/** `data` of the `output.*` events: the output as the push saw it, never its key. */
export const OutputEventData = Type.Object(
  {
    object: Type.Literal('output'),
    id: Type.String({ description: 'The output', examples: ['out_3k2m9q7x1c4v6b0n5z8f'] }),
    stream_id: Type.String({ pattern: '^str_[a-z0-9]{20}$', examples: ['str_8f3k2m9q7x1c4v6b0n5z'] }),
    name: Nullable(Type.String()),
    url: Type.String({
      description: 'The target without its stream key',
      examples: ['rtmp://a.rtmp.youtube.com/live2'],
    }),
    status: StringEnum(['idle', 'connecting', 'active', 'errored'] as const),
    last_error: Nullable(
      Type.String({ description: "Why the last attempt failed, in the receiver's or ffmpeg's words" }),
    ),
    connected_at: Nullable({ ...Timestamp, description: 'When media last began to flow to the target' }),
  },
  {
    $id: 'OutputEventData',
    additionalProperties: false,
    description: 'A restreaming output whose push connected, failed or stopped',
  },
);
export type OutputEventData = Static<typeof OutputEventData>;

export function outputEventData(
  row: { id: string; stream_id: string; name: string | null; url: string },
  state: { status: OutputEventData['status']; lastError: string | null; connectedAt: Date | null },
): OutputEventData {
  return {
    object: 'output',
    id: row.id,
    stream_id: row.stream_id,
    name: row.name,
    url: row.url,
    status: state.status,
    last_error: state.lastError,
    connected_at: state.connectedAt?.toISOString() ?? null,
  };
}
