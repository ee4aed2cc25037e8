/** The spec's error codes; the HTTP layer and the CLI both map from ApiError. */
export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'invalid_viewer_token'
  | 'insufficient_credit'
  | 'account_pending'
  | 'tenant_suspended'
  | 'viewer_removed'
  | 'viewer_access_ended'
  | 'viewer_token_required'
  | 'origin_not_allowed'
  | 'chat_disabled'
  | 'not_a_moderator'
  | 'chat_slow_mode'
  | 'chat_rate_limited'
  | 'chat_busy'
  | 'not_found'
  | 'stream_not_pending'
  | 'stream_ended'
  | 'recording_not_ready'
  | 'recording_not_failed'
  | 'thumbnail_not_ready'
  | 'already_publishing'
  | 'simulcast_not_supported'
  | 'codec_not_supported'
  | 'unsupported_media_type'
  | 'method_not_allowed'
  | 'idempotency_key_reused'
  | 'limit_pending_streams'
  | 'limit_creation_rate'
  | 'limit_ingest_hours'
  | 'limit_resolution'
  | 'limit_webhook_endpoints'
  | 'limit_api_keys'
  | 'limit_viewer_keys'
  | 'limit_live_streams'
  | 'limit_stream_outputs'
  | 'limit_channels'
  | 'channel_not_empty'
  | 'rate_limited'
  | 'no_capacity'
  | 'service_unavailable'
  | 'invalid_join_token'
  | 'edge_unauthorized'
  | 'log_position_moved'
  | 'internal_error';

export const STATUS_OF: Record<ErrorCode, number> = {
  invalid_request: 400,
  unauthorized: 401,
  invalid_viewer_token: 401,
  insufficient_credit: 402,
  account_pending: 403,
  tenant_suspended: 403,
  viewer_removed: 403,
  viewer_access_ended: 403,
  viewer_token_required: 401,
  origin_not_allowed: 403,
  chat_disabled: 403,
  not_a_moderator: 403,
  chat_slow_mode: 429,
  chat_rate_limited: 429,
  chat_busy: 503,
  not_found: 404,
  stream_not_pending: 409,
  stream_ended: 409,
  recording_not_ready: 409,
  recording_not_failed: 409,
  thumbnail_not_ready: 409,
  already_publishing: 409,
  simulcast_not_supported: 422,
  codec_not_supported: 422,
  unsupported_media_type: 415,
  method_not_allowed: 405,
  idempotency_key_reused: 422,
  limit_pending_streams: 429,
  limit_creation_rate: 429,
  limit_ingest_hours: 429,
  limit_resolution: 429,
  limit_webhook_endpoints: 429,
  limit_api_keys: 429,
  limit_viewer_keys: 429,
  limit_live_streams: 429,
  limit_stream_outputs: 429,
  limit_channels: 429,
  channel_not_empty: 409,
  rate_limited: 429,
  no_capacity: 503,
  service_unavailable: 503,
  invalid_join_token: 401,
  edge_unauthorized: 401,
  log_position_moved: 409,
  internal_error: 500,
};

export type ErrorDetails = Record<string, unknown>;

export class ApiError extends Error {
  readonly status: number;
  /** Seconds after which a retry can succeed; sent as Retry-After. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.status = STATUS_OF[code];
    const retry = details.retry_after_seconds;
    this.retryAfterSeconds = typeof retry === 'number' ? retry : undefined;
  }
}

export const notFound = (what: string): ApiError => new ApiError('not_found', `No such ${what}.`);
