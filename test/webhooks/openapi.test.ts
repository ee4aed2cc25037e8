import * as assert from 'uvu/assert';
import { STATUS_OF, type ErrorCode } from '../../src/core/errors.js';
import { webhookSuite } from '../helpers/webhooks.js';

const t = webhookSuite('webhooks: OpenAPI description');

/** Every operation that reads the database can also answer 503 `service_unavailable` while it is away. */
const whileAway = (codes: Record<string, ErrorCode[]>): Record<string, ErrorCode[]> => ({
  ...codes,
  503: [...(codes[503] ?? []), 'service_unavailable'],
});

/** The codes each webhook operation can return (spec: Endpoints → Webhooks, Errors). */
const EXPECTED: Record<string, Record<string, ErrorCode[]>> = {
  // Reads refuse query fields they do not define: 400 too.
  'get /v1/webhooks': { 400: ['invalid_request'], 401: ['unauthorized'] },
  'post /v1/webhooks': { 400: ['invalid_request'], 401: ['unauthorized'], 429: ['limit_webhook_endpoints'] },
  'get /v1/webhooks/{id}': { 400: ['invalid_request'], 401: ['unauthorized'], 404: ['not_found'] },
  'patch /v1/webhooks/{id}': { 400: ['invalid_request'], 401: ['unauthorized'], 404: ['not_found'] },
  // A body, if one is sent, must still be JSON of a sane size: 400 is possible although none is defined.
  'delete /v1/webhooks/{id}': { 400: ['invalid_request'], 401: ['unauthorized'], 404: ['not_found'] },
  'post /v1/webhooks/{id}/secret': { 400: ['invalid_request'], 401: ['unauthorized'], 404: ['not_found'] },
  'post /v1/webhooks/{id}/test': { 400: ['invalid_request'], 401: ['unauthorized'], 404: ['not_found'] },
  'get /v1/webhooks/{id}/deliveries': { 400: ['invalid_request'], 401: ['unauthorized'], 404: ['not_found'] },
  'post /v1/webhooks/{id}/deliveries/{delivery_id}/retry': {
    400: ['invalid_request'],
    401: ['unauthorized'],
    404: ['not_found'],
  },
};

const SUCCESS: Record<string, string> = {
  'get /v1/webhooks': '200',
  'post /v1/webhooks': '201',
  'get /v1/webhooks/{id}': '200',
  'patch /v1/webhooks/{id}': '200',
  'delete /v1/webhooks/{id}': '204',
  'post /v1/webhooks/{id}/secret': '200',
  'post /v1/webhooks/{id}/test': '202',
  'get /v1/webhooks/{id}/deliveries': '200',
  'post /v1/webhooks/{id}/deliveries/{delivery_id}/retry': '202',
};

type Op = {
  security?: unknown[];
  responses: Record<string, { 'x-error-codes'?: string[]; content?: Record<string, { schema?: { $ref?: string } }> }>;
};

t(
  'every webhook operation is described, needs a key, and lists exactly the error codes it can return',
  async ({ env }) => {
    const doc = (await env.call('GET', '/openapi.json')).body as {
      paths: Record<string, Record<string, Op>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    const seen: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      if (!path.startsWith('/v1/webhooks')) continue;
      for (const [method, op] of Object.entries(item)) {
        const key = `${method} ${path}`;
        seen.push(key);
        const expected = EXPECTED[key] && whileAway(EXPECTED[key]);
        assert.ok(expected, `unexpected operation ${key}`);
        assert.ok(op.security?.length, `${key} needs a key`);
        assert.ok(op.responses[SUCCESS[key] as string], `${key} answers ${SUCCESS[key]}`);
        const errorStatuses = Object.keys(op.responses)
          .filter((s) => Number(s) >= 400)
          .sort();
        assert.equal(errorStatuses, Object.keys(expected).sort(), `${key}: error statuses`);
        for (const status of errorStatuses) {
          const codes = op.responses[status]?.['x-error-codes'] ?? [];
          assert.equal([...codes].sort(), [...(expected[status] ?? [])].sort(), `${key} ${status}`);
          for (const code of codes) assert.is(STATUS_OF[code as ErrorCode], Number(status));
        }
      }
    }
    assert.equal(seen.sort(), Object.keys(EXPECTED).sort());
    const delivery = doc.components.schemas.WebhookDelivery?.properties ?? {};
    assert.equal(Object.keys(delivery).sort(), [
      'attempts',
      'created_at',
      'delivered_at',
      'event_id',
      'event_type',
      'id',
      'last_attempt_at',
      'last_duration_ms',
      'last_error',
      'last_status_code',
      'max_attempts',
      'next_attempt_at',
      'object',
      'payload',
      'status',
      'stream_id',
    ]);
    assert.ok(doc.components.schemas.WebhookEndpointWithSecret?.properties?.secret);
    assert.not.ok(doc.components.schemas.WebhookEndpoint?.properties?.secret);
    // The secret only on create, single read and rotation (spec, WebhookEndpoint).
    const answers = (key: string): string | undefined => {
      const [method, path] = key.split(' ') as [string, string];
      return doc.paths[path]?.[method]?.responses[SUCCESS[key] as string]?.content?.['application/json']?.schema?.$ref;
    };
    for (const key of ['post /v1/webhooks', 'get /v1/webhooks/{id}', 'post /v1/webhooks/{id}/secret'])
      assert.match(String(answers(key)), /\/WebhookEndpointWithSecret$/, key);
    assert.match(String(answers('patch /v1/webhooks/{id}')), /\/WebhookEndpoint$/);
  },
);

t(
  'webhook.test: events accepts it (the event types plus webhook.test); the webhooks section says it goes to the tested endpoint whatever events holds',
  async ({ env }) => {
    const doc = (await env.call('GET', '/openapi.json')).body as {
      webhooks: Record<string, { post: { summary: string; description: string } }>;
      components: { schemas: Record<string, { properties: Record<string, { items?: { enum?: string[] } }> }> };
    };
    const test = doc.webhooks['webhook.test']?.post;
    assert.ok(test);
    assert.not.match(test.summary + test.description, /not subscribable|subscribed to `webhook.test`/);
    assert.match(test.description, /endpoint whose test operation was called/);
    assert.equal(doc.components.schemas.WebhookEndpoint?.properties.events?.items?.enum?.slice(-1), ['webhook.test']);
  },
);

t.run();
