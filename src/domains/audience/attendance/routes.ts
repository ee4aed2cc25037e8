import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { keyed } from '../../ledger/accounts/auth.js';
import { errorResponses } from '../../../platform/http/schema-helpers.js';
import { StreamParams } from '../../streams/schemas.js';
import { AttendanceList, AttendanceQuery } from './schemas.js';
import type { AttendanceService } from './service.js';
import { ops } from './openapi.js';

export function registerAttendanceRoutes(app: FastifyInstance, attendance: AttendanceService): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/v1/streams/:id/attendance',
    {
      ...keyed(app),
      schema: {
        ...ops.listAttendance,
        params: StreamParams,
        querystring: AttendanceQuery,
        response: { 200: Type.Ref(AttendanceList), ...errorResponses('invalid_request', 'unauthorized', 'not_found') },
      },
    },
    async (request) => attendance.list(request.account, request.params.id, request.query),
  );
}
