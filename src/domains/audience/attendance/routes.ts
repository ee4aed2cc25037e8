import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../../../platform/http/schema-helpers.js';
import { ChannelParams, StreamParams } from '../../streams/model.js';
import { AttendanceList, AttendanceQuery } from './schemas.js';
import type { AttendanceService } from './service.js';
import { ops } from './openapi.js';

/** Attendance lists of a stream and of a channel (keyed). */
export const attendanceRoutes: FastifyPluginAsyncTypebox<{ attendance: AttendanceService }> = async (
  api,
  { attendance },
) => {
  for (const kind of ['stream', 'channel'] as const) {
    api.get(
      kind === 'stream' ? '/v1/streams/:id/attendance' : '/v1/channels/:id/attendance',
      {
        schema: {
          ...(kind === 'stream' ? ops.listAttendance : ops.listChannelAttendance),
          params: kind === 'stream' ? StreamParams : ChannelParams,
          querystring: AttendanceQuery,
          response: {
            200: Type.Ref(AttendanceList),
            ...errorResponses('invalid_request', 'unauthorized', 'not_found'),
          },
        },
      },
      async (request) => attendance.list(request.account, { kind, id: request.params.id }, request.query),
    );
  }
};
