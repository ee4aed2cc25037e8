import { resolveConfig } from '../../src/config/config.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ApplianceMetrics } from '../../src/composition/metrics.js';
import { metricsUrl } from '../../src/config/config.js';
import { systemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { hookToken } from '../../src/domains/engine/live/hooks.routes.js';
import { connect } from '../../src/platform/db/connect.js';
import { startTestAppliance, type TestAppliance } from '../helpers/appliance.js';
import { freePort } from '../helpers/ports.js';
import { makeClip, publish, waitFor, type Publisher } from '../helpers/publisher.js';
import { Receiver } from '../helpers/receiver.js';

/**
 * `/metrics` of a whole appliance (real nginx, PostgreSQL, a publisher, a webhook receiver) on
 * its operator listener, and the Grafana dashboard in docs/ against what it exposes.
 */
interface Ctx {
  app: TestAppliance;
  receiver: Receiver;
  clip: string;
  publishers: Publisher[];
}
const t = suite<Ctx>('metrics: /metrics on the operator listener');

t.before(async (ctx) => {
  ctx.publishers = [];
  ctx.receiver = await Receiver.start();
  ctx.app = await startTestAppliance({
    metrics_port: await freePort(),
    allow_private_webhooks: true,
    expiry_check_seconds: 1,
  });
  ctx.clip = await makeClip({ width: 320, height: 180, seconds: 10, gopSeconds: 1 });
});
t.after(async (ctx) => {
  await Promise.all(ctx.publishers.map((p) => p.kill()));
  await ctx.app?.close();
  await ctx.receiver?.close();
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The exposition format's sample lines (label values here hold no quotes or commas). */
function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
      return { name: m[1] as string, labels, value: Number(m[3]) };
    });
}

/** The one sample of `name` whose labels include `labels`; undefined when none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples(text).filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)}: ${found.length} samples`);
  return found[0]?.value;
}

async function scrape(ctx: Ctx): Promise<string> {
  const res = await fetch(metricsUrl(ctx.app.config) as string);
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  return res.text();
}

t('metrics are on their own loopback listener, not on the public API port', async (ctx) => {
  const url = new URL(metricsUrl(ctx.app.config) as string);
  assert.is(url.hostname, '127.0.0.1');
  assert.is.not(Number(url.port), ctx.app.config.ports.api);
  const onApi = await ctx.app.call('GET', '/metrics');
  assert.is(onApi.status, 404);
  assert.is(onApi.body.error.code, 'not_found');
  const other = await fetch(new URL('/', url));
  assert.is(other.status, 404);
  await other.text();
});

t(
  'a scrape during a live stream: HTTP by route, streams by status, ingest, viewers, a webhook delivery, jobs, parts',
  async (ctx) => {
    const { app, receiver } = ctx;
    const { key } = await app.newAccount();
    const endpoint = await app.call('POST', '/v1/webhooks', { key, body: { url: receiver.url('/metrics-hook') } });
    assert.is(endpoint.status, 201, endpoint.text);
    const created = await app.call('POST', '/v1/streams', { key, body: { profile: 'passthrough', record: false } });
    assert.is(created.status, 201, created.text);
    const s = created.body;
    ctx.publishers.push(publish(app.rtmpUrl(s.stream_key), ctx.clip, { loop: true }));
    await waitFor('live', async () => (await app.call('GET', `/v1/streams/${s.id}`, { key })).body.status === 'live');
    await receiver.waitFor('/metrics-hook', 1, 20_000);
    const beat = await app.call('POST', `/v1/embed/${s.id}/beat?s=metrics-page-1&st=p&u=0.1`);
    assert.is(beat.status, 204, beat.text);

    const text = await waitFor('ingest, the delivery and a job success in a scrape', async () => {
      const now = await scrape(ctx);
      const ready =
        (sample(now, 'svc_live_ingest_kbps', { stream: s.id }) ?? 0) > 0 &&
        sample(now, 'svc_webhook_attempts_total', { endpoint: endpoint.body.id, result: 'success' }) !== undefined &&
        sample(now, 'svc_job_last_success_timestamp_seconds', { job: 'reservation-expiry' }) !== undefined;
      return ready && now;
    });

    // HTTP: by route pattern and status, never by the raw path (ids, the hooks' token).
    assert.ok(
      (sample(text, 'svc_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/v1/streams/:id',
        status: '200',
      }) ?? 0) >= 1,
    );
    assert.is(
      sample(text, 'svc_http_request_duration_seconds_count', { method: 'POST', route: '/v1/streams', status: '201' }),
      1,
    );
    assert.is(
      sample(text, 'svc_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/internal/ingest/:token/publish',
        status: '200',
      }),
      1,
    );
    assert.ok(
      (sample(text, 'svc_http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status: '404' }) ??
        0) >= 1,
      'the /metrics asked of the API',
    );
    const routes = new Set(
      samples(text)
        .map((x) => x.labels.route)
        .filter(Boolean),
    );
    for (const route of routes) {
      assert.not.ok(route?.includes(s.id), route);
      assert.not.ok(route?.includes(hookToken(app.secrets.signing_key)), route);
    }

    assert.is(sample(text, 'svc_streams', { status: 'live' }), 1);
    assert.is(sample(text, 'svc_streams', { status: 'ended' }), 0);
    assert.is(sample(text, 'svc_live_ingest_frame_rate', { stream: s.id }), 30);
    assert.is(sample(text, 'svc_live_dropped_messages', { stream: s.id }), 0);
    assert.ok((sample(text, 'svc_live_ladder_cpu_seconds', { stream: s.id }) ?? -1) >= 0);
    assert.is(sample(text, 'svc_viewers_watching', { stream: s.id }), 1);
    assert.is(sample(text, 'svc_chat_readers'), 0);

    assert.ok((sample(text, 'svc_webhook_attempt_duration_seconds_count', { endpoint: endpoint.body.id }) ?? 0) >= 1);
    assert.is(sample(text, 'svc_webhook_attempts_total', { endpoint: endpoint.body.id, result: 'failure' }), undefined);

    const since =
      (sample(text, 'svc_job_last_success_timestamp_seconds', { job: 'reservation-expiry' }) as number) * 1000;
    assert.ok(Math.abs(Date.now() - since) < 60_000, `last success ${new Date(since).toISOString()}`);
    assert.is(sample(text, 'svc_job_period_seconds', { job: 'reservation-expiry' }), 1);
    assert.ok((sample(text, 'svc_job_lag_seconds', { job: 'reservation-expiry' }) ?? Infinity) < 60);
    assert.is(sample(text, 'svc_job_period_seconds', { job: 'idempotency-purge' }), 3600);

    const connections = samples(text).filter((x) => x.name === 'svc_postgres_connections');
    assert.ok(connections.reduce((sum, x) => sum + x.value, 0) >= 1, JSON.stringify(connections));
    // The stub_status request itself is one active connection.
    assert.ok((sample(text, 'svc_nginx_connections', { state: 'active' }) ?? 0) >= 1);
    assert.ok((sample(text, 'process_cpu_seconds_total') ?? 0) > 0);
    assert.is(samples(text).filter((x) => x.name === 'svc_scrape_errors_total').length, 0, 'no source failed');
  },
);

t('a failing webhook endpoint is counted per endpoint, its delivery waits in the queue', async (ctx) => {
  const { app, receiver } = ctx;
  const { key } = await app.newAccount();
  receiver.script('/failing', { status: 500 });
  const endpoint = await app.call('POST', '/v1/webhooks', { key, body: { url: receiver.url('/failing') } });
  assert.is(endpoint.status, 201, endpoint.text);
  assert.is((await app.call('POST', `/v1/webhooks/${endpoint.body.id}/test`, { key })).status, 202);
  await receiver.waitFor('/failing', 1, 10_000);
  const text = await waitFor('the failure counted', async () => {
    const now = await scrape(ctx);
    return sample(now, 'svc_webhook_attempts_total', { endpoint: endpoint.body.id, result: 'failure' }) === 1 && now;
  });
  assert.is(sample(text, 'svc_webhook_attempts_total', { endpoint: endpoint.body.id, result: 'success' }), undefined);
  // Retried later (the first retry is seconds away): pending meanwhile.
  assert.is(sample(text, 'svc_webhook_queue_depth', { endpoint: endpoint.body.id }), 1);
});

/** Metric names an expression reads: identifiers that are not functions, keywords, labels or grouping lists. */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const keywords = new Set(['and', 'or', 'unless', 'offset', 'bool']);
  return [...bare.matchAll(/([a-zA-Z_:][\w:]*)(\s*\()?/g)]
    .filter((m) => !m[2] && !keywords.has(m[1] as string) && !/^\d/.test(m[1] as string))
    .map((m) => m[1] as string);
}

t(
  'docs/grafana-dashboard.json: valid JSON, every panel graphs metrics the endpoint exposes, every svc_ metric is graphed',
  async (ctx) => {
    const file = fileURLToPath(new URL('../../docs/grafana-dashboard.json', import.meta.url));
    const dashboard = JSON.parse(readFileSync(file, 'utf8')) as {
      panels: { type: string; title: string; panels?: unknown[]; targets?: { expr: string }[] }[];
    };
    const text = await scrape(ctx);
    const exposed = new Set<string>();
    const families = new Set<string>();
    for (const m of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      const [, name, type] = m as unknown as [string, string, string];
      families.add(name);
      exposed.add(name);
      if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) exposed.add(name + suffix);
      if (type === 'summary') for (const suffix of ['_sum', '_count']) exposed.add(name + suffix);
    }
    const graphed = new Set<string>();
    const panels = dashboard.panels
      .flatMap((p) => [p, ...((p.panels ?? []) as typeof dashboard.panels)])
      .filter((p) => p.type !== 'row');
    assert.ok(panels.length >= 10);
    for (const panel of panels) {
      assert.ok(panel.targets?.length, `${panel.title}: no query`);
      for (const target of panel.targets ?? []) {
        const names = metricNames(target.expr);
        assert.ok(names.length, `${panel.title}: ${target.expr} names no metric`);
        for (const name of names) {
          assert.ok(exposed.has(name), `${panel.title}: ${name} is not exposed`);
          graphed.add(name.replace(/_(bucket|sum|count)$/, ''));
        }
      }
    }
    const ungraphed = [...families].filter((f) => f.startsWith('svc_') && !graphed.has(f));
    assert.equal(ungraphed, [], 'every svc_ metric is on the dashboard');
  },
);

t('a scrape while PostgreSQL does not answer: 200, those metrics left out, the error counted', async () => {
  const sql = connect(`postgres://svc:unused@127.0.0.1:${await freePort()}/svc`, { max: 1, connectTimeoutSeconds: 1 });
  const metrics = new ApplianceMetrics();
  metrics.attach({
    sql,
    clock: systemClock,
    logger: createLogger('silent'),
    capacity: resolveConfig('/nonexistent', {}).capacity,
  });
  const port = await freePort();
  const stop = await metrics.listen('127.0.0.1', port);
  try {
    for (const n of [1, 2]) {
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      assert.is(res.status, 200);
      const text = await res.text();
      assert.is(sample(text, 'svc_scrape_errors_total', { source: 'streams' }), n);
      assert.is(sample(text, 'svc_scrape_errors_total', { source: 'jobs' }), n);
      assert.equal(
        samples(text).filter((x) => x.name === 'svc_streams' || x.name === 'svc_job_lag_seconds'),
        [],
      );
      assert.ok(sample(text, 'process_cpu_seconds_total') !== undefined);
    }
  } finally {
    await stop();
    await sql.end({ timeout: 0 });
  }
});

t.run();
