/**
 * What viewer identity costs an API node, in CPU microseconds per request through Fastify's
 * in-process injection (no sockets), 50 in flight: opening a session (token check with jose, ban
 * and key lookups, one insert), renewing a member's address, a beat with and without `t`; and
 * one attendance flush of 10,000 viewers.
 */
import { SignJWT } from 'jose';
import { AccountsService } from '../src/domains/ledger/accounts/service.js';
import { createApi } from '../src/composition/appliance.js';
import { resolveConfig } from '../src/config/config.js';
import { systemClock } from '../src/core/clock.js';
import { createLogger } from '../src/core/logger.js';
import { cpuPerOp } from './cpu.js';
import { startBenchDatabase } from './database.js';

const OPS = 5000;
const FLUSH_VIEWERS = 10_000;

export async function benchIdentity(): Promise<string> {
  const db = await startBenchDatabase();
  try {
    const api = await createApi({
      sql: db.sql,
      config: resolveConfig(db.dir, {}),
      clock: systemClock,
      logger: createLogger('warn'),
      secrets: { postgres_password: '', signing_key: 'b', data_key: 'b' },
    });
    const accounts = new AccountsService(db.sql, systemClock);
    const account = await accounts.create({ name: 'Identity', trusted: true, creditUsd: '10' });
    const { key } = await accounts.createApiKey(account.id);
    const viewerKey = await accounts.createViewerKey(account.id);
    const created = await api.app.inject({
      method: 'POST',
      url: '/v1/streams',
      headers: { authorization: `Bearer ${key}` },
      payload: { player: { require_viewer_token: true } },
    });
    const id = (created.json() as { id: string }).id;
    const token = await new SignJWT({ sub: 'pupil-1', name: 'Ada' })
      .setProtectedHeader({ alg: 'HS256', kid: viewerKey.id })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(viewerKey.secret));
    const session = (
      await api.app.inject({ method: 'POST', url: `/v1/embed/${id}/session`, payload: { viewer_token: token } })
    ).json() as { session_token: string };
    const t = encodeURIComponent(session.session_token);
    let n = 0;
    const rows: [string, () => Promise<unknown>][] = [
      [
        'POST session',
        () => api.app.inject({ method: 'POST', url: `/v1/embed/${id}/session`, payload: { viewer_token: token } }),
      ],
      [
        'POST playback (renewal)',
        () =>
          api.app.inject({
            method: 'POST',
            url: `/v1/embed/${id}/playback`,
            payload: { session_token: session.session_token },
          }),
      ],
      [
        'POST beat',
        () => api.app.inject({ method: 'POST', url: `/v1/embed/${id}/beat?s=page-load-${n++ % 1000}&st=p&u=0.5` }),
      ],
      [
        'POST beat with t',
        () =>
          api.app.inject({ method: 'POST', url: `/v1/embed/${id}/beat?s=page-load-${n++ % 1000}&st=p&u=0.5&t=${t}` }),
      ],
    ];
    const lines = [`Viewer identity: CPU of the API process per request (${OPS} requests, 50 in flight)`];
    for (const [name, fn] of rows) {
      const r = await cpuPerOp(fn, OPS);
      lines.push(
        `${name.padEnd(26)} ${r.us.toFixed(0).padStart(5)} µs   ${Math.round(r.perSecond).toString().padStart(6)} /s`,
      );
    }

    const { recorder } = api.attendance;
    const t0 = Date.now();
    for (let i = 0; i < FLUSH_VIEWERS; i++) {
      const viewer = { streamId: id, viewerId: `viewer-${i}`, name: null };
      recorder.beat(viewer, `vsn_${i}`, 'p', t0);
      recorder.beat(viewer, `vsn_${i}`, 'p', t0 + 30_000);
    }
    const started = performance.now();
    const written = await api.attendance.flush();
    lines.push(`attendance flush of ${written} viewers: ${Math.round(performance.now() - started)} ms`);
    await api.app.close();
    return lines.join('\n');
  } finally {
    await db.stop();
  }
}
