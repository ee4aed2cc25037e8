import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { sha256 } from '../../src/core/ids.js';
import {
  srtListenerInput,
  srtPassphrase,
  srtPassphraseKey,
  srtPublishUrl,
  srtRelayArgs,
} from '../../src/platform/media/srt.js';

const KEY = srtPassphraseKey('test-signing-key');

test('the passphrase comes from the stream and its key hash: 32 characters, new with a new key', () => {
  const a = srtPassphrase(KEY, 'str_a', sha256('key-1'));
  assert.match(a, /^[A-Za-z0-9_-]{32}$/);
  assert.is(srtPassphrase(KEY, 'str_a', sha256('key-1')), a, 'recomputed without the key');
  assert.is.not(srtPassphrase(KEY, 'str_a', sha256('key-2')), a);
  assert.is.not(srtPassphrase(KEY, 'str_b', sha256('key-1')), a);
  assert.is.not(srtPassphrase(srtPassphraseKey('other'), 'str_a', sha256('key-1')), a);
});

test('the publish URL in ffmpeg/OBS syntax: latency in microseconds; IPv6 hosts bracketed', () => {
  assert.is(
    srtPublishUrl({ host: 'ingest.example.com', port: 10000, passphrase: 'p'.repeat(32), latencyMs: 1000 }),
    `srt://ingest.example.com:10000?passphrase=${'p'.repeat(32)}&latency=1000000`,
  );
  assert.match(
    srtPublishUrl({ host: '2001:db8::1', port: 10001, passphrase: 'x', latencyMs: 120 }),
    /^srt:\/\/\[2001:db8::1\]:10001\?/,
  );
});

test('the listener: its passphrase in an ffconcat option, not in the URL', () => {
  assert.is(
    srtListenerInput({ listenHost: '0.0.0.0', port: 10000, passphrase: 'secret-passphrase', latencyMs: 1000 }),
    "ffconcat version 1.0\nfile 'srt://0.0.0.0:10000?mode=listener&latency=1000000'\noption passphrase secret-passphrase\n",
  );
});

test('the SRT relay copies what the publisher sent into RTMP, the credential out of the URL', () => {
  assert.equal(
    srtRelayArgs({
      inputFile: '/d/run/srt/s.ffconcat',
      rtmpUrl: 'rtmp://127.0.0.1:1935/live',
      playpath: 'str_abc?relay=c',
    }),
    [
      '-hide_banner',
      '-nostdin',
      '-loglevel',
      'error',
      '-protocol_whitelist',
      'file,srt,udp',
      '-safe',
      '0',
      '-f',
      'concat',
      '-i',
      '/d/run/srt/s.ffconcat',
      '-map',
      '0:v:0',
      '-map',
      '0:a:0?',
      '-c',
      'copy',
      '-rtmp_playpath',
      'str_abc?relay=c',
      '-rtmp_live',
      'live',
      '-f',
      'flv',
      'rtmp://127.0.0.1:1935/live',
    ],
  );
});

test.run();
