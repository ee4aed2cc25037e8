/**
 * Every route, taken from the server's own route table (so a new route is covered without editing
 * this file): U+0000 in any path parameter or query value never reaches PostgreSQL (which refuses
 * it in text: a 500), and every /v1 route refuses query fields it does not define (spec:
 * unknown request fields are refused with `400 invalid_request` naming the field).
 */
import * as assert from 'uvu/assert';
import { apiSuite, type Reply, type TestApi } from '../helpers/api.js';
import { assertError, assertInvalidField, createStream } from '../helpers/streams.js';

interface Route {
  method: string;
  /** Fastify's pattern: `:name` parameters, `*` wildcard. */
  url: string;
}

/** Fastify's `printRoutes({ commonPrefix: false })` tree, flattened into method and full pattern. */
function routesOf(tree: string): Route[] {
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const at = line.indexOf('── ');
    if (at === -1) continue;
    // Each level indents by four characters; the branch glyph sits just before the marker.
    const depth = Math.floor(at / 4);
    const match = /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line.slice(at + 3)) as RegExpExecArray;
    stack.length = depth;
    stack.push(match[1] as string);
    const url = stack.join('');
    for (const method of (match[2] ?? '').split(', ').filter(Boolean)) routes.push({ method, url });
  }
  return routes;
}

type Doc = {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: { in: string; name: string; required?: boolean }[]; requestBody?: { required?: boolean } }
    >
  >;
};

/** Values for the query parameters a route requires (beats), so that only the unknown field is wrong. */
const REQUIRED_QUERY: Record<string, string> = { s: 'abcdefgh12', st: 'w', u: '0.5' };
const operationOf = (doc: Doc, route: Route) =>
  doc.paths[route.url.replace(/:([a-z_]+)/g, '{$1}')]?.[route.method.toLowerCase()];

interface World {
  routes: Route[];
  doc: Doc;
  /** A real value for each path parameter name, by route prefix. */
  valid: (url: string, param: string) => string;
}
let world: World;

const t = apiSuite('http: every route against NUL in its path and query, and /v1 against unknown query fields', {
  allow_private_webhooks: true,
});

t.before(async ({ env, key }) => {
  const stream = (await createStream(env, key)).id;
  const ban = await env.call('POST', `/v1/streams/${stream}/chat/bans`, { key, body: { viewer_id: 'pupil-1' } });
  assert.is(ban.status, 201, ban.text);
  const mod = await env.call('POST', `/v1/streams/${stream}/chat/moderators`, { key, body: { name: 'Ms Rivera' } });
  assert.is(mod.status, 201, mod.text);
  const webhook = await env.call('POST', '/v1/webhooks', { key, body: { url: 'https://hooks.example.com/svc' } });
  assert.is(webhook.status, 201, webhook.text);
  const delivery = await env.call('POST', `/v1/webhooks/${webhook.body.id}/test`, { key });
  assert.is(delivery.status, 202, delivery.text);
  const ids: Record<string, string> = {
    ban_id: ban.body.id,
    mod_id: mod.body.id,
    message_id: 'msg_aaaaaaaaaaaaaaaaaaaa',
    delivery_id: delivery.body.id,
    name: 'player.js',
    '*': 'x',
  };
  world = {
    routes: routesOf(env.api.app.printRoutes({ commonPrefix: false })).filter((r) => r.method !== 'HEAD'),
    doc: (await env.call('GET', '/openapi.json')).body as Doc,
    valid: (url, param) =>
      param === 'id' ? (url.startsWith('/v1/webhooks') ? webhook.body.id : stream) : (ids[param] ?? 'x'),
  };
  assert.ok(world.routes.length > 50, `the route table was read (${world.routes.length} routes)`);
});

/** The route's URL with every parameter filled with a real value, `param` (if given) with `value`. */
function fill(route: Route, param?: string, value?: string): string {
  return route.url.replace(/:([a-z_]+)|\*/g, (whole, name: string | undefined) => {
    const p = name ?? whole;
    return p === param ? (value as string) : encodeURIComponent(world.valid(route.url, p));
  });
}

const paramsOf = (route: Route): string[] => [...route.url.matchAll(/:([a-z_]+)|\*/g)].map((m) => m[1] ?? '*');

async function call(env: TestApi, key: string, route: Route, url: string): Promise<Reply> {
  return env.call(route.method as 'GET', url, { key });
}

function noServerError(res: Reply, route: Route, url: string): void {
  const where = `${route.method} ${url}`;
  assert.ok(res.status < 500, `${where}: ${res.status} ${res.text.slice(0, 300)}`);
  if (route.url.startsWith('/v1/') && res.status >= 400) assertError(res, res.status, res.body?.error?.code);
}

t('U+0000 in any path parameter: a 4xx in the spec shape, never a 5xx', async ({ env, key }) => {
  let sent = 0;
  for (const route of world.routes) {
    for (const param of paramsOf(route)) {
      for (const value of ['%00', `${encodeURIComponent(world.valid(route.url, param))}%00`, 'a%00b']) {
        const url = fill(route, param, value);
        noServerError(await call(env, key, route, url), route, url);
        sent++;
      }
    }
  }
  assert.ok(sent > 100, `${sent} requests`);
});

t(
  'U+0000 in any query value (the documented names and the usual id-shaped ones): a 4xx, never a 5xx',
  async ({ env, key }) => {
    let sent = 0;
    for (const route of world.routes) {
      const documented = (operationOf(world.doc, route)?.parameters ?? [])
        .filter((p) => p.in === 'query')
        .map((p) => p.name);
      for (const name of new Set([...documented, 'starting_after', 'after', 'before', 'limit'])) {
        for (const value of ['%00', 'str_aaaaaaaaaaaaaaaaaaaa%00', 'a%00b']) {
          const url = `${fill(route)}?${name}=${value}`;
          noServerError(await call(env, key, route, url), route, url);
          sent++;
        }
      }
    }
    assert.ok(sent > 200, `${sent} requests`);
  },
);

t(
  "the five 500s of issue 27: NUL in the owner chat listings' starting_after, in a ban id and a moderator id",
  async ({ env, key }) => {
    const stream = world.valid('/v1/streams', 'id');
    for (const list of ['messages', 'bans', 'moderators']) {
      assertInvalidField(
        await env.call('GET', `/v1/streams/${stream}/chat/${list}?starting_after=%00`, { key }),
        'starting_after',
      );
      assertInvalidField(
        await env.call('GET', `/v1/streams/${stream}/chat/${list}?starting_after=x%00`, { key }),
        'starting_after',
      );
    }
    assertError(await env.call('DELETE', `/v1/streams/${stream}/chat/bans/%00`, { key }), 404, 'not_found');
    assertError(
      await env.call('DELETE', `/v1/streams/${stream}/chat/bans/${world.valid('', 'ban_id')}%00`, { key }),
      404,
      'not_found',
    );
    assertError(await env.call('DELETE', `/v1/streams/${stream}/chat/moderators/%00`, { key }), 404, 'not_found');
    assertError(
      await env.call('DELETE', `/v1/streams/${stream}/chat/moderators/${world.valid('', 'mod_id')}%00`, { key }),
      404,
      'not_found',
    );
  },
);

t(
  'id-shaped query values have their shape: a ban, moderator or message id of the wrong kind is 400 naming the field',
  async ({ env, key }) => {
    const stream = world.valid('/v1/streams', 'id');
    for (const [list, other] of [
      ['messages', 'ban_aaaaaaaaaaaaaaaaaaaa'],
      ['bans', 'msg_aaaaaaaaaaaaaaaaaaaa'],
      ['moderators', 'ban_aaaaaaaaaaaaaaaaaaaa'],
    ] as const) {
      assertInvalidField(
        await env.call('GET', `/v1/streams/${stream}/chat/${list}?starting_after=${other}`, { key }),
        'starting_after',
      );
    }
    assertInvalidField(
      await env.call('GET', `/v1/embed/${stream}/chat/messages?before=ban_aaaaaaaaaaaaaaaaaaaa`, {}),
      'before',
    );
    // The right shape still pages (an unknown id of the right shape is not an error).
    assert.is(
      (await env.call('GET', `/v1/streams/${stream}/chat/bans?starting_after=${world.valid('', 'ban_id')}`, { key }))
        .status,
      200,
    );
    assert.is(
      (
        await env.call('GET', `/v1/streams/${stream}/chat/moderators?starting_after=${world.valid('', 'mod_id')}`, {
          key,
        })
      ).status,
      200,
    );
    assert.is(
      (await env.call('GET', `/v1/streams/${stream}/chat/messages?starting_after=msg_aaaaaaaaaaaaaaaaaaaa`, { key }))
        .status,
      200,
    );
  },
);

t('every /v1 route refuses an unknown query field with 400 invalid_request naming it', async ({ env, key }) => {
  let checked = 0;
  for (const route of world.routes.filter((r) => r.url.startsWith('/v1/') && r.method !== 'OPTIONS')) {
    const required = (operationOf(world.doc, route)?.parameters ?? [])
      .filter((p) => p.in === 'query' && p.required)
      .map((p) => `${p.name}=${REQUIRED_QUERY[p.name] ?? 'x'}&`);
    const url = `${fill(route)}?${required.join('')}foo=1`;
    const res = await call(env, key, route, url);
    // Fastify checks the body before the query: a route whose body is required names the body's field first.
    if (operationOf(world.doc, route)?.requestBody?.required) assertError(res, 400, 'invalid_request');
    else assertInvalidField(res, 'foo');
    checked++;
  }
  assert.ok(checked > 40, `${checked} routes`);
});

t("the hosted player's own query parameters still pass (beats, chat feed)", async ({ env }) => {
  const stream = world.valid('/v1/streams', 'id');
  const beat = await env.call('POST', `/v1/embed/${stream}/beat?s=abcdefgh12&st=w&u=0.5`, {});
  assert.is(beat.status, 204, beat.text);
});

t.run();
