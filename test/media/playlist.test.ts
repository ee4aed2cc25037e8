import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  parseMediaPlaylist,
  renderMasterPlaylist,
  renderWindowPlaylist,
  slideWindow,
  targetDurationFor,
  type MediaSegment,
} from '../../src/platform/media/playlist.js';

// Written by ffmpeg 5.1 with ladderArgs' flags: two sessions in one directory (append_list).
const FFMPEG = readFileSync(new URL('./fixtures/ffmpeg-480p-reconnect.m3u8', import.meta.url), 'utf8');

const seg = (i: number, extra: Partial<MediaSegment> = {}): MediaSegment => ({
  uri: `480p_${String(i).padStart(5, '0')}.ts`,
  duration: 4,
  discontinuity: false,
  programDateTime: null,
  ...extra,
});

test('parseMediaPlaylist: ffmpeg 5.1 output across a reconnect (PDT after EXTINF, discontinuities, no ENDLIST)', () => {
  const p = parseMediaPlaylist(FFMPEG);
  assert.is(p.ended, false);
  assert.is(p.mediaSequence, 0);
  assert.equal(p.segments, [
    { uri: '480p_00000.ts', duration: 4, discontinuity: true, programDateTime: '2026-11-22T15:30:44.522+00:00' },
    { uri: '480p_00001.ts', duration: 2, discontinuity: false, programDateTime: '2026-11-22T15:30:48.522+00:00' },
    { uri: '480p_00002.ts', duration: 4, discontinuity: true, programDateTime: '2026-11-22T15:41:22.462+00:00' },
    { uri: '480p_00003.ts', duration: 2, discontinuity: false, programDateTime: '2026-11-22T15:41:26.462+00:00' },
  ]);
});

test('parseMediaPlaylist: ENDLIST, MEDIA-SEQUENCE, decimals, CRLF and tags before EXTINF', () => {
  const text = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    '#EXT-X-TARGETDURATION:5',
    '#EXT-X-MEDIA-SEQUENCE:17',
    '#EXT-X-DISCONTINUITY',
    '#EXT-X-PROGRAM-DATE-TIME:2024-05-01T10:00:00.000Z',
    '#EXTINF:4.004000,title',
    'a.ts',
    '#EXT-X-BYTERANGE:10@0',
    '#EXTINF:3.5,',
    'b.ts',
    '#EXT-X-ENDLIST',
    '',
  ].join('\r\n');
  const p = parseMediaPlaylist(text);
  assert.is(p.ended, true);
  assert.is(p.mediaSequence, 17);
  assert.is(p.targetDuration, 5);
  assert.is(p.discontinuitySequence, 0, 'absent: 0');
  assert.equal(p.segments, [
    { uri: 'a.ts', duration: 4.004, discontinuity: true, programDateTime: '2024-05-01T10:00:00.000Z' },
    { uri: 'b.ts', duration: 3.5, discontinuity: false, programDateTime: null },
  ]);
});

test('parseMediaPlaylist: a file caught mid-write never throws and keeps only complete segments', () => {
  for (let cut = 0; cut <= FFMPEG.length; cut++) {
    const p = parseMediaPlaylist(FFMPEG.slice(0, cut));
    const full = parseMediaPlaylist(FFMPEG).segments;
    assert.equal(p.segments, full.slice(0, p.segments.length), `cut at ${cut}`);
    assert.is(p.ended, false);
  }
  assert.equal(
    parseMediaPlaylist('#EXTM3U\n#EXTINF:4.000000,\n#EXT-X-PROGRAM-DATE-TIME:2026-11-22T15:30:44.522+0000\n480p_000')
      .segments,
    [],
  );
  assert.equal(parseMediaPlaylist('#EXTM3U\nstray.ts\n#EXTINF:,\nnoduration.ts\n#EXTINF:abc,\nbad.ts\n').segments, []);
  assert.equal(parseMediaPlaylist(''), {
    segments: [],
    ended: false,
    mediaSequence: 0,
    discontinuitySequence: 0,
    targetDuration: null,
  });
});

test('slideWindow: last N, MEDIA-SEQUENCE = index, DISCONTINUITY-SEQUENCE counts only tags that slid out', () => {
  const all = [
    seg(0, { discontinuity: true }),
    seg(1),
    seg(2),
    seg(3, { discontinuity: true }),
    seg(4),
    seg(5),
    seg(6, { discontinuity: true }),
    seg(7),
  ];
  assert.equal(slideWindow(all, 3), { window: all.slice(5), mediaSequence: 5, discontinuitySequence: 2 });
  const atBoundary = slideWindow(all, 5);
  assert.is(atBoundary.mediaSequence, 3);
  assert.is(atBoundary.discontinuitySequence, 1, "the window's first segment keeps its own tag");
  assert.is(atBoundary.window[0]!.discontinuity, true);
  assert.equal(slideWindow(all, 20), { window: all, mediaSequence: 0, discontinuitySequence: 0 });
  assert.equal(slideWindow([], 6), { window: [], mediaSequence: 0, discontinuitySequence: 0 });
  assert.throws(() => slideWindow(all, 0), /window size/);
});

test('slideWindow: a list continued after a restart counts on from where the last one was', () => {
  const all = [seg(20, { discontinuity: true }), seg(21), seg(22, { discontinuity: true }), seg(23)];
  const from = { mediaSequence: 20, discontinuitySequence: 3 };
  assert.equal(slideWindow(all, 6, from), { window: all, mediaSequence: 20, discontinuitySequence: 3 });
  assert.equal(slideWindow(all, 1, from), { window: all.slice(3), mediaSequence: 23, discontinuitySequence: 5 });
});

test('renderWindowPlaylist: golden live window with a discontinuity and PDT', () => {
  const { window, mediaSequence, discontinuitySequence } = slideWindow(parseMediaPlaylist(FFMPEG).segments, 3);
  assert.is(
    renderWindowPlaylist({ segments: window, mediaSequence, discontinuitySequence, targetDuration: 4, ended: false }),
    [
      '#EXTM3U',
      '#EXT-X-VERSION:6',
      '#EXT-X-TARGETDURATION:4',
      '#EXT-X-MEDIA-SEQUENCE:1',
      '#EXT-X-DISCONTINUITY-SEQUENCE:1',
      '#EXT-X-INDEPENDENT-SEGMENTS',
      '#EXT-X-PROGRAM-DATE-TIME:2026-11-22T15:30:48.522+00:00',
      '#EXTINF:2.000,',
      '480p_00001.ts',
      '#EXT-X-DISCONTINUITY',
      '#EXT-X-PROGRAM-DATE-TIME:2026-11-22T15:41:22.462+00:00',
      '#EXTINF:4.000,',
      '480p_00002.ts',
      '#EXT-X-PROGRAM-DATE-TIME:2026-11-22T15:41:26.462+00:00',
      '#EXTINF:2.000,',
      '480p_00003.ts',
      '',
    ].join('\n'),
  );
});

test('renderWindowPlaylist: ENDLIST when ended, no PDT when unknown; round-trips through the parser', () => {
  const segments = [seg(8, { duration: 4.0043 }), seg(9, { duration: 1.98 })];
  const text = renderWindowPlaylist({
    segments,
    mediaSequence: 8,
    discontinuitySequence: 0,
    targetDuration: 4,
    ended: true,
  });
  assert.ok(text.endsWith('#EXTINF:1.980,\n480p_00009.ts\n#EXT-X-ENDLIST\n'));
  assert.not.ok(text.includes('PROGRAM-DATE-TIME'));
  assert.ok(text.includes('#EXTINF:4.004,\n480p_00008.ts\n'));
  const back = parseMediaPlaylist(text);
  assert.is(back.ended, true);
  assert.is(back.mediaSequence, 8);
  assert.is(back.targetDuration, 4);
  assert.is(
    parseMediaPlaylist(
      renderWindowPlaylist({ segments, mediaSequence: 8, discontinuitySequence: 7, targetDuration: 4, ended: false }),
    ).discontinuitySequence,
    7,
  );
  assert.equal(
    back.segments.map((s) => s.uri),
    ['480p_00008.ts', '480p_00009.ts'],
  );
  assert.throws(
    () =>
      renderWindowPlaylist({ segments, mediaSequence: 0, discontinuitySequence: 0, targetDuration: 4.5, ended: false }),
    /targetDuration/,
  );
  assert.throws(
    () =>
      renderWindowPlaylist({
        segments: [seg(0, { uri: 'a.ts\n#EXT-X-ENDLIST' })],
        mediaSequence: 0,
        discontinuitySequence: 0,
        targetDuration: 4,
        ended: false,
      }),
    /URI/,
  );
});

test('targetDurationFor: the EXTINF as written, rounded to the nearest integer (RFC 8216 4.3.3.1), half up', () => {
  assert.equal([4, 4.004, 4.4994, 4.4996, 4.5, 1.001, 1.5, 0.4].map(targetDurationFor), [4, 4, 4, 5, 5, 1, 2, 0]);
});

test('renderWindowPlaylist refuses a segment whose rounded EXTINF exceeds the target', () => {
  assert.throws(
    () =>
      renderWindowPlaylist({
        segments: [seg(0, { duration: 4.4996 })],
        mediaSequence: 0,
        discontinuitySequence: 0,
        targetDuration: 4,
        ended: false,
      }),
    /RFC 8216/,
  );
  assert.ok(
    renderWindowPlaylist({
      segments: [seg(0, { duration: 4.4994 })],
      mediaSequence: 0,
      discontinuitySequence: 0,
      targetDuration: 4,
      ended: false,
    }).includes('#EXTINF:4.499,'),
  );
});

test('renderMasterPlaylist: golden, highest bandwidth first, optional attributes left out', () => {
  const text = renderMasterPlaylist([
    {
      uri: '480p.m3u8',
      bandwidth: 1340000,
      averageBandwidth: 1290000,
      width: 854,
      height: 480,
      codecs: 'avc1.4d401f,mp4a.40.2',
      frameRate: 30,
      name: '480p',
    },
    {
      uri: 'source.m3u8',
      bandwidth: 5707468,
      averageBandwidth: 5340000,
      width: 1920,
      height: 1080,
      codecs: 'avc1.640028,mp4a.40.2',
      frameRate: 29.97,
      name: 'source',
    },
    { uri: '720p.m3u8', bandwidth: 3150000.4, width: 1280, height: 720, codecs: '', name: '720p' },
  ]);
  assert.is(
    text,
    [
      '#EXTM3U',
      '#EXT-X-VERSION:6',
      '#EXT-X-INDEPENDENT-SEGMENTS',
      '#EXT-X-STREAM-INF:BANDWIDTH=5707468,AVERAGE-BANDWIDTH=5340000,RESOLUTION=1920x1080,CODECS="avc1.640028,mp4a.40.2",FRAME-RATE=29.970,NAME="source"',
      'source.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=3150000,RESOLUTION=1280x720,NAME="720p"',
      '720p.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=1340000,AVERAGE-BANDWIDTH=1290000,RESOLUTION=854x480,CODECS="avc1.4d401f,mp4a.40.2",FRAME-RATE=30.000,NAME="480p"',
      '480p.m3u8',
      '',
    ].join('\n'),
  );
  assert.throws(
    () => renderMasterPlaylist([{ uri: 'x.m3u8', bandwidth: 1, width: 1, height: 1, codecs: 'a"b', name: 'x' }]),
    /CODECS/,
  );
});

test.run();
