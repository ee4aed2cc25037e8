/** The interface version; the changelog's newest entry must agree (test/docs checks it). */
export const API_VERSION = '1.8.0';

export const openapiInfo = {
  title: 'svc live video API',
  version: API_VERSION,
  description:
    'Create live streams, publish over RTMP or WHIP, watch through signed HLS and the hosted player. ' +
    'Errors share one shape: `{"error": {"code", "message", "details", "request_id"}}`; each error response lists its codes in `x-error-codes`.',
};
