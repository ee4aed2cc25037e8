import { createHmac } from 'node:crypto';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseLogpushLine, timestampMs, unsignedPath, viewerId } from '../../src/domains/ledger/cdnlog/logpush.js';

const S1 = 'str_aaaaaaaaaaaaaaaaaaaa';
const KEY = 'test-viewer-key';
const T0 = Date.parse('2026-11-27T10:00:00.123Z');

/** A Logpush http_requests line with the fields `svc cdn import` reads (and one it does not). */
const line = (o: Record<string, unknown> = {}) =>
  JSON.stringify({
    ClientIP: '203.0.113.7',
    ClientRequestUserAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
    ClientRequestPath: `/${S1}/720p_00012.ts`,
    ClientRequestURI: `/${S1}/720p_00012.ts?svc=abc`,
    ClientCountry: 'de',
    EdgeResponseStatus: 200,
    EdgeResponseBodyBytes: 1234,
    EdgeEndTimestamp: T0 * 1e6,
    CacheCacheStatus: 'hit',
    RayID: '8c0ffee',
    ...o,
  });

test('parseLogpushLine: the CDN log line of a Logpush line (country upper case, the viewer id as nginx makes it)', () => {
  assert.equal(parseLogpushLine(line(), KEY), {
    timeMs: T0,
    status: 200,
    bytes: 1234,
    path: `/${S1}/720p_00012.ts`,
    country: 'DE',
    viewer: createHmac('sha256', KEY).update('203.0.113.7\nMozilla/5.0 (X11; Linux x86_64)').digest('hex').slice(0, 16),
    cache: 'HIT',
  });
  // The same person and browser as the origin's nginx would name them (appliance/nginx/cdn-viewer.js).
  assert.is(viewerId(KEY, '203.0.113.7', 'Mozilla/5.0 (X11; Linux x86_64)'), parseLogpushLine(line(), KEY)?.viewer);
});

test('parseLogpushLine: no country (XX, Tor, none) is XX; the path from the URI when the path field is not chosen', () => {
  for (const c of ['xx', 't1', '', undefined, 'Germany'])
    assert.is(parseLogpushLine(line({ ClientCountry: c }), KEY)?.country, 'XX');
  assert.is(parseLogpushLine(line({ ClientRequestPath: undefined }), KEY)?.path, `/${S1}/720p_00012.ts`);
  // The path form's signature and a member's session are not part of the path kept.
  const signed = `/AAAAAAAAAAAAAAAAAAAAAA.1795777800/vsn_bbbbbbbbbbbbbbbbbbbb/${S1}/master.m3u8`;
  assert.is(parseLogpushLine(line({ ClientRequestPath: signed }), KEY)?.path, `/${S1}/master.m3u8`);
  assert.is(unsignedPath(`/AAAAAAAAAAAAAAAAAAAAAA.1795777800/_rec/${S1}/recording.mp4`), `/_rec/${S1}/recording.mp4`);
  assert.is(unsignedPath('/other/path'), '/other/path');
  // No address: no viewer id (the line still counts bytes).
  assert.is(parseLogpushLine(line({ ClientIP: undefined }), KEY)?.viewer, '');
});

test('parseLogpushLine: what is not a request line of the format is null (and a Worker subrequest is not a delivery)', () => {
  for (const text of [
    '',
    'not json',
    '[]',
    '{"time":1.0,"status":200,"bytes":1,"path":"/x"}',
    line({ EdgeResponseStatus: '200' }),
    line({ EdgeResponseBodyBytes: -1 }),
    line({ EdgeResponseBodyBytes: 1.5 }),
    line({ EdgeEndTimestamp: undefined }),
    line({ EdgeEndTimestamp: 'yesterday' }),
    line({ ClientRequestPath: undefined, ClientRequestURI: undefined }),
    line({ WorkerSubrequest: true }),
  ])
    assert.is(parseLogpushLine(text, KEY), null, text);
  assert.ok(parseLogpushLine(line({ WorkerSubrequest: false }), KEY));
  // Only the start's time chosen: that one.
  assert.is(parseLogpushLine(line({ EdgeEndTimestamp: undefined, EdgeStartTimestamp: T0 / 1000 }), KEY)?.timeMs, T0);
});

test('timestampMs: Logpush timestamp formats unixnano, unix and rfc3339', () => {
  assert.is(timestampMs(T0 * 1e6), T0);
  assert.is(timestampMs(String(T0 * 1e6)), T0);
  assert.is(timestampMs(Math.floor(T0 / 1000)), Math.floor(T0 / 1000) * 1000);
  assert.is(timestampMs('2026-11-27T10:00:00.123Z'), T0);
  assert.is(timestampMs(T0), T0);
  for (const v of [0, -1, null, NaN, 'x', {}]) assert.is(timestampMs(v), null);
});

test.run();
