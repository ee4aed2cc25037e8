import { Type, type Static } from '@sinclair/typebox';
import { EVENT_TYPE_NAMES, EVENT_TYPES } from '../../ledger/events/outbox.js';
import { Nullable, StringEnum, Timestamp } from '../../../platform/http/schema-helpers.js';

/**
 * What an endpoint's `events` accepts (spec, Events): the event types plus `webhook.test`. Listing
 * `webhook.test` changes nothing: the test operation sends it to its own endpoint, whatever `events`.
 */
export const SUBSCRIBABLE_TYPES = EVENT_TYPE_NAMES;
export type SubscribableEventType = (typeof SUBSCRIBABLE_TYPES)[number];

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Seconds before each retry: 11 attempts over about 24 hours (spec: Events, delivery rules). */
export const RETRY_SCHEDULE_SECONDS: readonly number[] = [5, 30, 120, 600, 1800, 3600, 7200, 14400, 28800, 28800];

export const MAX_ENDPOINTS = 5;

export const ENDPOINT_ID = /^whk_[a-z0-9]{20}$/;
export const DELIVERY_ID = /^dlv_[a-z0-9]{20}$/;

const EndpointId = Type.String({ pattern: ENDPOINT_ID.source, examples: ['whk_4k2m9q7x1c4v6b0n5z8f'] });
const DeliveryId = Type.String({ pattern: DELIVERY_ID.source, examples: ['dlv_7x1c4v6b0n5z8f3k2m9q'] });
const Url = Type.String({
  minLength: 1,
  maxLength: 2000,
  description: 'https on the public internet',
  examples: ['https://hooks.example.com/svc'],
});
const Description = Nullable(Type.String({ maxLength: 200, examples: ['Production automation'] }));
const EventTypeSchema = StringEnum(EVENT_TYPES);
const SubscribableSchema = StringEnum(SUBSCRIBABLE_TYPES);
const Events = (description: string) =>
  Type.Array(SubscribableSchema, {
    minItems: 1,
    maxItems: 50,
    description: `${description}. Values: the event types (\`event_types\`) plus \`webhook.test\`, which the test operation sends whatever this list holds`,
    examples: [['stream.live', 'recording.ready']],
  });
const Secret = Type.String({
  pattern: '^whsec_',
  description: 'Signing secret; the part after `whsec_` is the base64 HMAC key',
  examples: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
});

const endpointFields = {
  object: Type.Literal('webhook_endpoint'),
  id: EndpointId,
  url: Url,
  description: Description,
  events: Type.Array(SubscribableSchema, {
    description:
      'Types sent to this endpoint (every event type when `all_events`); `webhook.test` is sent to it in any case',
  }),
  all_events: Type.Boolean({ description: 'Subscribed to every type, including types added later' }),
  enabled: Type.Boolean({ description: 'False: nothing is sent' }),
  created_at: Timestamp,
};

export const WebhookEndpoint = Type.Object(endpointFields, { $id: 'WebhookEndpoint' });
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

export const WebhookEndpointWithSecret = Type.Object(
  { ...endpointFields, secret: Secret },
  { $id: 'WebhookEndpointWithSecret', description: 'With `secret`: on create, single read and rotation' },
);
export type WebhookEndpointWithSecret = Static<typeof WebhookEndpointWithSecret>;

export const WebhookEndpointList = Type.Object(
  {
    object: Type.Literal('list'),
    data: Type.Array(Type.Ref(WebhookEndpoint)),
    has_more: Type.Boolean(),
    event_types: Type.Array(EventTypeSchema, {
      description: 'Every event type the service sends to subscribers; `events` accepts these plus `webhook.test`',
    }),
  },
  { $id: 'WebhookEndpointList' },
);
export type WebhookEndpointList = Static<typeof WebhookEndpointList>;

export const CreateWebhookBody = Type.Object(
  {
    url: Url,
    events: Type.Optional(Events('Omit for every type, including types added later')),
    description: Type.Optional(Description),
  },
  {
    additionalProperties: false,
    examples: [
      {
        url: 'https://hooks.example.com/svc',
        events: ['stream.live', 'recording.ready'],
        description: 'Production automation',
      },
    ],
  },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const PatchWebhookBody = Type.Object(
  {
    url: Type.Optional(Url),
    events: Type.Optional(Nullable(Events('null: every type, including types added later'))),
    description: Type.Optional(Description),
    enabled: Type.Optional(Type.Boolean({ description: 'false stops sending; queued deliveries fail' })),
  },
  { additionalProperties: false, minProperties: 1, examples: [{ enabled: false }] },
);
export type PatchWebhookBody = Static<typeof PatchWebhookBody>;

/** Any text: an id that is not an endpoint of the account is `404 not_found`. */
export const WebhookParams = Type.Object(
  { id: Type.String({ description: 'Endpoint id (`whk_...`)' }) },
  { additionalProperties: false },
);
export const DeliveryParams = Type.Object(
  {
    id: Type.String({ description: 'Endpoint id (`whk_...`)' }),
    delivery_id: Type.String({ description: 'Delivery id (`dlv_...`)' }),
  },
  { additionalProperties: false },
);

export const ListDeliveriesQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    status: Type.Optional(StringEnum(DELIVERY_STATUSES)),
    starting_after: Type.Optional(DeliveryId),
  },
  { additionalProperties: false },
);
export type ListDeliveriesQuery = Static<typeof ListDeliveriesQuery>;

export const WebhookEventSchema = Type.Object(
  {
    type: StringEnum(EVENT_TYPE_NAMES),
    timestamp: Timestamp,
    data: Type.Object(
      {},
      { additionalProperties: true, description: 'The stream at that moment; the endpoint for `webhook.test`' },
    ),
  },
  { $id: 'WebhookEvent' },
);

export const WebhookDelivery = Type.Object(
  {
    object: Type.Literal('webhook_delivery'),
    id: DeliveryId,
    event_id: Type.String({
      pattern: '^evt_[a-z0-9]{20}$',
      description: 'Also the `webhook-id` header, the same on every retry',
      examples: ['evt_1c4v6b0n5z8f3k2m9q7x'],
    }),
    event_type: StringEnum(EVENT_TYPE_NAMES),
    stream_id: Nullable(Type.String()),
    status: StringEnum(DELIVERY_STATUSES),
    attempts: Type.Integer({ minimum: 0 }),
    max_attempts: Type.Integer({ minimum: 1 }),
    next_attempt_at: Nullable(Timestamp),
    last_attempt_at: Nullable(Timestamp),
    last_status_code: Nullable(Type.Integer({ description: 'What the receiver answered' })),
    last_error: Nullable(Type.String({ description: 'Reason of the last failure' })),
    last_duration_ms: Nullable(Type.Integer()),
    delivered_at: Nullable(Timestamp),
    created_at: Timestamp,
    payload: Type.Ref(WebhookEventSchema),
  },
  { $id: 'WebhookDelivery' },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;

export const WebhookDeliveryList = Type.Object(
  { object: Type.Literal('list'), data: Type.Array(Type.Ref(WebhookDelivery)), has_more: Type.Boolean() },
  { $id: 'WebhookDeliveryList' },
);
export type WebhookDeliveryList = Static<typeof WebhookDeliveryList>;

export const WEBHOOK_SCHEMAS = [
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookEndpointList,
  WebhookEventSchema,
  WebhookDelivery,
  WebhookDeliveryList,
];
