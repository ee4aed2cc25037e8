import { Type, type Static } from '@sinclair/typebox';
import { Nullable, Timestamp } from '../../platform/http/schema-helpers.js';
import { ExpiresIn } from './model.js';

export const PlaybackTokenBody = Type.Object(
  { expires_in: Type.Optional(ExpiresIn('until the stream could no longer be live, plus one hour')) },
  { additionalProperties: false, 'x-optional-body': true, examples: [{ expires_in: 7200 }] },
);
export type PlaybackTokenBody = Static<typeof PlaybackTokenBody>;

export const PlaybackToken = Type.Object({
  object: Type.Literal('playback_token'),
  stream_id: Type.String(),
  playback_url: Type.String({
    description:
      'Signed HLS URL: `{cdn_url}/<signature_segment>/<stream_id>/master.m3u8`.' +
      ' With a third-party CDN in front (`cdn.token_form` `query`): `{cdn_url}/<stream_id>/master.m3u8?svc=<signature>`, and every playlist names what it lists with the same `svc`',
  }),
  expires_at: Nullable(Timestamp),
});
export type PlaybackToken = Static<typeof PlaybackToken>;
