/**
 * SDP as a WHIP endpoint needs it: what an offer asks for, the one-codec answer the browser gets,
 * and the SDP that tells ffmpeg what arrives on its loopback ports. Pure text functions
 * (shared/research/whip_feasibility.md, pitfalls 3 and 4).
 */

const lines = (sdp: string) => sdp.split(/\r?\n/).filter((l) => l.length > 0);

/** The session part, then one part per `m=` line, each as its lines. */
function sections(sdp: string): string[][] {
  const out: string[][] = [[]];
  for (const line of lines(sdp)) {
    if (line.startsWith('m=')) out.push([]);
    (out.at(-1) as string[]).push(line);
  }
  return out;
}

const kindOf = (section: string[]) => /^m=(\w+)/.exec(section[0] ?? '')?.[1] ?? '';

/**
 * Several video layers: more than one video section, RID-based simulcast (`a=simulcast`,
 * `a=rid`) or the legacy SSRC group (`a=ssrc-group:SIM`).
 */
export function offerHasSimulcast(offer: string): boolean {
  const video = sections(offer)
    .slice(1)
    .filter((s) => kindOf(s) === 'video');
  return video.length > 1 || video.some((s) => s.some((l) => /^a=(simulcast:|rid:|ssrc-group:SIM\b)/.test(l)));
}

export interface Codec {
  pt: number;
  /** As in `a=rtpmap`: `H264/90000`, `opus/48000/2`. */
  rtpmap: string;
  fmtp: string | null;
}

function codecs(section: string[]): Codec[] {
  const pts = (section[0] ?? '').split(' ').slice(3).map(Number);
  return pts.flatMap((pt) => {
    const rtpmap = section.find((l) => l.startsWith(`a=rtpmap:${pt} `))?.slice(`a=rtpmap:${pt} `.length);
    if (!rtpmap) return [];
    const fmtp = section.find((l) => l.startsWith(`a=fmtp:${pt} `))?.slice(`a=fmtp:${pt} `.length) ?? null;
    return [{ pt, rtpmap, fmtp }];
  });
}

const isH264Mode1 = (c: Codec) => /^H264\//i.test(c.rtpmap) && /packetization-mode=1/.test(c.fmtp ?? '');
const isOpus = (c: Codec) => /^opus\//i.test(c.rtpmap);

/** The codecs media is relayed with: H.264 (packetization-mode 1) and Opus when offered. */
export interface Chosen {
  video: Codec;
  audio: Codec | null;
}

/**
 * Which of the answer's codecs to keep: the first H.264 with packetization-mode 1 (the browser
 * listed it in its order of preference), and Opus. Null when the answer has no such H.264.
 */
export function chooseCodecs(answer: string): Chosen | null {
  const parts = sections(answer).slice(1);
  const video = parts
    .filter((s) => kindOf(s) === 'video')
    .flatMap(codecs)
    .find(isH264Mode1);
  if (!video) return null;
  const audio =
    parts
      .filter((s) => kindOf(s) === 'audio')
      .flatMap(codecs)
      .find(isOpus) ?? null;
  return { video, audio };
}

/** Whether the offer can send H.264 that ffmpeg can copy (VP8-only browsers cannot). */
export const offerHasH264 = (offer: string): boolean =>
  sections(offer)
    .slice(1)
    .filter((s) => kindOf(s) === 'video')
    .flatMap(codecs)
    .some(isH264Mode1);

/**
 * The answer with one payload type per section and no transport-wide congestion control:
 * werift answers every codec that matches by name and echoes `transport-cc`, whose feedback it
 * does not send well enough (the browser's estimate fell to ~100 kbit/s); REMB replaces it.
 */
export function trimAnswer(answer: string, chosen: Chosen): string {
  const keep = new Map<string, number | null>([
    ['video', chosen.video.pt],
    ['audio', chosen.audio?.pt ?? null],
  ]);
  const out = sections(answer).flatMap((section, i) => {
    if (i === 0) return section;
    const pt = keep.get(kindOf(section));
    if (pt === undefined || pt === null) return section;
    return section.flatMap((line, j) => {
      if (j === 0) return [line.split(' ').slice(0, 3).concat(String(pt)).join(' ')];
      const m = /^a=(rtpmap|fmtp|rtcp-fb):(\d+) /.exec(line);
      if (m && Number(m[2]) !== pt) return [];
      if (/^a=rtcp-fb:\d+ transport-cc/.test(line) || /^a=extmap:\d+ .*transport-wide-cc/.test(line)) return [];
      return [line];
    });
  });
  return out.join('\r\n') + '\r\n';
}

/** ffmpeg's input: RTP of the chosen codecs on loopback ports (RTCP on the port above each). */
export function relayInputSdp(chosen: Chosen, ports: { video: number; audio: number }): string {
  const media = (kind: string, port: number, c: Codec) => [
    `m=${kind} ${port} RTP/AVP ${c.pt}`,
    `a=rtpmap:${c.pt} ${c.rtpmap}`,
    ...(c.fmtp ? [`a=fmtp:${c.pt} ${c.fmtp}`] : []),
  ];
  return (
    [
      'v=0',
      'o=- 0 0 IN IP4 127.0.0.1',
      's=svc whip relay',
      'c=IN IP4 127.0.0.1',
      't=0 0',
      ...media('video', ports.video, chosen.video),
      ...(chosen.audio ? media('audio', ports.audio, chosen.audio) : []),
    ].join('\n') + '\n'
  );
}
