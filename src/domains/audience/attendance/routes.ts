import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../../../platform/http/schema-helpers.js';
import { StreamParams } from '../../streams/model.js';
import { AttendanceList, AttendanceQuery } from './schemas.js';
import type { AttendanceService } from './service.js';
import { ops } from './openapi.js';

/** Attendance lists (keyed). */
export const attendanceRoutes: FastifyPluginAsyncTypebox<{ attendance: AttendanceService }> = async (
  api,
  { attendance },
) => {
  api.get(
    '/v1/streams/:id/attendance',
    {
      schema: {
        ...ops.listAttendance,
        params: StreamParams,
        querystring: AttendanceQuery,
        response: { 200: Type.Ref(AttendanceList), ...errorResponses('invalid_request', 'unauthorized', 'not_found') },
      },
    },
    async (request) => attendance.list(request.account, request.params.id, request.query),
  );
};
