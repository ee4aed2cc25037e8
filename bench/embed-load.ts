/**
 * The public endpoints under load: embed reads through nginx's one-second cache and straight to
 * the API, and viewer beats from thousands of distinct page loads.
 */
import { load, type Row } from './api.bench.js';
import { api, type Served } from './pipeline.bench.js';

export interface EmbedRows {
  rows: Row[];
  /** nginx's `X-Cache` of every answer of the cached run. */
  cache: Record<string, number>;
  /** Answers that went to the API (MISS, EXPIRED), per second of the cached run. */
  apiReadsPerSecond: number;
}

const header = (headers: Record<string, unknown>, name: string): string => {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? '-' : String(headers[key]);
};

/** `GET /api/embed/{id}` through nginx, counting its cache statuses; `opts` may set a rate (`overallRate`). */
async function cachedReads(
  s: Served,
  name: string,
  id: string,
  opts: Partial<Parameters<typeof load>[1]> = {},
): Promise<{ row: Row; cache: Record<string, number>; apiReadsPerSecond: number }> {
  const cache: Record<string, number> = {};
  const started = Date.now();
  const row = await load(name, {
    url: s.playerUrl,
    ...opts,
    requests: [
      {
        method: 'GET',
        path: `/api/embed/${id}`,
        onResponse: (_status, _body, _context, headers) => {
          const status = header(headers as Record<string, unknown>, 'x-cache');
          cache[status] = (cache[status] ?? 0) + 1;
        },
      },
    ],
  });
  const seconds = (Date.now() - started) / 1000;
  return { row, cache, apiReadsPerSecond: ((cache.MISS ?? 0) + (cache.EXPIRED ?? 0)) / seconds };
}

/** `GET /api/embed/{id}` through nginx (counting its cache statuses), then `/v1/embed/{id}` on the API. */
export async function embedReads(s: Served, id: string): Promise<EmbedRows> {
  const { row: cached, cache, apiReadsPerSecond } = await cachedReads(s, 'embed read via nginx cache', id);
  const direct = await load('embed read, API directly', { url: `${s.apiUrl}/v1/embed/${id}` });
  return { rows: [cached, direct], cache, apiReadsPerSecond };
}

export interface CrowdRows {
  pages: number;
  /** The embed reads of the pages waiting for a pending stream, through nginx. */
  pending: Row;
  cache: Record<string, number>;
  apiReadsPerSecond: number;
  /** Their master playlist reads once it is live and not playable yet (a 404 from the CDN's disk). */
  notPlayable: Row;
}

/**
 * A crowd of hosted pages waiting for a stream, as their requests reach nginx: `pages` pages
 * reading the embed every `pendingPollSeconds` while it is pending, then the master playlist every
 * `playablePollMs` while it is live and not playable yet. The pages' requests are plain HTTP
 * on kept-alive connections, so a steady rate from CONNECTIONS clients stands for them.
 */
export async function waitingCrowd(
  s: Served,
  id: string,
  masterUrl: string,
  pages: number,
  pendingPollSeconds: number,
  playablePollMs: number,
): Promise<CrowdRows> {
  const pending = await cachedReads(s, `${pages} pages waiting, embed read every ${pendingPollSeconds} s`, id, {
    overallRate: Math.round(pages / pendingPollSeconds),
  });
  const notPlayable = await load(`${pages} pages, master read every ${playablePollMs} ms (404)`, {
    url: masterUrl,
    overallRate: Math.round((pages * 1000) / playablePollMs),
    duration: 5,
  });
  return {
    pages,
    pending: pending.row,
    cache: pending.cache,
    apiReadsPerSecond: pending.apiReadsPerSecond,
    notPlayable,
  };
}

export interface BeatRow extends Row {
  distinct: number;
  /** `viewers.now` of the stream read right after the run. */
  watching: number | null;
  exact: boolean | null;
  /** The beacon's rate after the run, and what its sample of these page loads should count (u below it, each for 1/rate). */
  rate: number;
  expected: number;
}

interface ViewersRead {
  viewers: { now: { watching: number; exact: boolean } | null };
}

/** Beats of `distinct` page loads (`st=p`, `u` random per load) cycled to `{origin}{prefix}/beat`, then the stream's count. */
export async function beats(
  s: Served,
  name: string,
  origin: string,
  prefix: string,
  streamId: string,
  distinct = 5000,
): Promise<BeatRow> {
  // Each page load draws its u once (below 1 at 6 decimals).
  const us = Array.from({ length: distinct }, () => Math.floor(Math.random() * 1e6) / 1e6);
  const queries = us.map((u, i) => `s=bench-viewer-${String(i).padStart(5, '0')}&st=p&u=${u}`);
  let next = 0;
  const row = await load(name, {
    url: origin,
    requests: [
      {
        method: 'POST',
        setupRequest: (req) => ({ ...req, path: `${prefix}/beat?${queries[next++ % distinct]}` }),
      },
    ],
  });
  // Above 400 only players with u below the rate report: the embed read measures and publishes
  // the rate the stream read right after counts with, so the sample's count can be worked out here.
  const { beacon } = (await (await fetch(`${s.apiUrl}/v1/embed/${streamId}`)).json()) as { beacon: { rate: number } };
  const read = await api<ViewersRead>(s, 'GET', `/v1/streams/${streamId}`);
  const expected = Math.round(us.slice(0, next).filter((u) => u < beacon.rate).length / beacon.rate);
  return {
    ...row,
    distinct: Math.min(distinct, next),
    watching: read.viewers.now?.watching ?? null,
    exact: read.viewers.now?.exact ?? null,
    rate: beacon.rate,
    expected,
  };
}
