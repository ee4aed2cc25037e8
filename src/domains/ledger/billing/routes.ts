import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { keyed } from '../accounts/auth.js';
import { errorResponses } from '../../../platform/http/schema-helpers.js';
import { DEFAULT_USAGE_DAYS, Usage, UsageQuery } from './schemas.js';
import type { BillingService } from './service.js';

export function registerUsageRoutes(app: FastifyInstance, billing: BillingService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.get(
    '/v1/usage',
    {
      ...keyed(app),
      schema: {
        operationId: 'getUsage',
        summary: 'Usage, balance and rates',
        description:
          'The balance (credit minus everything charged), the available amount (the balance minus what live streams used and is not charged yet), the rates, and per UTC day each item’s quantity and amount, the credit added and the closing balance: the days add up to the balance to the micro-dollar. Ingest and storage are charged per closed minute and hour; delivery as the CDN logs are read (about a minute behind).',
        tags: ['Usage'],
        security: [{ apiKey: [] }],
        querystring: UsageQuery,
        response: { 200: Type.Ref(Usage), ...errorResponses('invalid_request', 'unauthorized') },
      },
    },
    async (request) => billing.usage(request.account, request.query.days ?? DEFAULT_USAGE_DAYS),
  );
}
