import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { relayArgs } from '../../src/platform/media/relay.js';

const HEAD = [
  '-hide_banner',
  '-nostdin',
  '-loglevel',
  'error',
  '-protocol_whitelist',
  'file,udp,rtp',
  '-fflags',
  '+genpts',
  '-analyzeduration',
  '100000',
  '-fpsprobesize',
  '0',
  '-reorder_queue_size',
  '256',
  '-buffer_size',
  '4194304',
  '-i',
  '/d/run/whip/s.sdp',
];
const TAIL = ['-rtmp_playpath', 'str_abc?relay=c', '-rtmp_live', 'live', '-f', 'flv', 'rtmp://127.0.0.1:1935/live'];

test('the WHIP relay copies H.264, makes AAC 48 kHz of Opus and publishes RTMP, the key out of the URL', () => {
  assert.equal(
    relayArgs({
      sdpFile: '/d/run/whip/s.sdp',
      rtmpUrl: 'rtmp://127.0.0.1:1935/live',
      playpath: 'str_abc?relay=c',
      hasAudio: true,
    }),
    [
      ...HEAD,
      '-map',
      '0:v:0',
      '-map',
      '0:a:0',
      '-c:v',
      'copy',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-ar',
      '48000',
      '-ac',
      '2',
      ...TAIL,
    ],
  );
});

test('a publisher without audio: video only', () => {
  assert.equal(
    relayArgs({
      sdpFile: '/d/run/whip/s.sdp',
      rtmpUrl: 'rtmp://127.0.0.1:1935/live',
      playpath: 'str_abc?relay=c',
      hasAudio: false,
    }),
    [...HEAD, '-map', '0:v:0', '-c:v', 'copy', ...TAIL],
  );
});

test.run();
