import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { keyed } from '../accounts/auth.js';
import { errorResponses } from '../../../platform/http/schema-helpers.js';
import { DEFAULT_USAGE_DAYS, Usage, UsageQuery } from './schemas.js';
import type { BillingService } from './service.js';
import { ops } from './openapi.js';

export function registerUsageRoutes(app: FastifyInstance, billing: BillingService): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.get(
    '/v1/usage',
    {
      ...keyed(app),
      schema: {
        ...ops.getUsage,
        querystring: UsageQuery,
        response: { 200: Type.Ref(Usage), ...errorResponses('invalid_request', 'unauthorized') },
      },
    },
    async (request) => billing.usage(request.account, request.query.days ?? DEFAULT_USAGE_DAYS),
  );
}
