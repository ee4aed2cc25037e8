import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { keyed } from '../../ledger/accounts/auth.js';
import { errorResponses } from '../../../platform/http/schema-helpers.js';
import { StreamParams } from '../../streams/model.js';
import { AttendanceList, AttendanceQuery } from './schemas.js';
import type { AttendanceService } from './service.js';

export function registerAttendanceRoutes(app: FastifyInstance, attendance: AttendanceService): void {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/v1/streams/:id/attendance',
    {
      ...keyed(app),
      schema: {
        operationId: 'listAttendance',
        summary: 'Attendance of a stream',
        description:
          "Viewers who came with a viewer token, ordered by `viewer_id` byte by byte; anonymous viewers are never listed. `watch_seconds` counts the time the player reported playing (every 30 seconds); paused, buffering and waiting time is not counted. Up to about a minute behind while streaming (a playing stretch is credited at the report after it; each node writes every 15 seconds). Page with `after` = the previous page's `next_after`; `total` counts every viewer of the stream.",
        tags: ['Streams'],
        security: [{ apiKey: [] }],
        params: StreamParams,
        querystring: AttendanceQuery,
        response: { 200: Type.Ref(AttendanceList), ...errorResponses('invalid_request', 'unauthorized', 'not_found') },
      },
    },
    async (request) => attendance.list(request.account, request.params.id, request.query),
  );
}
