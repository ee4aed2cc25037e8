import { KEYED, operations } from '../../../platform/http/openapi.js';
import type { BalanceEventData } from '../../ledger/billing/schemas.js';
import type { EventType } from '../../ledger/events/outbox.js';
import type { StreamEventData } from '../../streams/transitions.js';
import { RETRY_SCHEDULE_SECONDS } from './schemas.js';

/**
 * The OpenAPI 3.1 `webhooks` section: what the appliance POSTs to an endpoint, one entry per
 * event type. A `Record` over `EventType`, so a new type cannot be written without describing it.
 */

/** The schema of `data` and, where the fields must agree, an example body (`timestamp` is when it happened). */
type Data =
  | { schema: 'StreamEventData'; example: { timestamp: string; data: StreamEventData } }
  | { schema: 'BalanceEventData'; example: { timestamp: string; data: BalanceEventData } }
  | { schema: 'StreamOutput'; example: { timestamp: string; data: OutputExample } }
  | { schema: 'WebhookEndpoint' };

/** engine/outputs' `StreamOutput` (a sibling group: its shape is repeated here, the schema is named). */
interface OutputExample {
  object: 'stream_output';
  id: string;
  stream_id: string;
  name: string | null;
  url: string;
  stream_key: string | null;
  enabled: boolean;
  status: 'idle' | 'connecting' | 'active' | 'errored';
  last_error: string | null;
  connected_at: string | null;
  bytes_sent: number;
  created_at: string;
  updated_at: string;
}

const at = '2026-11-22T14:00:00.000Z';
const stream = (changes: Partial<StreamEventData>): StreamEventData => ({
  object: 'stream',
  id: 'str_8f3k2m9q7x1c4v6b0n5z',
  name: 'Friday town hall',
  channel_id: 'chn_4v6b0n5z8f3k2m9q7x1c',
  status: 'live',
  metadata: { event_id: 'evt-42' },
  created_at: '2026-11-22T13:52:10.000Z',
  went_live_at: at,
  ended_at: null,
  end_reason: null,
  recording: { status: 'recording', bytes: null, duration_seconds: null, ready_at: null, deleted_at: null },
  ...changes,
});
const ended = { status: 'ended', ended_at: '2026-11-22T15:04:31.000Z', end_reason: 'deleted' } as const;
const recorded = {
  status: 'ready',
  bytes: 1_840_000_000,
  duration_seconds: 3871.4,
  ready_at: '2026-11-22T15:06:02.000Z',
  deleted_at: null,
} as const;
const balance = (changes: Partial<BalanceEventData>): BalanceEventData => ({
  object: 'balance',
  account_id: 'acc_2m9q7x1c4v6b0n5z8f3k',
  billing_mode: 'prepaid',
  balance_usd: '5.12',
  available_usd: '4.87',
  low_credit_usd: '5.00',
  balance_depleted_at: null,
  ...changes,
});
const depleted = {
  balance_usd: '-0.03',
  available_usd: '-0.21',
  balance_depleted_at: '2026-11-22T16:10:00.000Z',
} as const;

const output = (changes: Partial<OutputExample>): OutputExample => ({
  object: 'stream_output',
  id: 'out_6b0n5z8f3k2m9q7x1c4v',
  stream_id: 'str_8f3k2m9q7x1c4v6b0n5z',
  name: 'YouTube',
  url: 'rtmp://a.rtmp.youtube.com/live2',
  stream_key: '••••qrst',
  enabled: true,
  status: 'active',
  last_error: null,
  connected_at: '2026-11-22T14:00:02.000Z',
  bytes_sent: 0,
  created_at: '2026-11-22T13:55:00.000Z',
  updated_at: '2026-11-22T14:00:02.000Z',
  ...changes,
});

const EVENTS: Record<EventType, { summary: string; data: Data }> = {
  'stream.live': {
    summary: 'The publisher connected and the stream went live (not sent again for a reconnection within 60 s)',
    data: { schema: 'StreamEventData', example: { timestamp: at, data: stream({}) } },
  },
  'stream.ended': {
    summary: 'A live stream is over; `data.end_reason` says why',
    data: {
      schema: 'StreamEventData',
      example: {
        timestamp: ended.ended_at,
        data: stream({
          ...ended,
          recording: { ...recorded, status: 'processing', bytes: null, duration_seconds: null, ready_at: null },
        }),
      },
    },
  },
  'stream.expired': {
    summary: 'Nothing connected within the 30-minute reservation',
    data: {
      schema: 'StreamEventData',
      example: {
        timestamp: '2026-11-22T14:22:10.000Z',
        data: stream({
          status: 'expired',
          went_live_at: null,
          ended_at: '2026-11-22T14:22:10.000Z',
          end_reason: 'reservation_ttl',
          recording: { status: 'none', bytes: null, duration_seconds: null, ready_at: null, deleted_at: null },
        }),
      },
    },
  },
  'stream.cancelled': {
    summary: 'Deleted before it went live',
    data: {
      schema: 'StreamEventData',
      example: {
        timestamp: '2026-11-22T13:58:40.000Z',
        data: stream({
          status: 'cancelled',
          went_live_at: null,
          ended_at: '2026-11-22T13:58:40.000Z',
          recording: { status: 'none', bytes: null, duration_seconds: null, ready_at: null, deleted_at: null },
        }),
      },
    },
  },
  'recording.ready': {
    summary: 'The MP4 can be downloaded (`POST /v1/streams/{id}/recording/download`)',
    data: {
      schema: 'StreamEventData',
      example: { timestamp: recorded.ready_at, data: stream({ ...ended, recording: recorded }) },
    },
  },
  'recording.failed': {
    summary: 'No MP4 could be made after three tries; the streamed data is kept',
    data: {
      schema: 'StreamEventData',
      example: {
        timestamp: '2026-11-22T15:09:40.000Z',
        data: stream({
          ...ended,
          recording: { status: 'failed', bytes: null, duration_seconds: null, ready_at: null, deleted_at: null },
        }),
      },
    },
  },
  'recording.deleted': {
    summary: 'The MP4 was deleted: by the client, by retention, or at the zero-balance deadline',
    data: {
      schema: 'StreamEventData',
      example: {
        timestamp: '2026-12-22T15:06:02.000Z',
        data: stream({
          ...ended,
          recording: { ...recorded, status: 'deleted', deleted_at: '2026-12-22T15:06:02.000Z' },
        }),
      },
    },
  },
  'credit.low': {
    summary: 'Prepaid: `available_usd` fell to or below `billing.low_credit_usd` (5.00 by default); once per crossing',
    data: { schema: 'BalanceEventData', example: { timestamp: '2026-11-22T15:30:00.000Z', data: balance({}) } },
  },
  'credit.depleted': {
    summary:
      'Prepaid: `available_usd` fell to or below zero; live streams end `insufficient_credit` ' +
      'and recordings go on the zero-balance deadline',
    data: { schema: 'BalanceEventData', example: { timestamp: depleted.balance_depleted_at, data: balance(depleted) } },
  },
  'balance.low': {
    summary: 'Postpaid: as `credit.low`; nothing is refused or ended',
    data: {
      schema: 'BalanceEventData',
      example: { timestamp: '2026-11-22T15:30:00.000Z', data: balance({ billing_mode: 'postpaid' }) },
    },
  },
  'balance.depleted': {
    summary: 'Postpaid: as `credit.depleted`; nothing is refused or ended',
    data: {
      schema: 'BalanceEventData',
      example: { timestamp: depleted.balance_depleted_at, data: balance({ ...depleted, billing_mode: 'postpaid' }) },
    },
  },
  'output.connected': {
    summary:
      "A restreaming output's push began to send media (again after `output.errored`); " +
      'not sent again for a reconnection of the publisher',
    data: { schema: 'StreamOutput', example: { timestamp: '2026-11-22T14:00:02.000Z', data: output({}) } },
  },
  'output.errored': {
    summary:
      'A push failed (`data.last_error` says why; the target refused, did not answer, or its host is not public); ' +
      'it is retried with backoff, and this is sent once per outage, not per retry',
    data: {
      schema: 'StreamOutput',
      example: {
        timestamp: '2026-11-22T14:31:10.000Z',
        data: output({
          status: 'errored',
          last_error: 'Server error: Authentication failed',
          bytes_sent: 412_000_000,
          updated_at: '2026-11-22T14:31:10.000Z',
        }),
      },
    },
  },
  'output.disconnected': {
    summary:
      'A push that had connected or failed stopped: the stream ended, or the output was disabled, changed or deleted',
    data: {
      schema: 'StreamOutput',
      example: {
        timestamp: '2026-11-22T15:04:31.000Z',
        data: output({ status: 'idle', bytes_sent: 1_210_000_000, updated_at: '2026-11-22T15:04:31.000Z' }),
      },
    },
  },
  'webhook.test': {
    summary:
      'The test operation was called (`POST /v1/webhooks/{id}/test`); ' +
      'sent to that endpoint only, whatever its `events`',
    data: { schema: 'WebhookEndpoint' },
  },
};

const header = (name: string, description: string, pattern: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string', pattern },
});

const HEADERS = [
  header('webhook-id', 'Event id, identical on every retry: drop duplicates with it', '^evt_[a-z0-9]{20}$'),
  header(
    'webhook-timestamp',
    'Unix seconds when this attempt was sent; reject times more than 5 minutes off',
    '^[0-9]+$',
  ),
  header(
    'webhook-signature',
    '`v1,<base64>`: HMAC-SHA256 over `<webhook-id>.<webhook-timestamp>.<raw body>`, ' +
      'keyed with the base64-decoded part of the secret after `whsec_`. ' +
      'During a rotation two signatures, space separated, the new one first',
    '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$',
  ),
];

const retries = RETRY_SCHEDULE_SECONDS.map((s) =>
  s < 60 ? `${s} s` : s < 3600 ? `${s / 60} min` : `${s / 3600} h`,
).join(', ');

/** `webhooks` of the OpenAPI document: Standard Webhooks requests, one per event type. */
export function webhooksDescription(): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(EVENTS).map(([type, { summary, data }]) => {
      const body = {
        type: 'object',
        required: ['type', 'timestamp', 'data'],
        additionalProperties: false,
        properties: {
          type: { type: 'string', const: type },
          timestamp: { type: 'string', format: 'date-time', description: 'When it happened' },
          data: { $ref: `#/components/schemas/${data.schema}` },
        },
      };
      const media = 'example' in data ? { schema: body, example: { type, ...data.example } } : { schema: body };
      const recipients =
        type === 'webhook.test'
          ? 'to the endpoint whose test operation was called ' +
            '(listing `webhook.test` in `events` is allowed and changes nothing)'
          : `to every enabled endpoint subscribed to \`${type}\``;
      const operation = {
        summary,
        description:
          `Sent as a signed \`POST\` (Standard Webhooks) ${recipients}. ` +
          'Order is not guaranteed and an event may arrive twice.',
        tags: ['Webhook events'],
        parameters: HEADERS,
        requestBody: { required: true, content: { 'application/json': media } },
        responses: {
          '2XX': {
            description:
              'Received: any 2xx within 10 seconds. ' +
              `Anything else (a redirect, an error, no answer in time) is retried after ${retries}, ` +
              'then the delivery is `failed`.',
          },
        },
      };
      return [type, { post: operation }];
    }),
  );
}

/** The webhook endpoints' operations as the reference describes them; each route spreads its own into its schema. */
export const ops = operations(
  { tags: ['Webhooks'], security: KEYED },
  {
    listWebhookEndpoints: {
      summary: 'List webhook endpoints',
      description: 'Without secrets; `event_types` lists every type an endpoint can subscribe to.',
    },
    createWebhookEndpoint: {
      summary: 'Create a webhook endpoint',
      description:
        '`url` must be https on the public internet: a host that resolves to a private, loopback, link-local ' +
        'or otherwise non-public address is refused (unless the operator allows private targets). `events` ' +
        'omitted: every type, including types added later. At most 5 endpoints per account.',
    },
    getWebhookEndpoint: {
      summary: 'Get a webhook endpoint',
      description: 'With its signing `secret`.',
    },
    updateWebhookEndpoint: {
      summary: 'Update a webhook endpoint',
      description:
        'Fields left out are unchanged. `enabled: false` stops sending and fails the queued deliveries. ' +
        '`events: null` subscribes to every type.',
    },
    deleteWebhookEndpoint: {
      summary: 'Delete a webhook endpoint',
      description: 'Its delivery log goes with it; queued deliveries are not sent.',
    },
    rotateWebhookSecret: {
      summary: 'Rotate the signing secret',
      description:
        'Returns the new secret. The old one keeps signing for 24 hours: each request then carries two ' +
        'signatures, space separated.',
    },
    testWebhookEndpoint: {
      summary: 'Send a test event',
      description:
        'Queues `webhook.test` (data: the endpoint) for this endpoint only; it is sent within a couple of ' +
        'seconds. A disabled endpoint gets it already failed.',
    },
    listWebhookDeliveries: {
      summary: 'List deliveries of an endpoint',
      description:
        'Newest first, with payload and the last answer; kept 30 days. Page with `starting_after` = the id of ' +
        'the last delivery of the previous page.',
    },
    retryWebhookDelivery: {
      summary: 'Retry a delivery',
      description:
        'A failed delivery gets one more attempt now; a pending one is brought forward. `404 not_found` for a ' +
        'delivery that succeeded or does not exist.',
    },
  },
);
