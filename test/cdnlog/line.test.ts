import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { BatchTotals } from '../../src/domains/ledger/cdnlog/aggregate.js';
import { classifyPath, parseLine } from '../../src/domains/ledger/cdnlog/line.js';

const S1 = 'str_aaaaaaaaaaaaaaaaaaaa';
const S2 = 'str_bbbbbbbbbbbbbbbbbbbb';
const T0 = Date.parse('2026-11-22T12:00:00.000Z') / 1000;

/** A line as nginx writes it (templates/nginx/nginx.conf.njk, `log_format cdn`). */
const line = (o: { t: number; status?: number; bytes?: number; path: string; country?: string; viewer?: string }) =>
  `{"time":${o.t.toFixed(3)},"status":${o.status ?? 200},"bytes":${o.bytes ?? 100},"path":"${o.path}","country":"${o.country ?? 'DE'}","viewer":"${o.viewer ?? 'v1'}"}\n`;

test('parseLine: the fields of an nginx line; milliseconds from $msec; other text is not a line', () => {
  assert.equal(
    parseLine(
      line({
        t: T0 + 1.234,
        status: 206,
        bytes: 5,
        path: `/_rec/${S1}/recording.mp4`,
        country: 'FR',
        viewer: '0123456789abcdef',
      }).trim(),
    ),
    {
      timeMs: (T0 + 1.234) * 1000,
      status: 206,
      bytes: 5,
      path: `/_rec/${S1}/recording.mp4`,
      country: 'FR',
      viewer: '0123456789abcdef',
      cache: '',
    },
  );
  // An edge's line also says what its cache did.
  assert.is(parseLine(line({ t: T0, path: `/${S1}/master.m3u8` }).replace('}', ',"cache":"HIT"}'))?.cache, 'HIT');
  // nginx's JSON escaping of a path.
  assert.is(parseLine('{"time":1.000,"status":404,"bytes":0,"path":"/a\\"b","country":"","viewer":""}')?.path, '/a"b');
  assert.is(
    parseLine('{"time":1.000,"status":404,"bytes":0,"path":"/x","country":"","viewer":""}')?.country,
    'XX',
    'no country: XX',
  );
  for (const bad of [
    '1700000000.123 200 1234 0.001 "/str_x/a.ts"',
    '{"time":1',
    '{}',
    'null',
    '{"time":"1","status":200,"bytes":1,"path":"/"}',
    '{"time":1,"status":200,"bytes":-1,"path":"/"}',
  ]) {
    assert.is(parseLine(bad), null, bad);
  }
});

test('classifyPath: playlists, segments, the recording and the still of a stream; nothing else', () => {
  assert.equal(classifyPath(`/${S1}/master.m3u8`), { streamId: S1, kind: 'playlist' });
  assert.equal(classifyPath(`/${S1}/720p.m3u8`), { streamId: S1, kind: 'playlist' });
  assert.equal(classifyPath(`/${S1}/source_00012.ts`), { streamId: S1, kind: 'segment' });
  assert.equal(classifyPath(`/_rec/${S1}/recording.mp4`), { streamId: S1, kind: 'recording' });
  assert.equal(classifyPath(`/_thumb/${S1}.jpg`), { streamId: S1, kind: 'thumbnail' });
  // A replay is delivery of its stream, like live (docs/decisions.md, "Replays (issue 33)").
  assert.equal(classifyPath(`/_replay/${S1}/index.m3u8`), { streamId: S1, kind: 'playlist' });
  assert.equal(classifyPath(`/_replay/${S1}/media.mp4`), { streamId: S1, kind: 'segment' });
  for (const other of [
    `/_replay/${S1}/other.mp4`,
    `/_replay/${S1}/index.mp4`,
    '/',
    '/healthz',
    `/${S1}/../x.ts`,
    `/${S1}/a/b.ts`,
    '/str_short/master.m3u8',
    `/x/${S1}/master.m3u8`,
  ])
    assert.is(classifyPath(other), null, other);
});

test('BatchTotals: 2xx bytes of playlists, segments and recordings per stream and minute; thumbnails and refusals are not delivery', () => {
  const b = new BatchTotals();
  b.addText(
    line({ t: T0 + 1, bytes: 300, path: `/${S1}/master.m3u8` }) +
      line({ t: T0 + 2, bytes: 1000, path: `/${S1}/source_00001.ts` }) +
      line({ t: T0 + 59.999, status: 206, bytes: 50, path: `/_rec/${S1}/recording.mp4` }) +
      line({ t: T0 + 60, bytes: 7, path: `/${S1}/source_00002.ts` }) +
      line({ t: T0 + 3, bytes: 4000, path: `/_thumb/${S1}.jpg` }) +
      line({ t: T0 + 4, status: 403, bytes: 150, path: `/${S1}/source_00003.ts` }) +
      line({ t: T0 + 5, status: 404, bytes: 150, path: `/${S2}/master.m3u8` }) +
      line({ t: T0 + 6, status: 304, bytes: 0, path: `/${S2}/source_00001.ts` }) +
      line({ t: T0 + 7, bytes: 9, path: `/${S2}/source_00001.ts` }) +
      'not a line\n' +
      '\n' +
      line({ t: T0 + 8, bytes: 1, path: '/elsewhere' }),
  );
  assert.is(b.lines, 10);
  assert.is(b.skipped, 1);
  assert.is(b.lastTimeMs, (T0 + 60) * 1000);
  const rows = b.deliveryRows().map((r) => [r.stream_id, r.minute.toISOString(), r.bytes]);
  assert.equal(rows, [
    [S1, '2026-11-22T12:00:00.000Z', 1350],
    [S1, '2026-11-22T12:01:00.000Z', 7],
    [S2, '2026-11-22T12:00:00.000Z', 9],
  ]);
});

test('BatchTotals: a viewer counts once per stream and minute, for segments only, with its country', () => {
  const b = new BatchTotals();
  b.addText(
    line({ t: T0 + 1, path: `/${S1}/source_00001.ts`, viewer: 'a', country: 'DE' }) +
      line({ t: T0 + 5, path: `/${S1}/480p_00001.ts`, viewer: 'a', country: 'DE' }) +
      line({ t: T0 + 6, path: `/${S1}/master.m3u8`, viewer: 'p', country: 'US' }) +
      line({ t: T0 + 7, path: `/${S1}/source_00002.ts`, viewer: 'b', country: 'FR' }) +
      line({ t: T0 + 8, path: `/${S2}/source_00002.ts`, viewer: 'a', country: 'DE' }) +
      line({ t: T0 + 9, status: 403, path: `/${S1}/source_00002.ts`, viewer: 'c', country: 'GB' }) +
      line({ t: T0 + 61, path: `/${S1}/source_00003.ts`, viewer: 'a', country: 'DE' }) +
      line({ t: T0 + 62, path: `/_rec/${S1}/recording.mp4`, viewer: 'd', country: 'GB' }),
  );
  const rows = b.viewerRows().map((r) => [r.stream_id, r.minute.toISOString().slice(11, 16), r.viewer, r.country]);
  assert.equal(rows, [
    [S1, '12:00', 'a', 'DE'],
    [S1, '12:00', 'b', 'FR'],
    [S2, '12:00', 'a', 'DE'],
    [S1, '12:01', 'a', 'DE'],
  ]);
});

test.run();
