import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';

/**
 * Takes a response over from Fastify (a stream it should not end, such as server-sent events).
 * A hijacked reply sends none of the headers that hooks gave it (X-Request-Id, CORS), so they are
 * moved onto the raw response; `writeHead` merges its own over them.
 */
export function hijackWithHeaders(reply: FastifyReply): ServerResponse {
  const headers = reply.getHeaders();
  reply.hijack();
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) reply.raw.setHeader(name, value);
  return reply.raw;
}
