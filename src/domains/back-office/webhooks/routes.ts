import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { keyed } from '../../ledger/accounts/auth.js';
import { NoQuery, errorResponses } from '../../../platform/http/schema-helpers.js';
import type { WebhooksService } from './service.js';
import {
  CreateWebhookBody,
  DeliveryParams,
  ListDeliveriesQuery,
  PatchWebhookBody,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointWithSecret,
  WebhookParams,
} from './schemas.js';

const security = [{ apiKey: [] }];
const tags = ['Webhooks'];

export function registerWebhookRoutes(app: FastifyInstance, webhooks: WebhooksService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const auth = keyed(app);

  api.get(
    '/v1/webhooks',
    {
      ...auth,
      schema: {
        operationId: 'listWebhookEndpoints',
        summary: 'List webhook endpoints',
        description: 'Without secrets; `event_types` lists every type an endpoint can subscribe to.',
        tags,
        security,
        querystring: NoQuery,
        response: { 200: Type.Ref(WebhookEndpointList), ...errorResponses('invalid_request', 'unauthorized') },
      },
    },
    async (request) => webhooks.list(request.account),
  );

  api.post(
    '/v1/webhooks',
    {
      ...auth,
      schema: {
        operationId: 'createWebhookEndpoint',
        summary: 'Create a webhook endpoint',
        description:
          '`url` must be https on the public internet: a host that resolves to a private, loopback, link-local or otherwise non-public address is refused (unless the operator allows private targets). ' +
          '`events` omitted: every type, including types added later. At most 5 endpoints per account.',
        tags,
        security,
        querystring: NoQuery,
        body: CreateWebhookBody,
        response: {
          201: Type.Ref(WebhookEndpointWithSecret),
          ...errorResponses('invalid_request', 'unauthorized', 'limit_webhook_endpoints'),
        },
      },
    },
    async (request, reply) => reply.code(201).send(await webhooks.create(request.account, request.body)),
  );

  api.get(
    '/v1/webhooks/:id',
    {
      ...auth,
      schema: {
        operationId: 'getWebhookEndpoint',
        summary: 'Get a webhook endpoint',
        description: 'With its signing `secret`.',
        tags,
        security,
        params: WebhookParams,
        querystring: NoQuery,
        response: {
          200: Type.Ref(WebhookEndpointWithSecret),
          ...errorResponses('invalid_request', 'unauthorized', 'not_found'),
        },
      },
    },
    async (request) => webhooks.get(request.account, request.params.id),
  );

  api.patch(
    '/v1/webhooks/:id',
    {
      ...auth,
      schema: {
        operationId: 'updateWebhookEndpoint',
        summary: 'Update a webhook endpoint',
        description:
          'Fields left out are unchanged. `enabled: false` stops sending and fails the queued deliveries. `events: null` subscribes to every type.',
        tags,
        security,
        params: WebhookParams,
        querystring: NoQuery,
        body: PatchWebhookBody,
        response: { 200: Type.Ref(WebhookEndpoint), ...errorResponses('invalid_request', 'unauthorized', 'not_found') },
      },
    },
    async (request) => webhooks.update(request.account, request.params.id, request.body),
  );

  api.delete(
    '/v1/webhooks/:id',
    {
      ...auth,
      schema: {
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint',
        description: 'Its delivery log goes with it; queued deliveries are not sent.',
        tags,
        security,
        params: WebhookParams,
        querystring: NoQuery,
        response: {
          204: Type.Null({ description: 'Deleted' }),
          ...errorResponses('invalid_request', 'unauthorized', 'not_found'),
        },
      },
    },
    async (request, reply) => {
      await webhooks.remove(request.account, request.params.id);
      return reply.code(204).send(null);
    },
  );

  api.post(
    '/v1/webhooks/:id/secret',
    {
      ...auth,
      schema: {
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate the signing secret',
        description:
          'Returns the new secret. The old one keeps signing for 24 hours: each request then carries two signatures, space separated.',
        tags,
        security,
        params: WebhookParams,
        querystring: NoQuery,
        response: {
          200: Type.Ref(WebhookEndpointWithSecret),
          ...errorResponses('invalid_request', 'unauthorized', 'not_found'),
        },
      },
    },
    async (request) => webhooks.rotateSecret(request.account, request.params.id),
  );

  api.post(
    '/v1/webhooks/:id/test',
    {
      ...auth,
      schema: {
        operationId: 'testWebhookEndpoint',
        summary: 'Send a test event',
        description:
          'Queues `webhook.test` (data: the endpoint) for this endpoint only; it is sent within a couple of seconds. A disabled endpoint gets it already failed.',
        tags,
        security,
        params: WebhookParams,
        querystring: NoQuery,
        response: { 202: Type.Ref(WebhookDelivery), ...errorResponses('invalid_request', 'unauthorized', 'not_found') },
      },
    },
    async (request, reply) => reply.code(202).send(await webhooks.test(request.account, request.params.id)),
  );

  api.get(
    '/v1/webhooks/:id/deliveries',
    {
      ...auth,
      schema: {
        operationId: 'listWebhookDeliveries',
        summary: 'List deliveries of an endpoint',
        description:
          'Newest first, with payload and the last answer; kept 30 days. Page with `starting_after` = the id of the last delivery of the previous page.',
        tags,
        security,
        params: WebhookParams,
        querystring: ListDeliveriesQuery,
        response: {
          200: Type.Ref(WebhookDeliveryList),
          ...errorResponses('invalid_request', 'unauthorized', 'not_found'),
        },
      },
    },
    async (request) => webhooks.deliveries(request.account, request.params.id, request.query),
  );

  api.post(
    '/v1/webhooks/:id/deliveries/:delivery_id/retry',
    {
      ...auth,
      schema: {
        operationId: 'retryWebhookDelivery',
        summary: 'Retry a delivery',
        description:
          'A failed delivery gets one more attempt now; a pending one is brought forward. `404 not_found` for a delivery that succeeded or does not exist.',
        tags,
        security,
        params: DeliveryParams,
        querystring: NoQuery,
        response: { 202: Type.Ref(WebhookDelivery), ...errorResponses('invalid_request', 'unauthorized', 'not_found') },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await webhooks.retry(request.account, request.params.id, request.params.delivery_id)),
  );
}
