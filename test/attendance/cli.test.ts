import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { toCsv } from '../../src/cli/csv.js';
import { svc, ok } from '../helpers/cli.js';
import { createTestApi, type TestApi } from '../helpers/api.js';
import { createStream } from '../helpers/streams.js';

interface Ctx {
  env: TestApi;
  flags: string[];
  streamId: string;
}

const VIEWERS = [
  { viewerId: 'pupil-2', name: 'Smith, Ann' },
  { viewerId: 'Pupil-1', name: 'Ann "Nan" Lee' },
  { viewerId: 'pupil-10', name: 'Two\nlines' },
  { viewerId: 'émile', name: null },
  { viewerId: '0-first', name: 'Plain' },
  // Spreadsheet formulas (OWASP CSV injection): the export must keep them text.
  { viewerId: '=cmd', name: '=HYPERLINK("https://evil.example","Click")' },
  { viewerId: '@sum', name: '+1+2' },
  { viewerId: '-neg', name: '\tTabbed' },
];
/** In byte order of viewer ids. */
const ORDER = ['-neg', '0-first', '=cmd', '@sum', 'Pupil-1', 'pupil-10', 'pupil-2', 'émile'];

/** `svc streams attendance` as a thin client of a listening API (`--base-url`, `--api-key`). */
const t = suite<Ctx>('attendance: svc streams attendance, --json and --csv');
t.before(async (ctx) => {
  ctx.env = await createTestApi();
  const { key } = await ctx.env.newAccount();
  ctx.streamId = (await createStream(ctx.env, key)).id;
  const { recorder } = ctx.env.api.attendance;
  const t0 = ctx.env.clock.now().getTime();
  VIEWERS.forEach(({ viewerId, name }, i) => {
    const v = { streamId: ctx.streamId, viewerId, name };
    recorder.beat(v, `vsn_${i}`, 'p', t0);
    recorder.beat(v, `vsn_${i}`, 'p', t0 + (10 + i) * 1000);
  });
  await ctx.env.api.attendance.flush();
  const address = await ctx.env.api.app.listen({ host: '127.0.0.1', port: 0 });
  ctx.flags = ['--base-url', address, '--api-key', key];
});
t.after(async (ctx) => {
  await ctx.env.close();
});

t('--json walks every page (--limit 2: four requests) into one list with the total', async (ctx) => {
  const list = ok(await svc(['streams', 'attendance', ctx.streamId, '--json', '--limit', '2', ...ctx.flags])).json;
  assert.equal(Object.keys(list), ['object', 'data', 'has_more', 'next_after', 'total']);
  assert.is(list.total, 8);
  assert.is(list.has_more, false);
  assert.is(list.next_after, null);
  assert.equal(
    list.data.map((a: { viewer_id: string }) => a.viewer_id),
    ORDER,
  );
  assert.equal(
    list.data.find((a: { viewer_id: string }) => a.viewer_id === 'pupil-2'),
    {
      object: 'attendance',
      viewer_id: 'pupil-2',
      name: 'Smith, Ann',
      watch_seconds: 10,
      first_seen_at: ctx.env.clock.now().toISOString(),
      last_seen_at: new Date(ctx.env.clock.now().getTime() + 10_000).toISOString(),
    },
  );
});

t(
  '--csv prints RFC 4180: CRLF, fields with comma, quote or newline quoted, quotes doubled, null empty',
  async (ctx) => {
    const res = ok(await svc(['streams', 'attendance', ctx.streamId, '--csv', '--limit', '3', ...ctx.flags]));
    const at = (s: number) => new Date(ctx.env.clock.now().getTime() + s * 1000).toISOString();
    const first = at(0);
    // execa strips the final CRLF (toCsv's own test below checks it).
    assert.is(
      res.stdout,
      [
        'viewer_id,name,watch_seconds,first_seen_at,last_seen_at',
        `'-neg,'\tTabbed,17,${first},${at(17)}`,
        `0-first,Plain,14,${first},${at(14)}`,
        `'=cmd,"'=HYPERLINK(""https://evil.example"",""Click"")",15,${first},${at(15)}`,
        `'@sum,'+1+2,16,${first},${at(16)}`,
        `Pupil-1,"Ann ""Nan"" Lee",11,${first},${at(11)}`,
        `pupil-10,"Two\nlines",12,${first},${at(12)}`,
        `pupil-2,"Smith, Ann",10,${first},${at(10)}`,
        `émile,,13,${first},${at(13)}`,
      ].join('\r\n'),
    );
  },
);

t('toCsv ends every record with CRLF and quotes only where RFC 4180 needs it', () => {
  assert.is(
    toCsv(
      ['a', 'b'],
      [
        ['x,y', null],
        ['plain', 'cr\r'],
      ],
    ),
    'a,b\r\n"x,y",\r\nplain,"cr\r"\r\n',
  );
});

t("toCsv: text starting =, +, -, @, tab or CR gets a leading ' (still quoted where needed); numbers stay plain", () => {
  const rows = [['=1+1', '+x', '-x', '@x', '\tx', '\rx', '=a,b', 'a=b', '', -5, 0, 12.5]];
  assert.is(toCsv(['h'], rows), `h\r\n'=1+1,'+x,'-x,'@x,'\tx,"'\rx","'=a,b",a=b,,-5,0,12.5\r\n`);
});

t('people get a table; --csv and --json together are refused; an unknown stream is not_found', async (ctx) => {
  const human = ok(await svc(['streams', 'attendance', ctx.streamId, ...ctx.flags])).stdout;
  assert.match(human, /^VIEWER_ID\s+NAME\s+WATCH_SECONDS\s+FIRST_SEEN_AT\s+LAST_SEEN_AT\n/);
  assert.match(human, /\npupil-2\s+Smith, Ann\s+10\s/);
  assert.match(human, /\n8 viewers$/);
  const both = await svc(['streams', 'attendance', ctx.streamId, '--csv', '--json', ...ctx.flags]);
  assert.is.not(both.code, 0);
  const missing = await svc(['streams', 'attendance', 'str_doesnotexist00000000', '--json', ...ctx.flags]);
  assert.is(missing.code, 1);
  assert.is(missing.json.error.code, 'not_found');
});

t.run();
