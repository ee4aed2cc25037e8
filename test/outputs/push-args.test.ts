import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { errorReason, outputTarget, pushArgs, redactKey } from '../../src/domains/engine/outputs/push-args.js';

/** The push's command line per protocol (golden), and the key kept out of what is logged. */

const live = { kind: 'live', url: 'rtmp://127.0.0.1:1935/live/str_x' } as const;
const CA = '/etc/ssl/certs/ca-certificates.crt';

test('RTMP: to the address checked, the original URL as tcUrl', () => {
  assert.equal(
    pushArgs(live, {
      url: 'rtmp://a.rtmp.youtube.com/live2',
      key: 'abcd-efgh',
      address: '142.250.1.2',
      family: 4,
      caFile: CA,
    }),
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-nostats',
      '-progress',
      'pipe:1',
      '-stats_period',
      '1',
      '-rw_timeout',
      '10000000',
      '-i',
      'rtmp://127.0.0.1:1935/live/str_x',
      '-map',
      '0:v?',
      '-map',
      '0:a?',
      '-c',
      'copy',
      '-rw_timeout',
      '10000000',
      '-f',
      'flv',
      '-flvflags',
      'no_duration_filesize',
      '-rtmp_tcurl',
      'rtmp://a.rtmp.youtube.com/live2',
      'rtmp://142.250.1.2:1935/live2/abcd-efgh',
    ],
  );
  assert.equal(
    outputTarget({ url: 'rtmp://live.example/app/', key: 'k', address: '2001:db8::1', family: 6, caFile: CA }).url,
    'rtmp://[2001:db8::1]:1935/app/k',
  );
});

test('RTMPS: to the name (SNI), its certificate verified; SRT: to the address, the key as streamid; the recording on stdin', () => {
  const rtmps = outputTarget({
    url: 'rtmps://live-api-s.facebook.com:443/rtmp/',
    key: 'FB-1',
    address: '157.240.1.1',
    family: 4,
    caFile: CA,
  });
  assert.equal(rtmps, {
    options: ['-f', 'flv', '-flvflags', 'no_duration_filesize', '-tls_verify', '1', '-ca_file', CA],
    url: 'rtmps://live-api-s.facebook.com:443/rtmp/FB-1',
  });
  assert.equal(
    outputTarget({ url: 'srt://ingest.example:9000', key: 'a b', address: '203.0.113.5', family: 4, caFile: CA }),
    {
      options: ['-f', 'mpegts'],
      url: 'srt://203.0.113.5:9000?streamid=a%20b',
    },
  );
  assert.is(
    outputTarget({ url: 'srt://ingest.example:9000', key: '', address: '203.0.113.5', family: 4, caFile: CA }).url,
    'srt://203.0.113.5:9000',
    'an srt output without a key sends no streamid',
  );
  const args = pushArgs(
    { kind: 'recording' },
    { url: 'srt://h:1', key: 'k', address: '203.0.113.5', family: 4, caFile: CA },
  );
  assert.equal(args.slice(8, 12), ['-f', 'flv', '-i', 'pipe:0']);
});

test('the key never appears in a reason or a logged argument', () => {
  assert.is(redactKey('rtmp://h/app/s3cr3t?x=s3cr3t', 's3cr3t'), 'rtmp://h/app/<key>?x=<key>');
  assert.is(redactKey('streamid=a%20b', 'a b'), 'streamid=<key>');
  const reason = errorReason(
    [
      '[rtmp @ 0x55d0c8a1b2c0] Server error: Authentication failed for s3cr3t',
      'Error opening output rtmp://h/app/s3cr3t: I/O error',
      'Conversion failed!',
    ],
    's3cr3t',
    { code: 1, signal: null },
  );
  assert.is(
    reason,
    'Server error: Authentication failed for <key>; Error opening output rtmp://h/app/<key>: I/O error',
  );
  assert.is(errorReason([], 'k', { code: 1, signal: null }), 'ffmpeg exited with code 1');
});

test.run();
