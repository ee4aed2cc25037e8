/**
 * A publisher's reconnect to another ingest node after its node died (docs/decisions.md, "One
 * broadcast across a node's death"): a passthrough stream published straight to one node, every
 * process of that node killed at once, and the publisher retrying every second through HAProxy.
 * The timeline is read from outside, polled every 100 ms: the dead node's last heartbeat (it is
 * down for everyone NODE_DOWN_AFTER_MS later), its publish session closed by the cluster's
 * failover job, the second session's `started_at` (reconnect admitted), the first new segment file in the origin's folder of the stream, and the origin's
 * playlist listing a segment past the discontinuity that answers 200 (playable).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { dataPaths } from '../src/config/paths.js';
import { parseMediaPlaylist } from '../src/platform/media/playlist.js';
import type { ClusterNode } from '../test/helpers/cluster.js';
import { publish, waitFor, type Publisher } from '../test/helpers/publisher.js';
import { sleep } from '../test/helpers/streams.js';
import type { NodesCluster } from './nodes-cluster.js';

/** Seconds after the kill (negative: before it). */
export interface Timeline {
  lastHeartbeat: number;
  knownDown: number | null;
  admitted: number | null;
  firstSegment: number | null;
  playable: number | null;
  attempts: number;
  from: string;
  to: string;
}

const GIVE_UP_MS = 60_000;

/** A publisher as OBS is one: when refused or cut off, it tries again a second later. */
function retrying(url: string, clip: string) {
  let current: Publisher | null = null;
  let stopped = false;
  let attempts = 0;
  const running = (async () => {
    while (!stopped) {
      attempts++;
      current = publish(url, clip, { loop: true });
      await current.exited;
      if (!stopped) await sleep(1000);
    }
  })();
  return {
    attempts: () => attempts,
    async stop() {
      stopped = true;
      await current?.kill();
      await running;
    },
  };
}

const segmentFiles = (dir: string): Set<string> => {
  try {
    return new Set(
      (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && !f.includes('tmp')),
    );
  } catch {
    return new Set();
  }
};

export async function reconnectOnce(
  c: NodesCluster,
  clip: string,
  victim: ClusterNode,
  other: ClusterNode,
): Promise<Timeline> {
  // On the victim: the other ingest node drained while the stream is made (the primary is drained throughout).
  await c.setStatus(other.name, 'drain');
  const made = await c.createStream({ profile: 'passthrough' }).finally(() => c.setStatus(other.name, 'activate'));
  const { id, rtmp_url: rtmp, stream_key: key } = made;
  if ((await c.nodeOf(id)) !== victim.name) throw new Error(`${id} is not on ${victim.name}`);
  const first = publish(`${rtmp}/${key}`, clip, { loop: true });
  let again: ReturnType<typeof retrying> | null = null;
  try {
    const media = await c.mediaPlaylist(id, () => true);
    const listed = async () => {
      const res = await fetch(media, { signal: AbortSignal.timeout(5000) });
      return res.status === 200 ? parseMediaPlaylist(await res.text()).segments : [];
    };
    await waitFor(`${id} plays at the origin`, async () => (await listed()).length >= 2, 60_000);
    await sleep(6000);
    const originDir = join(dataPaths(c.primaryDir).origin, id);
    const filesBefore = segmentFiles(originDir);
    const urisBefore = new Set((await listed()).map((s) => s.uri));

    const killedAt = Date.now();
    for (const pid of victim.pids()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Ended meanwhile.
      }
    }
    await first.kill();
    again = retrying(`${c.stableRtmp}/${key}`, clip);
    const since = (t: number | null) => (t === null ? null : (t - killedAt) / 1000);
    let knownDown: number | null = null;
    let firstSegment: number | null = null;
    let playable: number | null = null;
    while (playable === null && Date.now() - killedAt < GIVE_UP_MS) {
      const now = Date.now();
      if (knownDown === null) {
        const [session] = await c.sql<{ ended_at: Date | null }[]>`
          select ended_at from publish_sessions where stream_id = ${id} order by started_at limit 1`;
        if (session?.ended_at) knownDown = now;
      }
      if (firstSegment === null && [...segmentFiles(originDir)].some((f) => !filesBefore.has(f))) firstSegment = now;
      const segments = await listed().catch(() => []);
      const at = segments.findIndex((s) => !urisBefore.has(s.uri));
      const fresh = segments[at];
      if (fresh && segments.slice(0, at + 1).some((s) => s.discontinuity)) {
        const res = await fetch(new URL(fresh.uri, media), { signal: AbortSignal.timeout(5000) });
        await res.arrayBuffer();
        if (res.status === 200) playable = now;
      }
      await sleep(100);
    }
    const sessions = await c.sql<{ started_at: Date }[]>`
      select started_at from publish_sessions where stream_id = ${id} order by started_at`;
    const [heartbeat] = await c.sql<
      { last_seen_at: Date }[]
    >`select last_seen_at from nodes where name = ${victim.name}`;
    return {
      lastHeartbeat: since(heartbeat?.last_seen_at.getTime() ?? null) ?? NaN,
      knownDown: since(knownDown),
      admitted: since(sessions[1]?.started_at.getTime() ?? null),
      firstSegment: since(firstSegment),
      playable: since(playable),
      attempts: again.attempts(),
      from: victim.name,
      to: (await c.nodeOf(id)) ?? '?',
    };
  } finally {
    await first.kill();
    await again?.stop();
    await c.api('DELETE', `/v1/streams/${id}`);
  }
}
