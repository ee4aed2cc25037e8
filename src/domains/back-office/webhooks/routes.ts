import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
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
import { ops } from './openapi.js';

/** Webhook endpoints and their delivery log (keyed). */
export const webhookRoutes: FastifyPluginAsyncTypebox<{ webhooks: WebhooksService }> = async (api, { webhooks }) => {
  api.get(
    '/v1/webhooks',
    {
      schema: {
        ...ops.listWebhookEndpoints,
        querystring: NoQuery,
        response: { 200: Type.Ref(WebhookEndpointList), ...errorResponses('invalid_request', 'unauthorized') },
      },
    },
    async (request) => webhooks.list(request.account),
  );

  api.post(
    '/v1/webhooks',
    {
      schema: {
        ...ops.createWebhookEndpoint,
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
      schema: {
        ...ops.getWebhookEndpoint,
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
      schema: {
        ...ops.updateWebhookEndpoint,
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
      schema: {
        ...ops.deleteWebhookEndpoint,
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
      schema: {
        ...ops.rotateWebhookSecret,
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
      schema: {
        ...ops.testWebhookEndpoint,
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
      schema: {
        ...ops.listWebhookDeliveries,
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
      schema: {
        ...ops.retryWebhookDelivery,
        params: DeliveryParams,
        querystring: NoQuery,
        response: { 202: Type.Ref(WebhookDelivery), ...errorResponses('invalid_request', 'unauthorized', 'not_found') },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await webhooks.retry(request.account, request.params.id, request.params.delivery_id)),
  );
};
