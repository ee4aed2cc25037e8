import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { dataPaths } from '../../src/config/paths.js';
import { countedUntil, deliveredBytes } from '../../src/domains/ledger/cdnlog/queries.js';
import { edgeCredential, edgeKey } from '../../src/domains/ledger/edges/credentials.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';

/**
 * The origin's side of the edge tier with the real appliance (API, nginx with the rendered config):
 * joining, the credential on CDN fetches and API calls, log batches counted exactly once, removal.
 */

const STREAM = 'str_edgetest000000000001';

async function edgeCall(app: TestAppliance, method: string, path: string, credential: string | null, body?: unknown) {
  const res = await fetch(`${app.config.publicUrls.base_url}/edge/v1${path}`, {
    method,
    headers: {
      ...(credential ? { authorization: `Bearer ${credential}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: (await res.json()) as any };
}

const fetchOrigin = (app: TestAppliance, path: string, credential?: string) =>
  fetch(`${app.config.publicUrls.cdn_url}${path}`, { headers: credential ? { 'x-svc-edge': credential } : {} });

test('an edge joins once with its token; its credential opens the origin to it alone; batches count once; removal refuses it at once', async () => {
  const app = await startTestAppliance({ cdn: { log_read_seconds: 1 } });
  try {
    const edges = app.running.api.edges;
    // Bad tokens: refused as such, whatever they look like.
    for (const token of ['ejt_wrong', 'x'.repeat(200)]) {
      const refused = await edgeCall(app, 'POST', '/join', null, { token });
      assert.is(refused.status, 401);
      assert.is(refused.body.error.code, 'invalid_join_token');
    }
    const unknownField = await edgeCall(app, 'POST', '/join', null, { token: 'ejt_x', extra: 1 });
    assert.is(unknownField.status, 400);

    const added = await edges.add({ name: 'edge-a', kind: 'edge' });
    assert.ok(added.join_token?.startsWith('ejt_'));
    assert.is(added.credential, null);
    const joined = await edgeCall(app, 'POST', '/join', null, { token: added.join_token, address: '10.77.0.11' });
    assert.is(joined.status, 200, JSON.stringify(joined.body));
    assert.is(joined.body.edge_id, added.edge.id);
    assert.is(joined.body.credential, edgeCredential(edgeKey(app.secrets.signing_key), added.edge.id));
    assert.is(joined.body.origin_cdn_url, app.config.publicUrls.cdn_url);
    // One use only.
    assert.is((await edgeCall(app, 'POST', '/join', null, { token: added.join_token })).status, 401);
    const credential: string = joined.body.credential;

    // The origin's files, unsigned, for edges only.
    const dir = join(dataPaths(app.dataDir).origin, STREAM);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'source.m3u8'), '#EXTM3U\n');
    writeFileSync(join(dir, 'source_00001.ts'), Buffer.alloc(1000, 1));
    assert.is((await fetchOrigin(app, `/_edge/${STREAM}/source_00001.ts`)).status, 403, 'no credential');
    const forged = `${added.edge.id}.${'A'.repeat(43)}`;
    assert.is((await fetchOrigin(app, `/_edge/${STREAM}/source_00001.ts`, forged)).status, 403, 'forged credential');
    const other = edgeCredential(edgeKey(app.secrets.signing_key), 'edg_aaaaaaaaaaaaaaaaaaaa');
    assert.is((await fetchOrigin(app, `/_edge/${STREAM}/source_00001.ts`, other)).status, 403, 'an id never added');
    const segment = await fetchOrigin(app, `/_edge/${STREAM}/source_00001.ts`, credential);
    assert.is(segment.status, 200);
    assert.is((await segment.arrayBuffer()).byteLength, 1000);
    assert.ok(Number(segment.headers.get('x-accel-expires')) > 60, 'a segment is kept while a playlist may name it');
    const playlist = await fetchOrigin(app, `/_edge/${STREAM}/source.m3u8`, credential);
    assert.is(playlist.status, 200);
    assert.is(playlist.headers.get('x-accel-expires'), '1');
    const modified = Number(playlist.headers.get('x-playlist-modified'));
    assert.ok(Math.abs(Date.now() - modified) < 60_000, `when the playlist was written: ${modified}`);

    // The API: the credential, or 401.
    assert.is((await edgeCall(app, 'GET', '/log/position', null)).status, 401);
    assert.is((await edgeCall(app, 'GET', '/log/position', forged)).body.error?.code, 'edge_unauthorized');
    const start = await edgeCall(app, 'GET', '/log/position', credential);
    assert.is(start.status, 200);
    assert.equal(
      { file_id: start.body.file_id, byte_offset: start.body.byte_offset },
      { file_id: null, byte_offset: 0 },
    );
    assert.ok(start.body.counted_until, 'counted from the join');

    // A stream to bill: delivery of a stream that does not exist is dropped, as from the origin's log.
    const { key } = await app.newAccount();
    const created = await app.call('POST', '/v1/streams', { key, body: {} });
    const id: string = created.body.id;
    const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString();
    const batch = {
      from: { file_id: null, byte_offset: 0 },
      to: { file_id: '1:2', byte_offset: 500, counted_until: new Date().toISOString() },
      delivery: [{ stream_id: id, minute, bytes: 12345 }],
      viewers: [{ stream_id: id, minute, viewer: 'abcdef0123456789', country: 'DE' }],
      served: { requests: 10, hits: 8, misses: 2, bytes: 20000 },
    };
    const first = await edgeCall(app, 'POST', '/log', credential, batch);
    assert.is(first.status, 200, JSON.stringify(first.body));
    assert.is(first.body.position.byte_offset, 500);
    // The same batch again (its answer was lost): refused, counted once.
    const again = await edgeCall(app, 'POST', '/log', credential, batch);
    assert.is(again.status, 409);
    assert.is(again.body.error.code, 'log_position_moved');
    assert.is(again.body.error.details.position.byte_offset, 500);
    assert.is(await deliveredBytes(app.db.sql, id), 12345);
    const [stats] = await app.db
      .sql`select requests, cache_hits, cache_misses, bytes_served from edges where id = ${added.edge.id}`;
    assert.equal(
      { ...stats },
      { requests: 10, cache_hits: 8, cache_misses: 2, bytes_served: 20000 },
      'served counts once, like the bytes billed',
    );
    const badBatch = await edgeCall(app, 'POST', '/log', credential, {
      ...batch,
      from: { file_id: '1:2', byte_offset: -1 },
    });
    assert.is(badBatch.status, 400);

    const beat = await edgeCall(app, 'POST', '/heartbeat', credential, { address: '10.77.0.11', nginx_up: true });
    assert.is(beat.status, 200);
    assert.ok(Array.isArray(beat.body.refused));

    // The operator's view: the metrics and the dashboard list it, up, with what its log says it served.
    const scraped = await app.running.metrics.scrape();
    assert.match(scraped, /svc_edge_up\{edge="edge-a"\} 1/);
    assert.match(scraped, /svc_edge_requests\{edge="edge-a",cache="hit"\} 8/);
    assert.match(scraped, /svc_edge_served_bytes\{edge="edge-a"\} 20000/);
    const overview = await app.running.api.dashboard.overview({ database: true });
    const shown = overview.edges?.find((e) => e.name === 'edge-a');
    assert.is(shown?.state, 'up');
    assert.is(shown?.cache_hit_ratio, 0.8);

    // A silent edge holds counting back: counted_until is as far as the slowest log not retired.
    const until = await countedUntil(app.db.sql);
    assert.ok(until && until.getTime() <= Date.parse(batch.to.counted_until));

    await edges.remove('edge-a');
    assert.is(
      (await fetchOrigin(app, `/_edge/${STREAM}/source_00001.ts`, credential)).status,
      403,
      'refused once removed',
    );
    assert.is((await edgeCall(app, 'GET', '/log/position', credential)).status, 401);
  } finally {
    await app.close();
  }
});

test('cdn.direct_viewers off: the origin answers edges and CDNs only', async () => {
  const app = await startTestAppliance({ cdn: { direct_viewers: false } });
  try {
    const { key } = await app.newAccount();
    const created = await app.call('POST', '/v1/streams', { key, body: {} });
    const token = await app.call('POST', `/v1/streams/${created.body.id}/playback-token`, { key, body: {} });
    assert.is(token.status, 200, token.text);
    // A correctly signed viewer address is refused here: viewers come through the edges.
    assert.is((await fetch(token.body.playback_url)).status, 403);
    const added = await app.running.api.edges.add({ name: 'cdn-a', kind: 'cdn' });
    assert.ok(added.credential);
    const dir = join(dataPaths(app.dataDir).origin, STREAM);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'master.m3u8'), '#EXTM3U\n');
    assert.is((await fetchOrigin(app, `/_edge/${STREAM}/master.m3u8`, added.credential as string)).status, 200);
  } finally {
    await app.close();
  }
});

test.run();
