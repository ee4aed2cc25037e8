import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startsKeyframe } from '../../src/platform/webrtc/h264.js';
import {
  chooseCodecs,
  offerHasH264,
  offerHasSimulcast,
  relayInputSdp,
  trimAnswer,
} from '../../src/platform/webrtc/sdp.js';

/** Parts of what Chromium offers and werift answers (shared/research/whip_feasibility.md). */
const VIDEO = [
  'm=video 9 UDP/TLS/RTP/SAVPF 96 102 103 45',
  'a=mid:0',
  'a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01',
  'a=rtpmap:96 VP8/90000',
  'a=rtcp-fb:96 transport-cc',
  'a=rtpmap:102 H264/90000',
  'a=rtcp-fb:102 goog-remb',
  'a=rtcp-fb:102 transport-cc',
  'a=rtcp-fb:102 nack pli',
  'a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f',
  'a=rtpmap:103 H264/90000',
  'a=fmtp:103 level-asymmetry-allowed=1;packetization-mode=0;profile-level-id=42001f',
  'a=rtpmap:45 AV1/90000',
];
const AUDIO = [
  'm=audio 9 UDP/TLS/RTP/SAVPF 111 63',
  'a=mid:1',
  'a=rtpmap:111 opus/48000/2',
  'a=fmtp:111 minptime=10;useinbandfec=1',
  'a=rtpmap:63 red/48000/2',
];
const sdp = (...parts: string[][]) =>
  ['v=0', 'o=- 1 2 IN IP4 127.0.0.1', 's=-', 't=0 0', ...parts.flat()].join('\r\n') + '\r\n';

test('simulcast: RID layers, the legacy SIM group or two video sections; one layer is not', () => {
  assert.is(offerHasSimulcast(sdp(VIDEO, AUDIO)), false);
  assert.is(offerHasSimulcast(sdp([...VIDEO, 'a=rid:h send', 'a=rid:l send', 'a=simulcast:send h;l'], AUDIO)), true);
  assert.is(offerHasSimulcast(sdp([...VIDEO, 'a=ssrc-group:SIM 1 2 3'], AUDIO)), true);
  assert.is(offerHasSimulcast(sdp(VIDEO, VIDEO)), true);
  // A simulcast attribute of an audio section is no video layer.
  assert.is(offerHasSimulcast(sdp(VIDEO, [...AUDIO, 'a=rid:x send'])), false);
});

test('H.264 with packetization-mode 1 is needed: VP8-only offers have none', () => {
  assert.is(offerHasH264(sdp(VIDEO, AUDIO)), true);
  assert.is(
    offerHasH264(
      sdp(
        VIDEO.filter((l) => !/:102 /.test(l)),
        AUDIO,
      ),
    ),
    false,
  );
});

test('the answer keeps one H.264 and Opus, without transport-cc; the relay SDP names them', () => {
  const chosen = chooseCodecs(sdp(VIDEO, AUDIO));
  assert.equal(chosen?.video, {
    pt: 102,
    rtpmap: 'H264/90000',
    fmtp: 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f',
  });
  assert.equal(chosen?.audio, { pt: 111, rtpmap: 'opus/48000/2', fmtp: 'minptime=10;useinbandfec=1' });
  const trimmed = trimAnswer(sdp(VIDEO, AUDIO), chosen!);
  assert.match(trimmed, /^m=video 9 UDP\/TLS\/RTP\/SAVPF 102\r$/m);
  assert.match(trimmed, /^m=audio 9 UDP\/TLS\/RTP\/SAVPF 111\r$/m);
  assert.not.match(trimmed, /transport-cc|transport-wide-cc|VP8|AV1|a=rtpmap:103|red\/48000/);
  assert.match(trimmed, /a=rtcp-fb:102 nack pli/);
  assert.is(
    relayInputSdp(chosen!, { video: 20000, audio: 20002 }),
    [
      'v=0',
      'o=- 0 0 IN IP4 127.0.0.1',
      's=svc whip relay',
      'c=IN IP4 127.0.0.1',
      't=0 0',
      'm=video 20000 RTP/AVP 102',
      'a=rtpmap:102 H264/90000',
      'a=fmtp:102 level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42001f',
      'm=audio 20002 RTP/AVP 111',
      'a=rtpmap:111 opus/48000/2',
      'a=fmtp:111 minptime=10;useinbandfec=1',
      '',
    ].join('\n'),
  );
});

test('keyframes: SPS or IDR alone, inside STAP-A, or the first FU-A fragment of one', () => {
  assert.is(startsKeyframe(Buffer.from([0x67, 0x42])), true, 'SPS');
  assert.is(startsKeyframe(Buffer.from([0x65, 0x88])), true, 'IDR');
  assert.is(startsKeyframe(Buffer.from([0x41, 0x9a])), false, 'P slice');
  assert.is(
    startsKeyframe(Buffer.from([0x78, 0x00, 0x02, 0x67, 0x42, 0x00, 0x02, 0x68, 0xce])),
    true,
    'STAP-A with SPS',
  );
  assert.is(
    startsKeyframe(Buffer.from([0x78, 0x00, 0x02, 0x06, 0x05, 0x00, 0x02, 0x41, 0x9a])),
    false,
    'STAP-A without',
  );
  assert.is(startsKeyframe(Buffer.from([0x7c, 0x85, 0x88])), true, 'FU-A start of IDR');
  assert.is(startsKeyframe(Buffer.from([0x7c, 0x05, 0x88])), false, 'FU-A middle of IDR');
  assert.is(startsKeyframe(Buffer.from([0x7c, 0x81, 0x9a])), false, 'FU-A start of a P slice');
});

test.run();
