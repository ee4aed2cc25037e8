import { Type, type Static } from '@sinclair/typebox';
import { Timestamp } from '../../../platform/http/schema-helpers.js';
import { ExpiresIn } from '../../streams/model.js';

export const DownloadBody = Type.Object(
  { expires_in: Type.Optional(ExpiresIn('3600', 3600)) },
  { additionalProperties: false, 'x-optional-body': true, examples: [{ expires_in: 3600 }] },
);
export type DownloadBody = Static<typeof DownloadBody>;

export const RecordingDownload = Type.Object({
  object: Type.Literal('recording_download'),
  stream_id: Type.String(),
  url: Type.String({
    description:
      '`{cdn_url}/<signature_segment>/_rec/<stream_id>/recording.mp4` (with a third-party CDN in front, `cdn.token_form` `query`: `{cdn_url}/_rec/<stream_id>/recording.mp4?svc=<signature>`); supports range requests',
  }),
  bytes: Type.Integer(),
  expires_at: Timestamp,
});
export type RecordingDownload = Static<typeof RecordingDownload>;
