import { Args } from '@oclif/core';
import type { Column } from './table.js';

export const endpointArg = Args.string({ description: 'Endpoint id (whk_...).', required: true });

/** The API path of an endpoint or of one of its resources. */
export const webhookPath = (id: string, ...rest: string[]): string =>
  ['v1/webhooks', ...[id, ...rest].map(encodeURIComponent)].join('/');

/** The fields of the API's WebhookEndpoint the CLI shows; the rest is in --json. */
export interface EndpointDoc {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  all_events: boolean;
  enabled: boolean;
  created_at: string;
  secret?: string;
  [key: string]: unknown;
}

export interface EndpointListDoc {
  object: 'list';
  data: EndpointDoc[];
  has_more: boolean;
  event_types: string[];
}

export interface DeliveryDoc {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  max_attempts: number;
  next_attempt_at: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  [key: string]: unknown;
}

export interface DeliveryListDoc {
  object: 'list';
  data: DeliveryDoc[];
  has_more: boolean;
}

export const ENDPOINT_KEYS = ['id', 'url', 'description', 'events', 'enabled', 'created_at'];
export const DELIVERY_KEYS = [
  'id',
  'event_id',
  'event_type',
  'status',
  'attempts',
  'max_attempts',
  'next_attempt_at',
  'last_attempt_at',
  'last_status_code',
  'last_error',
  'created_at',
];

export const eventsText = (e: EndpointDoc): string => (e.all_events ? 'all' : e.events.join(','));

export const ENDPOINT_COLUMNS: Column<EndpointDoc>[] = [
  { header: 'id', get: (e) => e.id },
  { header: 'enabled', get: (e) => e.enabled },
  { header: 'events', get: eventsText },
  { header: 'url', get: (e) => e.url },
];

export const DELIVERY_COLUMNS: Column<DeliveryDoc>[] = [
  { header: 'id', get: (d) => d.id },
  { header: 'event_type', get: (d) => d.event_type },
  { header: 'status', get: (d) => d.status },
  { header: 'attempts', get: (d) => `${d.attempts}/${d.max_attempts}` },
  { header: 'last', get: (d) => d.last_status_code ?? d.last_error },
  { header: 'created_at', get: (d) => d.created_at },
];
