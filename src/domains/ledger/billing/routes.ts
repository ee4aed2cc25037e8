import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../../../platform/http/schema-helpers.js';
import { DEFAULT_USAGE_DAYS, Usage, UsageQuery } from './schemas.js';
import type { BillingService } from './service.js';
import { ops } from './openapi.js';

/** Usage, balance and rates (keyed). */
export const usageRoutes: FastifyPluginAsyncTypebox<{ billing: BillingService }> = async (api, { billing }) => {
  api.get(
    '/v1/usage',
    {
      schema: {
        ...ops.getUsage,
        querystring: UsageQuery,
        response: { 200: Type.Ref(Usage), ...errorResponses('invalid_request', 'unauthorized') },
      },
    },
    async (request) => billing.usage(request.account, request.query.days ?? DEFAULT_USAGE_DAYS),
  );
};
