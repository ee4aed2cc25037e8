import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ladderArgs, planLadder, type LadderOptions, type Rendition } from '../../src/platform/media/ladder.js';

const HEAD = [
  '-hide_banner',
  '-nostdin',
  '-loglevel',
  'warning',
  '-nostats',
  '-i',
  'rtmp://127.0.0.1:19350/live/str_abc',
];
const HLS = (streamMap: string) => [
  '-f',
  'hls',
  '-hls_time',
  '4',
  '-hls_list_size',
  '2',
  '-hls_flags',
  'temp_file+independent_segments+program_date_time+omit_endlist+append_list',
  '-var_stream_map',
  streamMap,
  '-hls_segment_filename',
  '/var/lib/svc/live/str_abc/%v_%05d.ts',
  '/var/lib/svc/live/str_abc/%v.m3u8',
];
const X264_720 = [
  '-c:v:1',
  'libx264',
  '-preset:v:1',
  'superfast',
  '-profile:v:1',
  'high',
  '-b:v:1',
  '2800k',
  '-maxrate:v:1',
  '3000k',
  '-bufsize:v:1',
  '6000k',
  '-force_key_frames:v:1',
  'source',
  '-sc_threshold:v:1',
  '0',
  '-g:v:1',
  '600',
];
const x264_480 = (i: number) => [
  `-c:v:${i}`,
  'libx264',
  `-preset:v:${i}`,
  'superfast',
  `-profile:v:${i}`,
  'main',
  `-b:v:${i}`,
  '1100k',
  `-maxrate:v:${i}`,
  '1200k',
  `-bufsize:v:${i}`,
  '2400k',
  `-force_key_frames:v:${i}`,
  'source',
  `-sc_threshold:v:${i}`,
  '0',
  `-g:v:${i}`,
  '600',
];
const scale = (h: number) =>
  `scale=w=${h}:h=${h}:force_original_aspect_ratio=increase:force_divisible_by=2,format=yuv420p`;

function options(source: { width: number; height: number }, extra: Partial<LadderOptions> = {}): LadderOptions {
  return {
    input: 'rtmp://127.0.0.1:19350/live/str_abc',
    outDir: '/var/lib/svc/live/str_abc',
    renditions: planLadder('abr_basic', source),
    hasAudio: true,
    preset: 'superfast',
    segmentSeconds: 4,
    ...extra,
  };
}

const names = (rs: Rendition[]) => rs.map((r) => r.name);

test('planLadder: 1080-class gets source + 720p + 480p, 720-class source + 480p, smaller source only', () => {
  assert.equal(names(planLadder('abr_basic', { width: 1920, height: 1080 })), ['source', '720p', '480p']);
  assert.equal(names(planLadder('abr_basic', { width: 3840, height: 2160 })), ['source', '720p', '480p']);
  assert.equal(names(planLadder('abr_basic', { width: 1280, height: 720 })), ['source', '480p']);
  assert.equal(names(planLadder('abr_basic', { width: 854, height: 480 })), ['source']);
  assert.equal(names(planLadder('abr_basic', { width: 0, height: 0 })), ['source'], 'unknown size: copy only');
});

test('planLadder: thresholds on the short side (1000 and 660), so portrait ranks like landscape', () => {
  assert.equal(names(planLadder('abr_basic', { width: 1080, height: 1920 })), ['source', '720p', '480p']);
  assert.equal(names(planLadder('abr_basic', { width: 720, height: 1280 })), ['source', '480p']);
  assert.equal(names(planLadder('abr_basic', { width: 1778, height: 1000 })), ['source', '720p', '480p']);
  assert.equal(names(planLadder('abr_basic', { width: 1776, height: 999 })), ['source', '480p']);
  assert.equal(names(planLadder('abr_basic', { width: 1174, height: 660 })), ['source', '480p']);
  assert.equal(names(planLadder('abr_basic', { width: 1172, height: 659 })), ['source']);
});

test('planLadder: passthrough is source only, whatever the size', () => {
  assert.equal(names(planLadder('passthrough', { width: 1920, height: 1080 })), ['source']);
});

test('planLadder: measured rung settings, source copied', () => {
  assert.equal(planLadder('abr_basic', { width: 1920, height: 1080 }), [
    {
      name: 'source',
      copy: true,
      height: null,
      videoKbps: null,
      maxrateKbps: null,
      bufsizeKbps: null,
      h264Profile: null,
    },
    {
      name: '720p',
      copy: false,
      height: 720,
      videoKbps: 2800,
      maxrateKbps: 3000,
      bufsizeKbps: 6000,
      h264Profile: 'high',
    },
    {
      name: '480p',
      copy: false,
      height: 480,
      videoKbps: 1100,
      maxrateKbps: 1200,
      bufsizeKbps: 2400,
      h264Profile: 'main',
    },
  ]);
});

test('ladderArgs: 1080p abr_basic golden argv', () => {
  assert.equal(ladderArgs(options({ width: 1920, height: 1080 })), [
    ...HEAD,
    '-filter_complex',
    `[0:v:0]split=2[s0][s1];[s0]${scale(720)}[v720p];[s1]${scale(480)}[v480p]`,
    '-map',
    '0:v:0',
    '-map',
    '0:a:0',
    '-map',
    '[v720p]',
    '-map',
    '0:a:0',
    '-map',
    '[v480p]',
    '-map',
    '0:a:0',
    '-c:v:0',
    'copy',
    ...X264_720,
    ...x264_480(2),
    '-c:a',
    'copy',
    '-fps_mode',
    'passthrough',
    ...HLS('v:0,a:0,name:source v:1,a:1,name:720p v:2,a:2,name:480p'),
  ]);
});

test('ladderArgs: 720p abr_basic golden argv (no split for one encoded rung)', () => {
  assert.equal(ladderArgs(options({ width: 1280, height: 720 })), [
    ...HEAD,
    '-filter_complex',
    `[0:v:0]${scale(480)}[v480p]`,
    '-map',
    '0:v:0',
    '-map',
    '0:a:0',
    '-map',
    '[v480p]',
    '-map',
    '0:a:0',
    '-c:v:0',
    'copy',
    ...x264_480(1),
    '-c:a',
    'copy',
    '-fps_mode',
    'passthrough',
    ...HLS('v:0,a:0,name:source v:1,a:1,name:480p'),
  ]);
});

const COPY_ONLY = [
  ...HEAD,
  '-map',
  '0:v:0',
  '-map',
  '0:a:0',
  '-c:v:0',
  'copy',
  '-c:a',
  'copy',
  '-fps_mode',
  'passthrough',
  ...HLS('v:0,a:0,name:source'),
];

test('ladderArgs: 480p source under abr_basic is copy only, no filter', () => {
  assert.equal(ladderArgs(options({ width: 854, height: 480 })), COPY_ONLY);
});

test('ladderArgs: passthrough of a 1080p source is copy only', () => {
  assert.equal(
    ladderArgs(
      options({ width: 1920, height: 1080 }, { renditions: planLadder('passthrough', { width: 1920, height: 1080 }) }),
    ),
    COPY_ONLY,
  );
});

test('ladderArgs: portrait 720x1280 gets the same orientation-free scale (short side to 480: 480x854)', () => {
  const args = ladderArgs(options({ width: 720, height: 1280 }));
  assert.equal(args[args.indexOf('-filter_complex') + 1], `[0:v:0]${scale(480)}[v480p]`);
  assert.equal(args[args.indexOf('-var_stream_map') + 1], 'v:0,a:0,name:source v:1,a:1,name:480p');
});

test('ladderArgs: no audio leaves out every audio map, codec and stream-map entry', () => {
  const args = ladderArgs(options({ width: 1920, height: 1080 }, { hasAudio: false }));
  assert.equal(args, [
    ...HEAD,
    '-filter_complex',
    `[0:v:0]split=2[s0][s1];[s0]${scale(720)}[v720p];[s1]${scale(480)}[v480p]`,
    '-map',
    '0:v:0',
    '-map',
    '[v720p]',
    '-map',
    '[v480p]',
    '-c:v:0',
    'copy',
    ...X264_720,
    ...x264_480(2),
    '-fps_mode',
    'passthrough',
    ...HLS('v:0,name:source v:1,name:720p v:2,name:480p'),
  ]);
  assert.not.ok(
    args.some((a) => a.includes('a:')),
    'no audio specifier anywhere',
  );
});

test('ladderArgs: threads and the other preset land in the argv', () => {
  const args = ladderArgs(options({ width: 1280, height: 720 }, { threads: 2, preset: 'veryfast' }));
  assert.equal(args.slice(args.indexOf('-threads'), args.indexOf('-threads') + 2), ['-threads', '2']);
  assert.is(args[args.indexOf('-preset:v:1') + 1], 'veryfast');
  assert.not.ok(args.includes('-master_pl_name'), 'the app writes the master playlist itself');
});

test('ladderArgs: a fresh folder gets shorter first segments and no append_list; later sessions append', () => {
  const fresh = ladderArgs(options({ width: 1280, height: 720 }, { firstSegmentSeconds: 2 }));
  assert.is(fresh[fresh.indexOf('-hls_init_time') + 1], '2');
  assert.is(fresh[fresh.indexOf('-hls_flags') + 1], 'temp_file+independent_segments+program_date_time+omit_endlist');
  const later = ladderArgs(options({ width: 1280, height: 720 }, { firstSegmentSeconds: 0 }));
  assert.not.ok(later.includes('-hls_init_time'));
  assert.is(
    later[later.indexOf('-hls_flags') + 1],
    'temp_file+independent_segments+program_date_time+omit_endlist+append_list',
  );
});

test('ladderArgs: the session recording on stdin is read as FLV', () => {
  const args = ladderArgs(options({ width: 1280, height: 720 }, { input: 'pipe:0', inputFormat: 'flv' }));
  assert.equal(args.slice(args.indexOf('-f'), args.indexOf('-i') + 2), ['-f', 'flv', '-i', 'pipe:0']);
  const live = ladderArgs(options({ width: 1280, height: 720 }));
  assert.not.ok(live.slice(0, live.indexOf('-i')).includes('-f'), 'an RTMP input names no format');
});

test('ladderArgs: refuses bad input', () => {
  assert.throws(() => ladderArgs(options({ width: 1280, height: 720 }, { renditions: [] })), /at least one/);
  assert.throws(() => ladderArgs(options({ width: 1280, height: 720 }, { segmentSeconds: 0 })), /segmentSeconds/);
  assert.throws(() => ladderArgs(options({ width: 1280, height: 720 }, { preset: 'fast; rm' })), /preset/);
});

test.run();
