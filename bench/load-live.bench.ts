/**
 * Load while live: 200 connections reading a stream and 20 creates a second for 60 s while a
 * 720p `abr_basic` stream is live on the same appliance. Prints the reads' rate and latency,
 * every status code of both (a 500 is a bug; a 503 must carry Retry-After), and whether the live
 * stream lost media: nginx's dropped count for its ladder and whether its playlists kept growing.
 */
import autocannon from 'autocannon';
import { DEFAULT_LIVE } from '../src/config/config.js';
import { dataPaths } from '../src/config/paths.js';
import { controlRequest } from '../src/platform/nginx/nginx.js';
import { parseRtmpStat } from '../src/platform/nginx/rtmp-stat.js';
import { makeClip, publish } from '../test/helpers/publisher.js';
import { benchSeconds } from './api.bench.js';
import { api, firstPlayable, startServe } from './pipeline.bench.js';

const READERS = 200;
const CREATES_PER_SECOND = 20;

const codes = (r: autocannon.Result): string =>
  Object.entries(r.statusCodeStats as Record<string, { count: number }>)
    .map(([code, s]) => `${code}×${s.count}`)
    .join(' ') || 'none';

/** The source playlist's media sequence and the number of its newest segment. */
async function sourcePlaylist(playbackUrl: string): Promise<{ sequence: number; newest: number }> {
  const text = await (await fetch(playbackUrl.replace(/master\.m3u8$/, 'source.m3u8'))).text();
  const numbers = [...text.matchAll(/_(\d+)\.ts$/gm)].map((m) => Number(m[1]));
  return { sequence: Number(/#EXT-X-MEDIA-SEQUENCE:(\d+)/.exec(text)?.[1] ?? -1), newest: numbers.at(-1) ?? -1 };
}

export async function benchLoadLive(): Promise<string> {
  const seconds = Math.max(benchSeconds() * 6, 10);
  // Creation limits would refuse most creates: this bench measures the appliance, not the limits.
  const { served, stop } = await startServe({ unlimited: true });
  const clip = await makeClip({ width: 1280, height: 720, seconds: 20 });
  try {
    const stream = await api<{ id: string; stream_key: string; playback_url: string; rtmp_url: string }>(
      served,
      'POST',
      '/v1/streams',
      { name: 'load target' },
    );
    const started = Date.now();
    const publisher = publish(`${stream.rtmp_url}/${stream.stream_key}`, clip, { loop: true, seconds: seconds + 60 });
    const playableAfter = await firstPlayable(stream.playback_url, started);
    const before = await sourcePlaylist(stream.playback_url);
    const headers = { authorization: `Bearer ${served.key}`, 'content-type': 'application/json' };
    const [reads, creates] = await Promise.all([
      autocannon({ url: `${served.apiUrl}/v1/streams/${stream.id}`, connections: READERS, duration: seconds, headers }),
      autocannon({
        url: `${served.apiUrl}/v1/streams`,
        method: 'POST',
        connections: 50,
        overallRate: CREATES_PER_SECOND,
        duration: seconds,
        headers,
        body: '{"name":"load"}',
      }),
    ]);
    const after = await sourcePlaylist(stream.playback_url);
    const stat = parseRtmpStat(await controlRequest(dataPaths(served.dataDir).nginxControl, '/stat')).find(
      (s) => s.name === stream.id,
    );
    const live = await api<{ status: string }>(served, 'GET', `/v1/streams/${stream.id}`);
    await publisher.kill();
    return [
      `Load while live (720p abr_basic publisher; ${READERS} connections reading GET /v1/streams/{id} + ${CREATES_PER_SECOND} creates/s, ${seconds} s)`,
      `reads    ${Math.round(reads.requests.average)} req/s  p50 ${reads.latency.p50} ms  p99 ${reads.latency.p99} ms  statuses ${codes(reads)}  errors ${reads.errors}  timeouts ${reads.timeouts}`,
      `creates  ${Math.round(creates.requests.average)} req/s  p50 ${creates.latency.p50} ms  p99 ${creates.latency.p99} ms  statuses ${codes(creates)}  errors ${creates.errors}  timeouts ${creates.timeouts}`,
      `live stream: playable ${playableAfter.toFixed(2)} s after the publisher started; status ${live.status} after the load; source playlist: media sequence ${before.sequence} → ${after.sequence}, newest segment ${before.newest} → ${after.newest} (${(((after.newest - before.newest) * DEFAULT_LIVE.segment_seconds) / seconds).toFixed(2)} media-s published per s); nginx dropped for the ladder: ${stat?.playersDropped ?? 'no stat'}`,
    ].join('\n');
  } finally {
    await stop();
  }
}
